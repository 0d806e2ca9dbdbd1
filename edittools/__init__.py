"""edittools: safe, forgiving file tools for agents, with diff artifacts every UI can show.

`Session` holds the tools; every call returns a `ToolResult`. `artifact_of`, `value_of` and
`adapt` read any tool result a host may hold, ours or another runtime's, and never raise.
"""

from edittools._errors import ToolError
from edittools._external import ExternalWatcher
from edittools._options import SYNTAX_POLICIES, SessionOptions
from edittools._session import Session
from edittools.artifacts import StreamEvent, ToolResult, artifact_of, value_of
from edittools.dialects import adapt

__all__ = [
    "SYNTAX_POLICIES",
    "ExternalWatcher",
    "Session",
    "SessionOptions",
    "StreamEvent",
    "ToolError",
    "ToolResult",
    "adapt",
    "artifact_of",
    "value_of",
]
