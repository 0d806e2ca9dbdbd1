"""The journal of results in the state index: stream events stored without their full texts.

A journaled event is kept as its JSON without any diff payload's `old`/`new` text: a text whose
content the payload refers to (`old_ref`/`new_ref`, the file's bytes kept as the undo snapshot or
a recipe on it) is dropped, so the row holds ids, hunks and stats and never a second copy; any
other text goes to the blob store. Reading an event back puts the texts in again, each checked
against its id; a text whose content is gone comes back as null with `truncated` set.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from edittools.artifacts import StreamEvent
from sandbox import BlobStore, SandboxError, StateIndex, decode

__all__ = ["JOURNAL_SCHEMA", "append_event", "read_events"]

JOURNAL_SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
    seq INTEGER PRIMARY KEY,
    event TEXT NOT NULL,          -- the stream event's JSON, diff texts left out
    texts TEXT                    -- JSON [[file index, "old" | "new", blob id], ...]
);
"""
_PAGE = 200
_TEXT_SIDES = ("old", "new")
_FILE = "file"  # marks a text that is the decoded content of a file blob (not its UTF-8)

Content = Callable[[str], bytes]
"""Fetches the bytes of a content id (raises `SandboxError` when they are gone)."""


def append_event(index: StateIndex, store: BlobStore, event: StreamEvent) -> None:
    """Add `event` to the journal; its full diff texts by reference, or else as blobs."""
    data = event.model_dump(mode="json", by_alias=True)
    texts: list[list[Any]] = []
    for number, payload in enumerate(_diff_payloads(data)):
        for side in _TEXT_SIDES:
            text = payload.get(side)
            if not isinstance(text, str):
                continue
            ref = payload.get(f"{side}_ref")
            if isinstance(ref, str):
                texts.append([number, side, ref, _FILE])
            else:
                texts.append([number, side, store.put(text.encode("utf-8", "surrogatepass"))])
            payload[side] = None
    row = (json.dumps(data, ensure_ascii=False), json.dumps(texts) if texts else None)
    with index.transaction(durable=False) as db:
        db.execute("INSERT INTO journal (event, texts) VALUES (?, ?)", row)


def read_events(index: StateIndex, store: BlobStore, content: Content) -> Iterator[StreamEvent]:
    """Every journaled event, oldest first, read a page at a time; unreadable rows skipped."""
    last = 0
    while True:
        rows = index.rows(
            "SELECT seq, event, texts FROM journal WHERE seq > ? ORDER BY seq LIMIT ?",
            (last, _PAGE),
        )
        if not rows:
            return
        for seq, event, texts in rows:
            last = seq
            parsed = _parse(store, content, event, texts)
            if parsed is not None:
                yield parsed


def _parse(store: BlobStore, content: Content, event: str, texts: str | None) -> StreamEvent | None:
    try:
        data = json.loads(event)
        payloads = list(_diff_payloads(data))
        for number, side, blob, *kind in json.loads(texts) if texts else []:
            payload = payloads[number]
            try:
                if kind == [_FILE]:
                    payload[side] = decode(content(blob)).text
                else:
                    payload[side] = store.get(blob).decode("utf-8", "surrogatepass")
            except SandboxError:
                payload["truncated"] = True
        return StreamEvent.model_validate(data)
    except (ValueError, TypeError, IndexError, KeyError):
        return None


def _diff_payloads(data: Any) -> Iterator[dict[str, Any]]:
    """The diff payload dicts of an event dict (one for a diff, several for a changeset)."""
    artifact = data.get("artifact") if isinstance(data, dict) else None
    if not isinstance(artifact, dict) or not isinstance(artifact.get("payload"), dict):
        return
    payload = artifact["payload"]
    if artifact.get("kind") == "diff":
        yield payload
    elif artifact.get("kind") == "changeset" and isinstance(payload.get("files"), list):
        yield from (f for f in payload["files"] if isinstance(f, dict))
