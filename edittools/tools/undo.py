"""The undo tool: walk a file back through this session's changes, one per call."""

from __future__ import annotations

from edittools._errors import ToolError
from edittools._workspace import Change, Planned, Workspace
from edittools.artifacts import ToolResult
from edittools.diff import diff_texts
from edittools.tools._change import change_result, summary, vet, wants_texts, with_refs
from edittools.tools._guard import read_if_exists
from edittools.tools._params import UndoParams
from sandbox import SandboxError, Version, decode


def undo(ws: Workspace, params: UndoParams) -> ToolResult:
    """Restore `params.path` to its content before the session's last change to it.

    Refused with `stale_read` when the file no longer holds what that change wrote: undoing would
    throw away someone else's work.
    """
    sb = ws.sandbox
    path = sb.relpath(params.path)
    with sb.lock(path):
        change = ws.last_change(path)
        if change is None:
            raise ToolError(
                "nothing_to_undo",
                f"This session has made no change to {path} that could be undone.",
                {"path": path},
            )
        existing = read_if_exists(ws, path)
        current, version = existing if existing is not None else (None, None)
        current_sha = None if version is None else version.digest
        if current_sha != change.after_digest:
            raise ToolError(
                "stale_read",
                f"{path} changed after this session's last change to it, so undo would discard "
                "that newer work. Read the file and edit it instead.",
                {"path": path},
            )
        restored = None if change.before_blob is None else _saved(ws, path, change.before_blob)
        old_text, new_text = _text(current), _text(restored)
        check = vet(ws, path, old_text, new_text, may_refuse=False)
        if ws.dry_run:
            ws.sandbox.check_write(path)
        else:
            _restore(ws, change, current, version, restored)
    include = wants_texts(ws, len(current or b""), len(restored or b""))
    payload = diff_texts(old_text, new_text, path=path, include_texts=include)
    new_id = None if ws.dry_run else change.before_blob
    payload = with_refs(ws, payload, current_sha, new_id)
    verb = "Undid the last change to" if restored is not None else "Undid the creation of"
    return change_result(summary(verb, payload), payload, check)


def _saved(ws: Workspace, path: str, blob_id: str) -> bytes:
    """The bytes saved before the change, or an error that says they are gone."""
    try:
        return ws.sandbox.store.get(blob_id)
    except SandboxError as exc:
        raise ToolError(
            "state_corrupt" if exc.code == "blob_corrupt" else "io_error",
            f"The saved copy of {path} from before the last change is missing or damaged in the "
            f"state folder {ws.state_path}, so undo cannot restore it. The file is unchanged; "
            "edit it instead.",
            {"path": path, "blob": blob_id, "cause": exc.code},
        ) from exc


def _restore(
    ws: Workspace,
    change: Change,
    current: bytes | None,
    version: Version | None,
    restored: bytes | None,
) -> None:
    """Put `restored` back over the file (delete it when None), marking `change` undone."""
    ws.commit([Planned(change.path, current, version, restored)], undoes=change)


def _text(data: bytes | None) -> str | bytes | None:
    """Decoded text for diffing, or the bytes themselves when they are not text."""
    if data is None:
        return None
    try:
        return decode(data).text
    except SandboxError:
        return data
