"""What every tool call answers over MCP, and where the contents it refers to are served.

A call answers with the model-facing `value` as a text block (and, for a read image, the image),
the rest of the `ToolResult` (the artifact, for a host's UI) under `_meta["edittools/result"]`,
and `isError`; the conversion is `edittools.dialects.result_to_mcp`, after `by_reference`.
Failures are results, never raised exceptions, because the SDK does not forward a plain
exception's message and the agent needs it to recover.

No tool declares an output schema and no answer carries `structuredContent`: clients may hand
that to the model (pydantic-ai does), which would then read every text twice and the artifact
besides, and the schema would be sent again with every tool of `tools/list`. A diff's full texts
are left out of the artifact and reached by `old_ref`/`new_ref` as resources, unless the server
inlines them on request; a read's window is the text block alone (the artifact keeps its
`text_ref` and lines).
"""

from __future__ import annotations

BLOB_URI = "edittools://blob/{id}"
"""The resource URI template of stored contents (texts a diff refers to, image bytes)."""
