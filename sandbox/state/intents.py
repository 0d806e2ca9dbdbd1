"""Queries of the write-ahead intents and the recoveries of interrupted commits."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from typing import Any

from sandbox.state.index import StateIndex

__all__ = [
    "claim_recovery",
    "close_intent",
    "close_recovered",
    "drop_intent",
    "intent_files",
    "is_open",
    "open_intent",
    "open_intents",
    "unreported_recoveries",
]

IntentFile = tuple[str, str | None, str | None, str | None]
"""One file of an intent: target path, temp file, old digest, new digest (None: none)."""


def open_intent(db: sqlite3.Connection, files: Sequence[IntentFile]) -> int:
    """Record an open intent of `files` (in order); its id."""
    cur = db.execute("INSERT INTO intents (state, created) VALUES ('open', ?)", (time.time(),))
    intent = cur.lastrowid
    assert intent is not None
    db.executemany(
        "INSERT INTO intent_files VALUES (?, ?, ?, ?, ?, ?)",
        [(intent, seq, *row) for seq, row in enumerate(files)],
    )
    return intent


def close_intent(db: sqlite3.Connection, intent: int, *, keep: bool) -> None:
    """An applied intent: its files forgotten; the intent kept as done (rows of its commit refer
    to it) or, with `keep` False, deleted."""
    db.execute("DELETE FROM intent_files WHERE intent = ?", (intent,))
    if keep:
        db.execute("UPDATE intents SET state = 'done' WHERE id = ?", (intent,))
    else:
        drop_intent(db, intent)


def drop_intent(db: sqlite3.Connection, intent: int) -> None:
    """Delete an intent, with every row of its commit (`ON DELETE CASCADE`)."""
    db.execute("DELETE FROM intents WHERE id = ?", (intent,))


def open_intents(index: StateIndex) -> list[int]:
    """The ids of the intents still open (a writer is at work, or died)."""
    return [int(row[0]) for row in index.rows("SELECT id FROM intents WHERE state = 'open'")]


def intent_files(index: StateIndex, intent: int) -> list[tuple[Any, ...]]:
    """The files of an intent, in order, as stored (path, tmp, old digest, new digest): a
    caller checks their types, the state folder being writable by others."""
    return index.rows(
        "SELECT path, tmp, old_sha, new_sha FROM intent_files WHERE intent = ? ORDER BY seq",
        (intent,),
    )


def is_open(index: StateIndex, intent: int) -> bool:
    """Whether the intent is still open."""
    return bool(index.rows("SELECT 1 FROM intents WHERE id = ? AND state = 'open'", (intent,)))


def close_recovered(
    db: sqlite3.Connection, intent: int, *, done: bool, reports: Sequence[tuple[str, list[str]]]
) -> None:
    """Close a recovered intent (kept as done, or deleted) and record what recovery did."""
    close_intent(db, intent, keep=done)
    db.executemany(
        "INSERT INTO recoveries (at, outcome, paths) VALUES (?, ?, ?)",
        [(time.time(), outcome, json.dumps(paths)) for outcome, paths in reports],
    )


def unreported_recoveries(index: StateIndex) -> list[tuple[int, str, list[str]]]:
    """The recoveries not yet reported, oldest first: (id, outcome, paths)."""
    rows = index.rows("SELECT id, outcome, paths FROM recoveries WHERE reported = 0 ORDER BY id")
    return [(int(rid), str(outcome), list(json.loads(paths))) for rid, outcome, paths in rows]


def claim_recovery(db: sqlite3.Connection, recovery: int) -> bool:
    """Mark a recovery reported; False when another process claimed it first."""
    cur = db.execute(
        "UPDATE recoveries SET reported = 1 WHERE id = ? AND reported = 0", (recovery,)
    )
    return cur.rowcount == 1
