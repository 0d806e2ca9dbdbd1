"""The journal of results in the state index: stream events stored without their full texts.

A journaled event is kept as its JSON without any diff payload's `old`/`new` text: a text whose
content the payload refers to (`old_ref`/`new_ref`, the file's bytes kept as the undo snapshot or
a recipe on it) is dropped, so the row holds ids, hunks and stats and never a second copy; any
other text goes to the blob store. Reading an event back puts the texts in again, each checked
against its id; a text whose content is gone comes back as null with `truncated` set.

A read is kept the same way: its window of lines is in the model's text (numbered) and in the code
payload, both cut from a content the read stored (`Shown`), so the row keeps the content's id and
what the model's text holds around the window (a header before it, as `read_symbol` gives, and a
footer after), and reading it back cuts the window again (`WindowText`, the read tool's own). A read of a 10,000-line file thus adds a row of a few hundred bytes, not two copies of the
window; a window whose content is gone (or that does not cut again to the lengths kept) comes back
as a note with `truncated` set.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from pydantic_core import PydanticSerializationError

from edittools.artifacts import ChangesetArtifact, CodeArtifact, DiffArtifact, StreamEvent
from sandbox import BlobStore, SandboxError, StateIndex, decode
from sandbox.state import journal

__all__ = ["Shown", "WindowText", "append_event", "read_events"]

_PAGE = 200
_TEXT_SIDES = ("old", "new")
_FILE = "file"  # marks a text that is the decoded content of a file blob (not its UTF-8)

_WINDOW = "window"  # marks a read's window kept by reference
_READ_TEXTS: Any = {"value": True, "artifact": {"payload": {"text"}}}

Content = Callable[[str], bytes]
"""Fetches the bytes of a content id (raises `SandboxError` when they are gone)."""

WindowText = Callable[[bytes, int, int, int], tuple[str, str]]
"""Cuts a read's window again: (content, first line, last line, line cap) -> (the code payload's
text, the numbered lines that begin the model's text)."""


@dataclass(frozen=True)
class Shown:
    """What a read showed, as lines of a stored content: lets the journal keep it by reference.

    The code payload's text is lines `start_line`..`end_line` of content `content`; `body` is the
    same lines numbered (cut at `cap` characters), which the model's text holds somewhere: a tool
    may put a header before it or a footer after it, and the journal keeps those beside.
    """

    content: str
    cap: int
    body: str


def append_event(
    index: StateIndex,
    store: BlobStore,
    event: StreamEvent,
    shown: Shown | None = None,
    actor: str | None = None,
) -> None:
    """Add `event` to the journal; its full diff texts by reference, or else as blobs, and a
    read's window (`shown`) by reference to the content it was cut from."""
    row = _window_row(event, shown) if shown is not None else None
    if row is None:
        row = None if _holds_diff_texts(event) else _as_json(event)
    if row is None:
        row = _moving_texts_out(store, event)
    try:
        journal.append(index, *row, actor)
    except UnicodeEncodeError:
        # A lone surrogate (a tool's raw arguments echoed back) has no UTF-8 form: store the
        # same JSON with every non-ASCII character escaped, which reads back the same.
        journal.append(index, json.dumps(json.loads(row[0])), row[1], actor)


def _holds_diff_texts(event: StreamEvent) -> bool:
    artifact = event.artifact
    if isinstance(artifact, DiffArtifact):
        files = [artifact.payload]
    elif isinstance(artifact, ChangesetArtifact):
        files = artifact.payload.files
    else:
        return False
    return any(f.old is not None or f.new is not None for f in files)


def _as_json(event: StreamEvent) -> tuple[str, str | None] | None:
    """The row of an event with no text to move out, serialized in one pass; None when pydantic
    refuses the text (a lone surrogate), which the general path stores as before.

    A tool's results reach here by reference (`by_reference`), so this is every call's path: for
    a long read, one pass is several times faster than a dump and `json.dumps`.
    """
    try:
        return event.model_dump_json(by_alias=True), None
    except PydanticSerializationError:
        return None


def _window_row(event: StreamEvent, shown: Shown) -> tuple[str, str | None] | None:
    """The row of a read whose window is lines of content `shown.content`: the event without its
    texts, what the model's text holds before and after the window kept beside; None when `event`
    is not such a read (or its text does not hold the window as it was cut)."""
    artifact = event.artifact
    if not isinstance(artifact, CodeArtifact) or event.is_error:
        return None
    value, body = event.value, shown.body
    at = 0 if value.startswith(body) else value.find(body)
    if at < 0:
        return None
    try:
        row = event.model_dump_json(by_alias=True, exclude=_READ_TEXTS)
    except PydanticSerializationError:
        return None
    head, footer = value[:at], value[at + len(body) :]
    chars = len(artifact.payload.text)
    window = [_WINDOW, shown.content, shown.cap, len(body), chars, footer, head]
    return row, json.dumps([window], ensure_ascii=False)


def _moving_texts_out(store: BlobStore, event: StreamEvent) -> tuple[str, str | None]:
    """The row of an event whose diff texts are left out, each by reference or as a blob."""
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
    return json.dumps(data, ensure_ascii=False), json.dumps(texts) if texts else None


def read_events(
    index: StateIndex,
    store: BlobStore,
    content: Content,
    window: WindowText | None = None,
    actor: str | None = None,
) -> Iterator[StreamEvent]:
    """Every journaled event, oldest first, read a page at a time; unreadable rows skipped.

    A read kept by reference has its window cut again by `window` (without it, or when the content
    is gone, the window comes back as a note with `truncated` set)."""
    last = 0
    while True:
        rows = journal.page(index, last, _PAGE, actor)
        if not rows:
            return
        for seq, event, texts in rows:
            last = seq
            parsed = _parse(store, content, window, event, texts)
            if parsed is not None:
                yield parsed


def _parse(
    store: BlobStore, content: Content, window: WindowText | None, event: str, texts: str | None
) -> StreamEvent | None:
    try:
        data = json.loads(event)
        entries = json.loads(texts) if texts else []
        if entries and entries[0][0] == _WINDOW:
            _put_window(data, content, window, *entries[0][1:])
            return StreamEvent.model_validate(data)
        payloads = list(_diff_payloads(data))
        for number, side, blob, *kind in entries:
            payload = payloads[number]
            try:
                if kind == [_FILE]:
                    payload[side] = decode(content(blob)).text
                else:
                    payload[side] = store.get(blob).decode("utf-8", "surrogatepass")
            except SandboxError:
                payload["truncated"] = True
        return StreamEvent.model_validate(data)
    except (ValueError, TypeError, IndexError, KeyError, ArithmeticError, RecursionError):
        return None  # a damaged or tampered row (e.g. JSON nested past the parser's depth)


def _put_window(
    data: dict[str, Any], content: Content, window: WindowText | None, blob: str, cap: int,
    body: int, chars: int, footer: str, head: str = "",
) -> None:  # fmt: skip
    """Put a read's texts back into its event dict: the payload's text and the model's text
    (`head`, then the window, then `footer`; rows from before headers were kept have none)."""
    payload = data["artifact"]["payload"]
    cut = None
    if window is not None:
        try:
            cut = window(content(blob), payload["start_line"], payload["end_line"], cap)
        except SandboxError:
            cut = None
    if cut is not None and len(cut[0]) == chars and len(cut[1]) == body:
        payload["text"] = cut[0]
        data["value"] = head + cut[1] + footer
        return
    payload["text"] = ""
    payload["truncated"] = True
    data["value"] = head + "[the lines this read showed could not be read back]" + footer


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
