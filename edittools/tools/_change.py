"""Committing one file's change: compare-and-swap write, undo history, read record, diff payload."""

from __future__ import annotations

from edittools._workspace import Workspace
from edittools.artifacts import DiffPayload
from sandbox import ABSENT, Version


def commit(
    ws: Workspace,
    path: str,
    before: bytes | None,
    before_version: Version | None,
    after: bytes | None,
) -> Version | None:
    """Write `after` over `path` (or delete it when None) if it still holds `before`.

    The write is a compare-and-swap against `before_version` (or "must not exist" when the file is
    new), so a concurrent writer is detected, never overwritten. The old bytes go to the undo history
    and the new content becomes what the session has seen. In a dry run nothing is written.
    """
    sb = ws.sandbox
    if ws.dry_run:
        return before_version
    if after is None:
        sb.delete(path, expect=before_version)
        ws.record_change(path, before, None)
        ws.forget(path)
        return None
    expect = before_version if before_version is not None else ABSENT
    version = sb.write_bytes(path, after, expect=expect, make_parents=True)
    ws.record_change(path, before, version)
    ws.note_seen(path, after, version)
    return version


def wants_texts(ws: Workspace, *sizes: int) -> bool:
    """Whether full old/new texts fit inline in an artifact."""
    return all(size <= ws.options.inline_text_bytes for size in sizes)


def with_blobs(
    ws: Workspace, payload: DiffPayload, before: bytes | None, after: bytes | None
) -> DiffPayload:
    """Mark a payload whose texts were left out as truncated, with blob ids to fetch them."""
    if payload.old is not None or payload.new is not None or payload.binary:
        return payload
    store = ws.sandbox.store
    limit = ws.options.baseline_bytes
    old_blob = store.put(before) if before is not None and len(before) <= limit else None
    new_blob = store.put(after) if after is not None and len(after) <= limit else None
    return payload.model_copy(
        update={"truncated": True, "old_blob": old_blob, "new_blob": new_blob}
    )


def summary(verb: str, payload: DiffPayload) -> str:
    """The first line of a change's value: what happened, to which file, `+N -M`."""
    return f"{verb} {payload.path} (+{payload.stats.added} -{payload.stats.removed})."
