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
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from edittools._errors import ToolError
from sandbox import BlobStore, Sandbox, SandboxError, StateIndex

__all__ = ["CHECKPOINT_SCHEMA", "Checkpoint", "Checkpoints", "Snapshot", "hunk_key"]

CHECKPOINT_SCHEMA = """
CREATE TABLE IF NOT EXISTS checkpoints (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    label TEXT,
    auto TEXT,                    -- NULL: asked for; else what took it (session, turn, rewind)
    created REAL NOT NULL,
    change_mark INTEGER NOT NULL, -- newest changes.id when it was taken
    intent_mark INTEGER NOT NULL  -- newest intents.id when it was taken
);
CREATE TABLE IF NOT EXISTS checkpoint_files (
    checkpoint INTEGER NOT NULL REFERENCES checkpoints(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    state TEXT NOT NULL,          -- kept, absent, unknown (unreadable or too large to keep)
    blob TEXT,
    PRIMARY KEY (checkpoint, path)
);
CREATE TABLE IF NOT EXISTS accepted_hunks (
    checkpoint INTEGER NOT NULL REFERENCES checkpoints(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    hunk TEXT NOT NULL,           -- hash of the hunk's lines
    PRIMARY KEY (checkpoint, path, hunk)
);
"""


@dataclass(frozen=True)
class Checkpoint:
    """One checkpoint: its id, label, what took it automatically (None: asked for) and when."""

    id: int
    label: str | None
    auto: str | None
    created: float
    files: int


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
        index.ensure(CHECKPOINT_SCHEMA)

    def take(self, label: str | None = None, *, auto: str | None = None) -> int:
        """Record the content of every file the tools have touched; return the new id.

        An automatic checkpoint with nothing changed by the tools since the newest checkpoint
        returns that one instead of piling up copies.
        """
        change_mark, intent_mark = self._marks()
        if auto is not None:
            last = self._index.rows(
                "SELECT id, change_mark, intent_mark FROM checkpoints ORDER BY id DESC LIMIT 1"
            )
            if last and (last[0][1], last[0][2]) == (change_mark, intent_mark):
                return int(last[0][0])
        paths = [row[0] for row in self._index.rows("SELECT DISTINCT path FROM changes")]
        files = [(path, *self._snap(path)) for path in paths]
        with self._index.transaction() as db:
            cur = db.execute(
                "INSERT INTO checkpoints (label, auto, created, change_mark, intent_mark) "
                "VALUES (?, ?, ?, ?, ?)",
                (label, auto, time.time(), change_mark, intent_mark),
            )
            cid = cur.lastrowid
            assert cid is not None
            db.executemany(
                "INSERT INTO checkpoint_files VALUES (?, ?, ?, ?)",
                [(cid, path, state, blob) for path, state, blob in files],
            )
        return int(cid)

    def listing(self) -> list[Checkpoint]:
        """Every checkpoint of the root, oldest first, with the files changed since each.

        A path counts for a checkpoint when its newest change, or its newest undo, came after
        the checkpoint's marks: one pass over the paths' newest marks, then a count per
        checkpoint (a query per checkpoint over every change took a minute at 50,000 changes).
        Raises `ToolError` (`state_corrupt` for a row of the wrong shape, or the state's own
        failure), never what a tampered row would make Python raise.
        """
        try:
            rows = self._index.rows(
                "SELECT id, label, auto, created, CAST(change_mark AS INTEGER), "
                "CAST(intent_mark AS INTEGER) FROM checkpoints ORDER BY id"
            )
            newest = self._index.rows(
                "SELECT CAST(MAX(id) AS INTEGER), CAST(COALESCE(MAX(undone_by), -1) AS INTEGER) "
                "FROM changes GROUP BY path"
            )
        except SandboxError as exc:
            raise ToolError.from_sandbox(exc) from exc
        for cid, label, auto, created, *_ in rows:
            if not (isinstance(label, str | None) and isinstance(auto, str | None)
                    and type(created) in (int, float)):  # fmt: skip
                raise ToolError(
                    "state_corrupt",
                    f"Checkpoint {cid} in the state index {self._index.path} is damaged (its "
                    "label, kind or time is not what a checkpoint holds). Move the state folder "
                    "aside (or remove it); the tools then start with fresh state.",
                    {"checkpoint": cid, "path": str(self._index.path)},
                )
        counts = _changed_since(newest, [(r[4], r[5]) for r in rows])
        return [
            Checkpoint(int(r[0]), r[1], r[2], float(r[3]), count)
            for r, count in zip(rows, counts, strict=True)
        ]

    def latest(self) -> int | None:
        """The id of the newest checkpoint, if any."""
        rows = self._index.rows("SELECT MAX(id) FROM checkpoints")
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    def exists(self, checkpoint: int) -> bool:
        """Whether `checkpoint` is a checkpoint of this root."""
        return bool(self._index.rows("SELECT 1 FROM checkpoints WHERE id = ?", (checkpoint,)))

    def since(self, checkpoint: int) -> dict[str, Snapshot]:
        """Every path the tools changed since `checkpoint`, with its content then; sorted by path."""
        rows = self._index.rows(
            "SELECT change_mark, intent_mark FROM checkpoints WHERE id = ?", (checkpoint,)
        )
        if not rows:
            raise KeyError(checkpoint)
        change_mark, intent_mark = rows[0]
        paths = sorted(
            row[0]
            for row in self._index.rows(
                "SELECT DISTINCT path FROM changes WHERE id > ? OR undone_by > ?",
                (change_mark, intent_mark),
            )
        )
        out = {}
        for path in paths:
            snap = self._index.rows(
                "SELECT state, blob FROM checkpoint_files WHERE checkpoint = ? AND path = ?",
                (checkpoint, path),
            )
            if snap:
                state, blob = snap[0]
                out[path] = Snapshot(state != "absent", blob if state == "kept" else None)
                continue
            first = self._index.rows(
                "SELECT before_blob FROM changes WHERE path = ? AND id > ? ORDER BY id LIMIT 1",
                (path, change_mark),
            )
            before = first[0][0] if first else None
            out[path] = Snapshot(before is not None, before)
        return out

    def content(self, snapshot: Snapshot) -> bytes | None:
        """The bytes of a snapshot (None: no file); raises SandboxError when the blob is gone."""
        if not snapshot.exists:
            return None
        if snapshot.blob is None:
            raise SandboxError("blob_missing", "The content at the checkpoint was not kept.")
        return self._fetch(snapshot.blob)

    def accept(self, checkpoint: int, path: str, hunks: Iterable[list[str]]) -> None:
        """Remember the hunks (by their lines) of `path` as reviewed since `checkpoint`."""
        with self._index.transaction(durable=False) as db:
            db.executemany(
                "INSERT OR IGNORE INTO accepted_hunks VALUES (?, ?, ?)",
                [(checkpoint, path, hunk_key(lines)) for lines in hunks],
            )

    def accepted(self, checkpoint: int, path: str) -> set[str]:
        """The keys of the hunks of `path` accepted since `checkpoint`."""
        rows = self._index.rows(
            "SELECT hunk FROM accepted_hunks WHERE checkpoint = ? AND path = ?", (checkpoint, path)
        )
        return {row[0] for row in rows}

    def _marks(self) -> tuple[int, int]:
        rows = self._index.rows(
            "SELECT (SELECT COALESCE(MAX(id), 0) FROM changes), "
            "(SELECT COALESCE(MAX(id), 0) FROM intents)"
        )
        return int(rows[0][0]), int(rows[0][1])

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
