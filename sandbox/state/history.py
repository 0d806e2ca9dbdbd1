"""Queries of what the tools read and wrote: read records, changes (the undo history) and the
recipes that rebuild a content from a kept one."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from sandbox.state.index import StateIndex

__all__ = [
    "anchored_read",
    "changed_paths",
    "changes_of",
    "delete_read",
    "derived_base",
    "last_change",
    "led_to",
    "mark_undone",
    "push_change",
    "put_anchored",
    "put_name",
    "put_read",
    "put_recipe",
    "read_record",
    "recipe_rows",
    "writer_of",
]

Span = tuple[int, int, bytes]


def put_read(db: sqlite3.Connection, reader: str, path: str, digest: str, blob: str | None) -> None:
    """Record that `reader` last saw `path` holding content `digest` (fetchable as `blob`)."""
    db.execute(
        "INSERT INTO reads (reader, path, digest, blob) VALUES (?, ?, ?, ?) "
        "ON CONFLICT(reader, path) DO UPDATE SET digest = excluded.digest, blob = excluded.blob",
        (reader, path, digest, blob),
    )


def delete_read(db: sqlite3.Connection, reader: str, path: str) -> None:
    """Forget what `reader` saw of `path`."""
    db.execute("DELETE FROM reads WHERE reader = ? AND path = ?", (reader, path))


def read_record(index: StateIndex, reader: str, path: str) -> tuple[str, str | None] | None:
    """The digest and blob id `reader` last saw of `path`, if any."""
    rows = index.rows(
        "SELECT digest, blob FROM reads WHERE reader = ? AND path = ?", (reader, path)
    )
    return (rows[0][0], rows[0][1]) if rows else None


def put_anchored(db: sqlite3.Connection, reader: str, path: str, digest: str) -> None:
    """Record that `reader`'s last read of `path` with anchors showed content `digest` (its read
    record is kept beside, by `put_read`)."""
    db.execute(
        "UPDATE reads SET anchored = ? WHERE reader = ? AND path = ?", (digest, reader, path)
    )


def anchored_read(index: StateIndex, reader: str, path: str) -> str | None:
    """The digest of the content `reader`'s last read of `path` with anchors showed, if any."""
    rows = index.rows("SELECT anchored FROM reads WHERE reader = ? AND path = ?", (reader, path))
    return rows[0][0] if rows and isinstance(rows[0][0], str) else None


def put_name(db: sqlite3.Connection, reader: str, name: str, path: str) -> None:
    """Record that `reader`'s last read of `name` (as it spelled it) led to the file `path`."""
    db.execute(
        "INSERT INTO read_names (reader, name, path) VALUES (?, ?, ?) "
        "ON CONFLICT(reader, name) DO UPDATE SET path = excluded.path",
        (reader, name, path),
    )


def led_to(index: StateIndex, reader: str, name: str) -> str | None:
    """The file `reader`'s last read of `name` led to, if it read it by that name."""
    rows = index.rows("SELECT path FROM read_names WHERE reader = ? AND name = ?", (reader, name))
    return rows[0][0] if rows and isinstance(rows[0][0], str) else None


def push_change(
    db: sqlite3.Connection,
    path: str,
    before: str | None,
    after: str | None,
    intent: int,
    actor: str | None = None,
) -> None:
    """Record a change of `path` made by the commit `intent` (None: created / deleted), by
    `actor` when named."""
    db.execute(
        "INSERT INTO changes (path, before_blob, after_digest, intent, actor) "
        "VALUES (?, ?, ?, ?, ?)",
        (path, before, after, intent, actor),
    )


def writer_of(index: StateIndex, path: str, digest: str) -> tuple[Any, Any] | None:
    """Who made `path` hold content `digest` through the tools, and when: the newest change
    that wrote it, as stored (actor, commit time); None when the tools never wrote it."""
    rows = index.rows(
        "SELECT c.actor, i.created FROM changes c JOIN intents i ON i.id = c.intent "
        "WHERE c.path = ? AND c.after_digest = ? ORDER BY c.id DESC LIMIT 1",
        (path, digest),
    )
    return (rows[0][0], rows[0][1]) if rows else None


def mark_undone(db: sqlite3.Connection, change: int, intent: int) -> None:
    """Mark change `change` undone by the commit `intent`."""
    db.execute("UPDATE changes SET undone_by = ? WHERE id = ?", (intent, change))


def last_change(index: StateIndex, path: str) -> tuple[int, str | None, str | None] | None:
    """The newest change of `path` not undone: (id, before blob, after digest)."""
    rows = index.rows(
        "SELECT id, before_blob, after_digest FROM changes "
        "WHERE path = ? AND undone_by IS NULL ORDER BY id DESC LIMIT 1",
        (path,),
    )
    return (rows[0][0], rows[0][1], rows[0][2]) if rows else None


def changes_of(index: StateIndex, path: str) -> list[tuple[Any, ...]]:
    """The changes of `path` not undone, oldest first, as stored: (id, before blob, after
    digest, actor, commit time)."""
    return index.rows(
        "SELECT c.id, c.before_blob, c.after_digest, c.actor, i.created FROM changes c "
        "JOIN intents i ON i.id = c.intent WHERE c.path = ? AND c.undone_by IS NULL "
        "ORDER BY c.id",
        (path,),
    )


def changed_paths(index: StateIndex) -> list[str]:
    """Every path the tools ever changed."""
    return [row[0] for row in index.rows("SELECT DISTINCT path FROM changes")]


def derived_base(index: StateIndex, content: str) -> str | None:
    """The base content a recipe rebuilds `content` from, if it has one."""
    rows = index.rows("SELECT base FROM derived WHERE id = ?", (content,))
    return rows[0][0] if rows else None


def recipe_rows(
    index: StateIndex, content: str
) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]] | None:
    """The recipe of `content` as stored: (base, start, stop, middle) and its later spans
    (start, stop, middle) in order; the caller checks their types."""
    rows = index.rows("SELECT base, start, stop, middle FROM derived WHERE id = ?", (content,))
    if not rows:
        return None
    more = index.rows(
        "SELECT start, stop, middle FROM derived_spans WHERE id = ? ORDER BY seq", (content,)
    )
    return rows[0], more


def put_recipe(db: sqlite3.Connection, content: str, base: str, spans: Sequence[Span]) -> None:
    """Keep `content` as `base` with `spans` (in order, at least one) replaced."""
    db.execute("INSERT OR REPLACE INTO derived VALUES (?, ?, ?, ?, ?)", (content, base, *spans[0]))
    db.execute("DELETE FROM derived_spans WHERE id = ?", (content,))
    db.executemany(
        "INSERT INTO derived_spans VALUES (?, ?, ?, ?, ?)",
        [(content, seq, *span) for seq, span in enumerate(spans[1:], 1)],
    )
