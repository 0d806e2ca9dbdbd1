"""MCP: ToolResults as `CallToolResult`s and back, and the filesystem server's `edit_file` diff.

Out, the text content is the result's value (what the model reads), `_meta["edittools/result"]`
the rest of the result object (the artifact, for a host's UI), and `isError` its error flag.
There is no `structuredContent`: some clients hand it to the model (pydantic-ai does whenever
every block is text), which would then read the text twice and the artifact besides. A read's
window goes once: in the text block, its artifact keeping only where it is (`text_ref`, lines).
In accepts the wire dict or the MCP SDK's `CallToolResult`, in this shape or the earlier one
that carried the result as `structuredContent`. The reference filesystem server's `edit_file` answers with a unified diff in a
Markdown code fence; it becomes a diff artifact.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from edittools.artifacts import ToolResult, value_of
from edittools.artifacts.access import MCP_RESULT_META
from edittools.artifacts.builders import changeset_result, diff_result
from edittools.dialects._adapt import adapt
from edittools.dialects._fields import fallback
from edittools.dialects._patches import payload_from_unified

if TYPE_CHECKING:
    import mcp.types


def result_to_mcp(result: ToolResult) -> dict[str, Any]:
    """A ToolResult as a `CallToolResult` wire dict: the value as the text block, everything
    else under `_meta[MCP_RESULT_META]`, a read window's text left to the text block."""
    rest = result.model_dump(mode="json", exclude={"value"})
    artifact = rest.get("artifact")
    if artifact is not None and artifact.get("kind") == "code":
        payload = artifact["payload"]
        if payload.get("text_ref") is not None and not result.is_error:
            payload["text"] = ""
    return {
        "content": [{"type": "text", "text": result.value}],
        "isError": result.is_error,
        "_meta": {MCP_RESULT_META: rest},
    }


def result_to_call_tool_result(result: ToolResult) -> mcp.types.CallToolResult:
    """A ToolResult as the MCP SDK's `CallToolResult`."""
    # The SDK costs most of a second to import: load it only when its object is wanted.
    import mcp.types

    return mcp.types.CallToolResult.model_validate(result_to_mcp(result))


def mcp_to_result(call_tool_result: Any) -> ToolResult:
    """A `CallToolResult` (wire dict or SDK object) as a ToolResult; never raises."""
    return adapt(call_tool_result)


def edit_file_to_result(
    output: Any, *, is_error: bool = False, root: str | None = None
) -> ToolResult:
    """The MCP filesystem server's `edit_file` output (unified diff text, usually fenced) as a
    diff result; text when it holds no parsable diff. Never raises."""
    if not isinstance(output, str):
        return fallback(value_of(output), is_error=is_error)
    try:
        payloads = None if is_error else payload_from_unified(output, root=root)
    except Exception:
        payloads = None
    if not payloads:
        return fallback(output, is_error=is_error)
    if len(payloads) == 1:
        return diff_result(output, payloads[0])
    return changeset_result(output, payloads)
