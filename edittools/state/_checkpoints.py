"""Checkpoints: what every file the tools touched held at one moment, to review or rewind to.

A checkpoint row keeps the newest `changes` id and intent id at the moment it was taken, and
`checkpoint_files` the content (a blob id) of every path the tools had touched by then, read from
disk. The content of a path at a checkpoint is therefore its snapshot row or, for a path the tools
first touched later, the `before` of its first later change; nothing is copied that the undo
history already holds. Hunks a reviewer accepted are remembered per checkpoint and path by a hash
of their lines, so a later review can leave them out.
"""

from __future__ import annotations

import bisect
import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from edittools._errors import ToolError
from sandbox import BlobStore, Sandbox, SandboxError, StateIndex
from sandbox.state import checkpoints as rows
from sandbox.state import history

__all__ = ["Checkpoint", "Checkpoints", "Snapshot", "hunk_key"]


@dataclass(frozen=True)
class Checkpoint:
    """One checkpoint: its id, label, what took it automatically (None: asked for), when, the
    files changed since, and who took it (an agent's name; None: not named)."""

    id: int
    label: str | None
    auto: str | None
    created: float
    files: int
    actor: str | None = None


@dataclass(frozen=True)
class Snapshot:
    """A path's content at a checkpoint: `exists` False for no file; `blob` None when unknown."""

    exists: bool
    blob: str | None

    @property
    def known(self) -> bool:
        """Whether the content can be put back (absent, or kept in the blob store)."""
        return not self.exists or self.blob is not None


