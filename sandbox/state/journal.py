"""Queries of the journal of tool results."""

from __future__ import annotations

from typing import Any

from sandbox.state.index import StateIndex

__all__ = ["append", "page"]


def append(index: StateIndex, event: str, texts: str | None, actor: str | None = None) -> None:
    """Append one event's JSON (and where its texts are kept) to the journal, with its actor."""
    with index.transaction(durable=False) as db:
        db.execute(
            "INSERT INTO journal (event, texts, actor) VALUES (?, ?, ?)", (event, texts, actor)
        )


def page(
    index: StateIndex, after: int, limit: int, actor: str | None = None
) -> list[tuple[int, Any, Any]]:
    """Up to `limit` journal rows after sequence number `after` (only `actor`'s, when given):
    (seq, event, texts) as stored (the caller checks what a row holds)."""
    if actor is not None:
        rows = index.rows(
            "SELECT seq, event, texts FROM journal WHERE seq > ? AND actor = ? ORDER BY seq "
            "LIMIT ?",
            (after, actor, limit),
        )
        return [(int(seq), event, texts) for seq, event, texts in rows]
    rows = index.rows(
        "SELECT seq, event, texts FROM journal WHERE seq > ? ORDER BY seq LIMIT ?", (after, limit)
    )
    return [(int(seq), event, texts) for seq, event, texts in rows]
