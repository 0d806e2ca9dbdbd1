"""edittools: safe, forgiving file tools for agents, with diff artifacts every UI can show.

`Session` holds the tools; every call returns a `ToolResult`. `artifact_of`, `value_of` and
`adapt` read any tool result a host may hold, ours or another runtime's, and never raise.

Names are imported on first use (PEP 562), so a command that needs only the diff engine, such
as ``edittools diff``, does not load the tools, the watcher and every model at start-up.
"""

import typing as _typing

from edittools._lazy import lazy_names as _lazy_names

if _typing.TYPE_CHECKING:
    from edittools._choices import (
        DIAGNOSTICS_POLICIES,
        FORMAT_POLICIES,
        STALE_POLICIES,
        STATE_DIR_HELP,
        SYNTAX_POLICIES,
    )
    from edittools._errors import ToolError
    from edittools._options import SessionOptions
    from edittools._session import Caller, Session
    from edittools.artifacts import StreamEvent, ToolResult, artifact_of, value_of
    from edittools.dialects import adapt
    from edittools.state import ExternalWatcher

__all__ = [
    "DIAGNOSTICS_POLICIES",
    "FORMAT_POLICIES",
    "STALE_POLICIES",
    "STATE_DIR_HELP",
    "SYNTAX_POLICIES",
    "Caller",
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

_HOMES = {
    "DIAGNOSTICS_POLICIES": "edittools._choices",
    "FORMAT_POLICIES": "edittools._choices",
    "STALE_POLICIES": "edittools._choices",
    "STATE_DIR_HELP": "edittools._choices",
    "SYNTAX_POLICIES": "edittools._choices",
    "Caller": "edittools._session",
    "ExternalWatcher": "edittools.state",
    "Session": "edittools._session",
    "SessionOptions": "edittools._options",
    "StreamEvent": "edittools.artifacts",
    "ToolError": "edittools._errors",
    "ToolResult": "edittools.artifacts",
    "adapt": "edittools.dialects",
    "artifact_of": "edittools.artifacts",
    "value_of": "edittools.artifacts",
}


__getattr__, __dir__ = _lazy_names(__name__, _HOMES, __all__)