class Checkpoints:
    """The checkpoints of one root, in its state index."""

    def __init__(
        self,
        sandbox: Sandbox,
        index: StateIndex,
        *,
        keep_bytes: int,
        known: Callable[[str], bool] | None = None,
        fetch: Callable[[str], bytes] | None = None,
    ) -> None:
        """`known(id)` says whether the state can give a content by its id without a blob of
        its own (a recipe on a kept one), which `fetch(id)` then gives (checked against it)."""
        self._sandbox = sandbox
        self._index = index
        self._store: BlobStore = sandbox.store
        self._keep_bytes = keep_bytes
        self._known = known
        self._fetch = fetch if fetch is not None else self._store.get

    def take(
        self, label: str | None = None, *, auto: str | None = None, actor: str | None = None
    ) -> int:
        """Record the content of every file the tools have touched; return the new id.

        An automatic checkpoint with nothing changed by the tools since the newest checkpoint
        returns that one instead of piling up copies.
        """
        now = rows.marks(self._index)
        if auto is not None:
            last = rows.newest_with_marks(self._index)
            if last is not None and last[1] == now:
                return last[0]
        files = [(path, *self._snap(path)) for path in history.changed_paths(self._index)]
        return rows.add_checkpoint(self._index, label, auto, now, files, actor)

    def listing(self) -> list[Checkpoint]:
        """Every checkpoint of the root, oldest first, with the files changed since each.

        A path counts for a checkpoint when its newest change, or its newest undo, came after
        the checkpoint's marks: one pass over the paths' newest marks, then a count per
        checkpoint (a query per checkpoint over every change took a minute at 50,000 changes).
        Raises `ToolError` (`state_corrupt` for a row of the wrong shape, or the state's own
        failure), never what a tampered row would make Python raise.
        """
        try:
            found = rows.checkpoint_rows(self._index)
            newest = rows.newest_marks_per_path(self._index)
        except SandboxError as exc:
            raise ToolError.from_sandbox(exc) from exc
        for cid, label, auto, created, *_ in found:
            if not (isinstance(label, str | None) and isinstance(auto, str | None)
                    and type(created) in (int, float)):  # fmt: skip
                raise ToolError(
                    "state_corrupt",
                    f"Checkpoint {cid} in the state index {self._index.path} is damaged (its "
                    "label, kind or time is not what a checkpoint holds). Move the state folder "
                    "aside (or remove it); the tools then start with fresh state.",
                    {"checkpoint": cid, "path": str(self._index.path)},
                )
        counts = _changed_since(newest, [(r[4], r[5]) for r in found])
        return [
            Checkpoint(
                int(r[0]), r[1], r[2], float(r[3]), count, r[6] if isinstance(r[6], str) else None
            )
            for r, count in zip(found, counts, strict=True)
        ]

    def latest(self) -> int | None:
        """The id of the newest checkpoint, if any."""
        return rows.latest(self._index)

    def exists(self, checkpoint: int) -> bool:
        """Whether `checkpoint` is a checkpoint of this root."""
        return rows.exists(self._index, checkpoint)

    def since(self, checkpoint: int) -> dict[str, Snapshot]:
        """Every path the tools changed since `checkpoint`, with its content then; sorted by path."""
        marks = rows.checkpoint_marks(self._index, checkpoint)
        if marks is None:
            raise KeyError(checkpoint)
        out = {}
        for path in rows.paths_changed_after(self._index, marks):
            snap = rows.snapshot(self._index, checkpoint, path)
            if snap is not None:
                state, blob = snap
                out[path] = Snapshot(state != "absent", blob if state == "kept" else None)
                continue
            before = rows.first_change_after(self._index, path, marks[0])
            out[path] = Snapshot(before is not None, before)
        return out

    def change_mark(self, checkpoint: int) -> int:
        """The newest change id when `checkpoint` was taken (KeyError: no such checkpoint)."""
        marks = rows.checkpoint_marks(self._index, checkpoint)
        if marks is None:
            raise KeyError(checkpoint)
        return int(marks[0])

    def changed_by(self, checkpoint: int, actor: str) -> set[str]:
        """The paths `actor` changed (or undid a change of) since `checkpoint`."""
        marks = rows.checkpoint_marks(self._index, checkpoint)
        return set() if marks is None else set(rows.paths_changed_after(self._index, marks, actor))

    def content(self, snapshot: Snapshot) -> bytes | None:
        """The bytes of a snapshot (None: no file); raises SandboxError when the blob is gone."""
        if not snapshot.exists:
            return None
        if snapshot.blob is None:
            raise SandboxError("blob_missing", "The content at the checkpoint was not kept.")
        return self._fetch(snapshot.blob)

    def accept(self, checkpoint: int, path: str, hunks: Iterable[list[str]]) -> None:
        """Remember the hunks (by their lines) of `path` as reviewed since `checkpoint`."""
        rows.accept_hunks(self._index, checkpoint, path, map(hunk_key, hunks))

    def accepted(self, checkpoint: int, path: str) -> set[str]:
        """The keys of the hunks of `path` accepted since `checkpoint`."""
        return rows.accepted_hunks(self._index, checkpoint, path)

    def _snap(self, path: str) -> tuple[str, str | None]:
        try:
            data, version = self._sandbox.read_bytes(path)
        except SandboxError as exc:
            if exc.code == "io_error":
                # The system failed (out of descriptors, a disk error), not the file: recorded as
                # unknown, it could never be reviewed or rewound to from this checkpoint.
                raise
            return ("absent", None) if exc.code == "not_found" else ("unknown", None)
        if len(data) > self._keep_bytes:
            return "unknown", None
        digest = version.digest
        if self._known is not None and not self._store.has(digest) and self._known(digest):
            return "kept", digest  # what the tools wrote there, rebuilt from a recipe: no copy
        return "kept", self._store.put(data, blob_id=digest)  # durable: a rewind restores it


def _changed_since(paths: list[tuple[int, int]], marks: list[tuple[int, int]]) -> list[int]:
    """For each checkpoint's marks ``(change, intent)``, how many paths have a newest change
    over `change` or a newest undo over `intent`, from each path's ``(change, undo)``.

    That is every path but those with both at or below the marks, counted in one sweep over
    paths and marks sorted by the change mark, with a Fenwick tree over the undo marks.
    """
    undos = sorted({u for _, u in paths})
    tree = [0] * (len(undos) + 1)
    by_change = sorted(paths)
    out = [0] * len(marks)
    taken = 0
    for k in sorted(range(len(marks)), key=lambda k: marks[k][0]):
        change, intent = marks[k]
        while taken < len(by_change) and by_change[taken][0] <= change:
            at = bisect.bisect_left(undos, by_change[taken][1]) + 1
            while at <= len(undos):
                tree[at] += 1
                at += at & -at
            taken += 1
        at, below = bisect.bisect_right(undos, intent), 0
        while at > 0:
            below += tree[at]
            at -= at & -at
        out[k] = len(paths) - below
    return out


def hunk_key(lines: list[str]) -> str:
    """A stable key of a hunk, from its lines only (its position moves as other hunks change)."""
    return hashlib.sha256(json.dumps(lines, ensure_ascii=False).encode("utf-8")).hexdigest()
