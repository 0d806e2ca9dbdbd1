"""Undo: a file walked back through this session's changes, one per call, by the change machinery.

The undo tool finds the change to take back (`Workspace.last_change`); `execute_undo` makes it:
the read and the size regime (a file over the cap takes the streamed pass, a large one whose
change is a kept recipe puts its one span back on bytes), the refusal of a file that changed
since, and otherwise the whole old content handed to `execute_all`.
"""

from __future__ import annotations

from edittools._errors import ToolError
from edittools.artifacts import ToolResult
from edittools.change._bytematch import plain_utf8
from edittools.change._call import Call
from edittools.change._commit import (
    by_bytes,
    change_result,
    commit_all,
    digest,
    wants_texts,
    with_refs,
)
from edittools.change._fresh import read_if_exists_deferred
from edittools.change._sentence import summary
from edittools.change._splice import splice_views
from edittools.change._streamed import streamed_undo
from edittools.change._whole import Whole, execute_all
from edittools.diff import diff_spans
from edittools.state import Change, Recipe, Span, Workspace
from sandbox import Digester, FileWrite, SandboxError, Version


def execute_undo(ws: Workspace, call: Call, change: Change) -> ToolResult:
    """Restore `change.path` to its content before `change` (the caller holds its lock).

    Refused with `stale_read` when the file no longer holds what that change wrote: undoing would
    throw away someone else's work.
    """
    path = change.path
    recipe = ws.recipe(change.after_digest or "")
    steps: list[tuple[int, Digester]] = []
    try:
        existing = read_if_exists_deferred(ws, path, on_step=steps.append)
    except SandboxError as exc:
        if exc.code != "too_large":
            raise
        return streamed_undo(ws, call, change)
    current = None if existing is None else existing[0]
    fast = None
    if existing is not None and recipe is not None:
        # While another core hashes the file (unless it is what this session wrote last).
        # Plainness is taken from the content the change wrote: the file is used below only
        # once its digest proved to be that content's.
        plain = ws.contents.is_plain(change.after_digest or "")
        fast = _by_recipe(ws, change, existing[0], recipe, plain=plain)
    version = None if existing is None else existing[1].result()
    current_sha = None if version is None else version.digest
    if current_sha != change.after_digest:
        raise ToolError(
            "stale_read",
            f"{path} changed after this session's last change to it, so undo would discard "
            "that newer work. Read the file and edit it instead.",
            {"path": path},
        )
    if fast is not None and existing is not None and version is not None:
        ws.contents.note_states(version.digest, steps)
        return _undo_span(ws, call, change, existing[0], version, fast)
    restored = None if change.before_blob is None else _saved(ws, path, change.before_blob)
    planned = Whole(path, current, version, restored, restores=True)
    done = execute_all(ws, call, [planned], undoes=change)[0]
    verb = "Undid the last change to" if restored is not None else "Undid the creation of"
    return done.result(verb)


def _by_recipe(
    ws: Workspace, change: Change, current: bytes, recipe: Recipe, *, plain: bool
) -> Span | None:
    """The span that turns `current` back into the content before `change`, for a large plain
    UTF-8 file whose new content is kept as a recipe on the old one; None: the whole-file path.

    The old bytes of the span are read from the kept blob alone; the restored content is then
    checked against the blob's id as it is written (it must hash to `change.before_blob`).
    """
    if change.before_blob is None or not by_bytes(ws, len(current)):
        return None
    if recipe.base != change.before_blob or not (plain or plain_utf8(current)):
        return None
    if recipe.more:
        return None  # several spans (a streamed change): the whole-file path
    end = recipe.start + len(recipe.middle)
    if current[recipe.start : end] != recipe.middle:
        return None
    try:
        old = ws.sandbox.store.read_range(recipe.base, recipe.start, recipe.stop)
    except SandboxError:
        return None  # the whole-file path words what is missing
    return recipe.start, end, old


def _undo_span(
    ws: Workspace,
    call: Call,
    change: Change,
    current: bytes,
    version: Version,
    span: Span,
) -> ToolResult:
    """Undo on bytes: write `current` with one span put back, diff that span alone.

    The restored content is hashed from the current one's digest state below the span.
    """
    path = change.path
    start, end, old = span
    size = len(current) - (end - start) + len(old)
    include = wants_texts(ws, len(current), size)

    # The line number comes from the counts kept for the content the change wrote (see _contents).
    first_line = ws.contents.line_of(version.digest, current, start)
    payload = diff_spans(current, [span], path=path, binary=False, include_texts=include,
                         first_line=first_line)  # fmt: skip
    prefix = ws.contents.state_below(version.digest, start)
    new_steps: list[tuple[int, Digester]] = []
    write = FileWrite(path, splice_views(current, [span]), version, change.before_blob, prefix,
                      new_steps.append, base=current, span=span)  # fmt: skip
    try:
        new_version = commit_all(ws, call, [write], undoes=change)[0]
    except SandboxError as exc:
        if exc.code != "blob_corrupt":
            raise
        raise _damaged(ws, path, change.before_blob or "", exc) from exc
    new_id = digest(new_version)
    if new_id is not None:
        ws.contents.carry(version.digest, new_id, start)
        ws.contents.note_states(new_id, new_steps)
        ws.contents.note_written(path, new_id, current, [span])
    payload = with_refs(ws, payload, version.digest, new_id)
    return change_result(summary("Undid the last change to", payload), payload, None)


# The sandbox's codes that say a stored content is gone or unusable (others are the system's).
_LOST = frozenset({"blob_missing", "blob_corrupt", "state_corrupt"})


def _damaged(ws: Workspace, path: str, blob_id: str, exc: SandboxError) -> ToolError:
    if exc.code not in _LOST:  # e.g. out of descriptors: the copy is fine, the retry may work
        return ToolError.from_sandbox(exc)
    return ToolError(
        "state_corrupt" if exc.code == "blob_corrupt" else "io_error",
        f"The saved copy of {path} from before the last change is missing or damaged in the "
        f"state folder {ws.state_path}, so undo cannot restore it. The file is unchanged; "
        "edit it instead.",
        {"path": path, "blob": blob_id, "cause": exc.code},
    )


def _saved(ws: Workspace, path: str, blob_id: str) -> bytes:
    """The bytes saved before the change, or an error that says they are gone."""
    try:
        return ws.sandbox.store.get(blob_id)
    except SandboxError as exc:
        raise _damaged(ws, path, blob_id, exc) from exc
