"""Changes staged in memory over many files (apply_patch): their large files' streamed passes,
their commit of every file or none, and the refs of their diffs.

A patch stages each file's writes and diff itself (its hunks placed, checked and formatted);
`read_for_patch` reads a file for it or, over the cap, places the section by a streamed pass;
`execute_staged` commits every staged write together and gives each diff its contents' refs.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass

from edittools.artifacts import DiffPayload
from edittools.change._call import Call
from edittools.change._commit import commit_all, digest, with_refs
from edittools.change._fresh import read_existing
from edittools.change._streamed import streamed_patch
from edittools.diff import FilePatch
from edittools.state import Workspace
from sandbox import FileWrite, SandboxError, Version


@dataclass(frozen=True)
class StreamedPatch:
    """A file section placed by a streamed pass over a file over the cap: its write (the new
    content as a `Splice`, or the file the kernel already wrote) and its diff."""

    write: FileWrite
    payload: DiffPayload


def read_for_patch(
    ws: Workspace, call: Call, path: str, patch: FilePatch, held: ExitStack
) -> tuple[bytes, Version] | StreamedPatch:
    """`path`'s bytes and version for the patch's section to be placed in; a file over the
    `max_file_bytes` cap has the section placed by a streamed pass instead. `held` keeps what
    must stay open until the commit (a large file's new content, written while it was read)."""
    try:
        return read_existing(ws, path)
    except SandboxError as exc:
        if exc.code != "too_large":
            raise
        splice, version, payload = streamed_patch(ws, call, path, patch, held)
        return StreamedPatch(FileWrite(path, splice, version), payload)


def execute_staged(
    ws: Workspace, call: Call, writes: Sequence[FileWrite], payloads: Sequence[DiffPayload]
) -> list[DiffPayload]:
    """Commit every staged write or none (the caller holds the files' locks), and give each
    payload the ids of its old and new contents: the old one from the write to its old path (a
    move's source), the new one from the write to its path."""
    versions = commit_all(ws, call, writes)
    by_path = {w.path: (w, v) for w, v in zip(writes, versions, strict=True)}
    out = []
    for payload in payloads:
        source = by_path.get(payload.old_path or payload.path)
        target = by_path.get(payload.path)
        before = source[0].expect_digest if source is not None else None
        after = target[1] if target is not None else None
        out.append(with_refs(ws, payload, before, digest(after)))
    return out
