"""Queries of checkpoints: the files' contents at a moment, and the hunks reviewed since."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

from sandbox.state.index import StateIndex

__all__ = [
    "accept_hunks",
    "accepted_hunks",
    "add_checkpoint",
    "checkpoint_marks",
    "checkpoint_rows",
    "exists",
    "first_change_after",
    "latest",
    "marks",
    "newest_marks_per_path",
    "newest_with_marks",
    "paths_changed_after",
    "snapshot",
]

Marks = tuple[int, int]
"""The newest change id and the newest intent id at a moment."""


def marks(index: StateIndex) -> Marks:
    """The newest change id and the newest intent id now (0 when none)."""
    rows = index.rows(
        "SELECT (SELECT COALESCE(MAX(id), 0) FROM changes), "
        "(SELECT COALESCE(MAX(id), 0) FROM intents)"
    )
    return int(rows[0][0]), int(rows[0][1])


def newest_with_marks(index: StateIndex) -> tuple[int, Marks] | None:
    """The newest checkpoint's id and marks, if any."""
    rows = index.rows(
        "SELECT id, change_mark, intent_mark FROM checkpoints ORDER BY id DESC LIMIT 1"
    )
    return (int(rows[0][0]), (rows[0][1], rows[0][2])) if rows else None


def add_checkpoint(
    index: StateIndex,
    label: str | None,
    auto: str | None,
    at: Marks,
    files: Sequence[tuple[str, str, str | None]],
    actor: str | None = None,
) -> int:
    """Record a checkpoint at marks `at` with its files (path, state, blob), taken by `actor`;
    its id."""
    with index.transaction() as db:
        cur = db.execute(
            "INSERT INTO checkpoints (label, auto, created, change_mark, intent_mark, actor) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (label, auto, time.time(), *at, actor),
        )
        checkpoint = cur.lastrowid
        assert checkpoint is not None
        db.executemany(
            "INSERT INTO checkpoint_files VALUES (?, ?, ?, ?)",
            [(checkpoint, *row) for row in files],
        )
    return int(checkpoint)


def checkpoint_rows(index: StateIndex) -> list[tuple[Any, ...]]:
    """Every checkpoint, oldest first, as stored: (id, label, auto, created, change mark,
    intent mark, actor); the caller checks the types."""
    return index.rows(
        "SELECT id, label, auto, created, CAST(change_mark AS INTEGER), "
        "CAST(intent_mark AS INTEGER), actor FROM checkpoints ORDER BY id"
    )


def newest_marks_per_path(index: StateIndex) -> list[tuple[int, int]]:
    """For each changed path, its newest change id and its newest undo's intent id (-1: none)."""
    return index.rows(
        "SELECT CAST(MAX(id) AS INTEGER), CAST(COALESCE(MAX(undone_by), -1) AS INTEGER) "
        "FROM changes GROUP BY path"
    )


def latest(index: StateIndex) -> int | None:
    """The id of the newest checkpoint, if any."""
    rows = index.rows("SELECT MAX(id) FROM checkpoints")
    return None if not rows or rows[0][0] is None else int(rows[0][0])


def exists(index: StateIndex, checkpoint: int) -> bool:
    """Whether `checkpoint` is recorded."""
    return bool(index.rows("SELECT 1 FROM checkpoints WHERE id = ?", (checkpoint,)))


def checkpoint_marks(index: StateIndex, checkpoint: int) -> Marks | None:
    """The marks of `checkpoint`, if it exists."""
    rows = index.rows(
        "SELECT change_mark, intent_mark FROM checkpoints WHERE id = ?", (checkpoint,)
    )
    return (rows[0][0], rows[0][1]) if rows else None


def paths_changed_after(index: StateIndex, at: Marks, actor: str | None = None) -> list[str]:
    """The paths with a change, or an undo, newer than the marks `at` (only changes `actor`
    made, when given), sorted."""
    if actor is not None:
        rows = index.rows(
            "SELECT DISTINCT path FROM changes WHERE (id > ? OR undone_by > ?) AND actor = ?",
            (*at, actor),
        )
    else:
        rows = index.rows("SELECT DISTINCT path FROM changes WHERE id > ? OR undone_by > ?", at)
    return sorted(row[0] for row in rows)


def snapshot(index: StateIndex, checkpoint: int, path: str) -> tuple[str, str | None] | None:
    """The state (kept, absent, unknown) and blob of `path` recorded by `checkpoint`, if any."""
    rows = index.rows(
        "SELECT state, blob FROM checkpoint_files WHERE checkpoint = ? AND path = ?",
        (checkpoint, path),
    )
    return (rows[0][0], rows[0][1]) if rows else None


def first_change_after(index: StateIndex, path: str, change_mark: int) -> str | None:
    """The before-blob of the first change of `path` after `change_mark` (None: there is none,
    or it created the file)."""
    rows = index.rows(
        "SELECT before_blob FROM changes WHERE path = ? AND id > ? ORDER BY id LIMIT 1",
        (path, change_mark),
    )
    return rows[0][0] if rows else None


def accept_hunks(index: StateIndex, checkpoint: int, path: str, keys: Iterable[str]) -> None:
    """Remember hunks of `path` (by key) as reviewed since `checkpoint`."""
    with index.transaction(durable=False) as db:
        db.executemany(
            "INSERT OR IGNORE INTO accepted_hunks VALUES (?, ?, ?)",
            [(checkpoint, path, key) for key in keys],
        )


def accepted_hunks(index: StateIndex, checkpoint: int, path: str) -> set[str]:
    """The keys of the hunks of `path` accepted since `checkpoint`."""
    rows = index.rows(
        "SELECT hunk FROM accepted_hunks WHERE checkpoint = ? AND path = ?", (checkpoint, path)
    )
    return {row[0] for row in rows}
