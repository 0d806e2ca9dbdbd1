"""What every tool call answers over MCP: a compact ToolResult, and the schema it conforms to.

A call answers with the model-facing `value` as one text block, the `ToolResult` (artifact
included, wire names) as `structuredContent`, and `isError` from the result; the conversion is
`edittools.dialects.result_to_call_tool_result`, after `by_reference`. Failures are results, never raised exceptions,
because the SDK does not forward a plain exception's message and the agent needs it to recover.

Some clients hand `structuredContent` to the model, so it stays small: a diff's full texts are
left out (`edittools.artifacts.builders.by_reference`) and reached by `old_ref`/`new_ref` as
resources instead, unless the server inlines them on request. The declared schema is small too: the artifact is an open object
whose outer fields are required; the full protocol schema is `edittools/schema/`.
"""

from __future__ import annotations

from typing import Any

BLOB_URI = "edittools://blob/{id}"
"""The resource URI template of stored contents (texts a diff refers to, image bytes)."""

_ARTIFACT_SCHEMA: dict[str, Any] = {
    "type": ["object", "null"],
    "properties": {
        "schema": {"const": "edittools.tool-artifact"},
        "version": {"type": "integer"},
        "payload": {"type": "object"},
    },
    "required": ["schema", "version", "kind", "status", "payload"],
}

# Clients check every result against this schema (the SDK's client does, with jsonschema, at a
# few microseconds a keyword), so it checks only what tells a result of this protocol from
# anything else: the value, the artifact's schema, version and payload, and that its outer fields
# are there. The artifact is an object-or-null type rather than a choice of two schemas. It is
# sent with every tool of `tools/list` (the protocol has no way to share one), so it carries no
# prose: the fields are described in the artifact protocol (`edittools schema`), and the blobs
# a result refers to by id are the server's `edittools://blob/{id}` resources.
_OUTPUT_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {"value": {"type": "string"}, "artifact": _ARTIFACT_SCHEMA},
    "required": ["value"],
}


def output_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) every tool's `structuredContent` conforms to: a ToolResult
    whose artifact is an open object with the protocol's outer fields."""
    return _OUTPUT_SCHEMA
