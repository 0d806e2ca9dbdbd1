"""The undo tool: walk a file back through this session's changes, one per call."""

from __future__ import annotations

from edittools._errors import ToolError
from edittools.artifacts import ToolResult
from edittools.change import Call, execute_undo
from edittools.state import Workspace
from edittools.tools._params import UndoParams


def undo(ws: Workspace, params: UndoParams, call: Call) -> ToolResult:
    """Restore `params.path` to its content before the session's last change to it.

    Refused with `stale_read` when the file no longer holds what that change wrote: undoing would
    throw away someone else's work.
    """
    path = ws.sandbox.relpath(params.path)
    with ws.sandbox.lock(path):
        change = ws.last_change(path)
        if change is None:
            raise ToolError(
                "nothing_to_undo",
                f"This session has made no change to {path} that could be undone.",
                {"path": path},
            )
        return execute_undo(ws, call, change)
