"""The output schema every tool declares.

A call answers with the model-facing `value` as one text block, the whole `ToolResult` (artifact
included, wire names) as `structuredContent`, and `isError` from the result; the conversion is
`edittools.dialects.result_to_call_tool_result`. Failures are results, never raised exceptions,
because the SDK does not forward a plain exception's message and the agent needs it to recover.
"""

from __future__ import annotations

import functools
from typing import Any

from edittools.artifacts import ToolResult


@functools.cache
def output_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) every tool's `structuredContent` conforms to: a ToolResult."""
    schema = ToolResult.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
