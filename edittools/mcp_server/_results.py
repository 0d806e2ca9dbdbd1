"""Results of the server's own checks, and the output schema every tool declares.

A call answers with the model-facing `value` as one text block, the whole `ToolResult` (artifact
included, wire names) as `structuredContent`, and `isError` from the result; the conversion is
`edittools.dialects.result_to_call_tool_result`. Failures are results, never raised exceptions,
because the SDK does not forward a plain exception's message and the agent needs it to recover.
"""

from __future__ import annotations

import functools
from typing import Any

from pydantic import ValidationError

from edittools.artifacts import ErrorArtifact, ErrorPayload, ToolResult

INTERNAL_ERROR = "internal_error"
"""Code of a result for a failure the tools did not foresee (a bug, not bad input)."""


@functools.cache
def output_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) every tool's `structuredContent` conforms to: a ToolResult."""
    schema = ToolResult.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


def error_result(code: str, message: str, detail: Any = None) -> ToolResult:
    """A failed result of the server's own checks, shaped like the tools' error results."""
    artifact = ErrorArtifact(
        icon="error", payload=ErrorPayload(code=code, message=message, detail=detail)
    )
    return ToolResult(value=f"Error ({code}): {message}", artifact=artifact, is_error=True)


def invalid_arguments(tool: str, exc: ValidationError) -> ToolResult:
    """The error result for arguments that do not fit a tool's input model."""
    parts = []
    for error in exc.errors(include_url=False):
        where = ".".join(str(part) for part in error["loc"]) or "arguments"
        parts.append(f"{where}: {error['msg']}")
    return error_result(
        "invalid_arguments",
        f"The arguments of {tool} are not valid: {'; '.join(parts)}. Fix them and call again.",
        {"errors": exc.errors(include_url=False, include_context=False, include_input=False)},
    )
