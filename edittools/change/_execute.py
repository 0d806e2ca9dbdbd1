"""One located change of one file, from the read to the result: the executor every span tool uses.

A tool gives a `Locate`: where its change goes in a document's text and what goes there
(`Placed`). `execute` owns the rest, once: the NUL refusal of the new text, the lock and the
read, the size regime (a file over the cap is handed to the tool's streamed pass, or refused; a
large one loaded whole takes the bytes path when the tool can find its change on bytes), the
freshness rule (a file changed since the read is judged on the change's region: the locator runs
on the content read too, and the two must merge), the splice in the file's own newlines, the
syntax check, the commit, the diff with its refs, and the sentence the model reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from edittools._errors import ToolError
from edittools.artifacts import DiffPayload, ToolResult
from edittools.artifacts.builders import diff_result
from edittools.change._bytematch import ByteSpan, line_end, line_start, plain_head
from edittools.change._call import Call
from edittools.change._commit import (
    by_bytes,
    change_result,
    commit,
    digest,
    refuse_nul,
    unchecked_note,
    vet,
    wants_texts,
    with_refs,
)
from edittools.change._diagnose import diagnosed, diagnostics_note, with_diagnostics
from edittools.change._format import formatted
from edittools.change._fresh import fresh_or_base, read_existing_deferred
from edittools.change._numbering import excerpt
from edittools.change._region import (
    Base,
    Lines,
    already_made,
    already_note,
    made_elsewhere,
    stale_if,
)
from edittools.change._sentence import sentence
from edittools.change._splice import splice_spans, splice_views
from edittools.diff import diff_spans, diff_texts
from edittools.state import Workspace
from sandbox import Digester, SandboxError, TextDocument, Version, decode

Span = tuple[int, int, str]
"""`(start, end, text)`: `text[start:end]` of a document replaced by `text`."""

_BARE_LF = re.compile(r"(?<!\r)\n")


@dataclass(frozen=True)
class Placed:
    """Where a change goes in a document's text, what goes there, and what to say of it."""

    spans: Sequence[Span]
    """Offsets in the document's text, in order, apart; new text with "\\n" newlines (the
    splice puts in the file's own)."""
    headline: str
    """What the change did, naming the file ("Edited a.py", "Replaced method P.parse in a.py")."""
    relied: Sequence[Lines] = ()
    """The lines it replaces or relies on (1-based, inclusive; `(k + 1, k)`: after line k): a
    change made elsewhere since the read must stay clear of them."""
    said: str = ""
    """A sentence the result adds after the counts (a range found where it moved to, say)."""
    tolerances: Sequence[str] = ()
    """How the text was found, per span or edit (`exact` or a tolerance's name)."""
    whole: TextDocument | None = None
    """The new document, when the change is not spans over the document (several edits in
    turn); its diff is then of the whole texts, and no lines are shown."""
    match: str | None = None
    """The payload's `match`: how the text was found (None: the change was not found by text)."""

    @classmethod
    def span(
        cls, start: int, end: int, text: str, lines: Lines, headline: str = "", said: str = ""
    ) -> Placed:
        """One span replaced, relying on `lines`."""
        return cls(((start, end, text),), headline, (lines,), said)


Locate = Callable[[TextDocument], Placed]
"""Finds a change's place in a document; raises ToolError when it has none there."""


@dataclass(frozen=True)
class OnBytes:
    """How a tool finds its change on a large file's bytes, without decoding it."""

    find: Callable[[bytes, bool], list[ByteSpan] | None]
    """The byte spans and their new bytes, given the bytes and whether they are known to be
    plain UTF-8; None: take the text path (which says precisely what is wrong)."""
    headline: Callable[[int], str]
    """The headline for that many spans replaced."""


@dataclass
class _Read:
    """The file as the change found it."""

    data: bytes
    version: Version
    steps: list[tuple[int, Digester]] = field(default_factory=list)


def execute(
    ws: Workspace,
    call: Call,
    path: str,
    locate: Locate,
    *,
    new_text: Mapping[str, str],
    on_bytes: OnBytes | None = None,
    streamed: Callable[[], ToolResult] | None = None,
    moved: Callable[[Base, TextDocument], Locate] | None = None,
) -> ToolResult:
    """Make the change `locate` places in `path` (relative to the root) and say what it did.

    `new_text` maps each argument that holds new text to it, for the refusal of NUL characters.
    `on_bytes` finds the change on a large file's bytes; `streamed` changes a file over the
    `max_file_bytes` cap by a pass (without one such a file is refused, saying so). `moved`
    gives the locator for the file as it is now when it changed since the read and the change
    was placed by position in the content read (a line number): positions move with what else
    changed.
    """
    for argument, text in new_text.items():
        refuse_nul(text, argument, path)
    with ws.sandbox.lock(path):
        steps: list[tuple[int, Digester]] = []
        try:
            before, pending = read_existing_deferred(ws, path, on_step=steps.append)
        except SandboxError as exc:
            if exc.code != "too_large":
                raise
            if streamed is None:
                raise _not_streamed(path, exc) from exc
            return streamed()
        byte_spans = None
        if on_bytes is not None and by_bytes(ws, len(before)):
            # A large file's change is found on its bytes while another core hashes them
            # (bytes that are what this session last wrote are not hashed at all).
            proven = pending.ready()
            plain = proven is not None and ws.contents.is_plain(proven.digest)
            byte_spans = on_bytes.find(before, plain)
        read = _Read(before, pending.result(), steps)
        if byte_spans is not None and on_bytes is not None:
            base = fresh_or_base(ws, call, path, before, read.version)
            if base is None:
                return _on_bytes(ws, call, path, read, byte_spans, on_bytes.headline)
            # Changed since the read: judged on its region, as text.
            return _as_text(ws, call, path, read, decode(before), base, locate, moved)
        document = decode(before)  # binary or undecodable first: a read would not help
        base = fresh_or_base(ws, call, path, before, read.version)
        return _as_text(ws, call, path, read, document, base, locate, moved)


def _as_text(
    ws: Workspace,
    call: Call,
    path: str,
    read: _Read,
    document: TextDocument,
    base: Base | None,
    locate: Locate,
    moved: Callable[[Base, TextDocument], Locate] | None,
) -> ToolResult:
    """The change made on the decoded text (under the lock, which the caller holds)."""

    def made(doc: TextDocument) -> tuple[TextDocument, list[Lines]]:
        again = locate(doc)
        return apply(doc, again)[0], list(again.relied)

    if base is None:
        placed = locate(document)
    elif already_made(base, document, made):
        return _already(ws, call, path, read, document, base)
    else:
        now = locate if moved is None else moved(base, document)
        placed = stale_if(now, document, path, base, made)
    changed, spans = apply(document, placed)
    if changed.text != document.text:
        changed, formatting = formatted(ws, path, changed)
        if formatting is not None and formatting.diff is not None:
            spans = None  # the formatter's change is part of this one: the diff of whole texts
    if changed.text == document.text:
        raise ToolError(
            "no_change",
            f"The change leaves {path} as it already is, so nothing was written.",
            {"path": path},
        )
    drift = "" if base is None else made_elsewhere(path, base, document, changed, made)
    after = changed.encode()
    check = vet(ws, path, document.text, changed.text)
    found = diagnosed(ws, call, path, document.text, changed.text)
    new_version = commit(ws, call, path, read.data, read.version, after)
    include = wants_texts(ws, len(read.data), len(after))
    if spans is None:
        payload = diff_texts(document.text, changed.text, path=path, include_texts=include)
    else:
        payload = diff_spans(document.text, spans, path=path, include_texts=include)
    payload = with_refs(ws, payload, read.version.digest, digest(new_version))
    payload = with_diagnostics(payload, found)
    if placed.match is not None:
        payload = payload.model_copy(update={"match": placed.match})
    value = sentence(placed.headline, payload, said=placed.said, tolerances=placed.tolerances)
    if spans:
        start, _, inserted = spans[0]  # earlier spans do not shift the first
        value += "\n" + excerpt(changed.text, start, start + len(inserted))
    if formatting is not None:
        value += formatting.describe()
    return change_result(value + diagnostics_note(found) + drift, payload, check)


def _already(
    ws: Workspace, call: Call, path: str, read: _Read, document: TextDocument, base: Base
) -> ToolResult:
    """The result of a change another actor made since the read (the file holds just what it
    makes of the content read): nothing written, no undo entry, the file noted as seen as it is,
    as after the change itself; the diff is empty."""
    if not call.dry_run:
        ws.note_seen(path, read.data, read.version, reader=call.reader)
    include = wants_texts(ws, len(read.data))
    payload = diff_texts(document.text, document.text, path=path, include_texts=include)
    payload = with_refs(ws, payload, read.version.digest, read.version.digest)
    return diff_result(already_note(path, base), payload)


def apply(document: TextDocument, placed: Placed) -> tuple[TextDocument, list[Span] | None]:
    """The document with the change put in, in one pass over the text, and its spans with the
    new text in the file's own newline style (None: a whole new document)."""
    if placed.whole is not None:
        return placed.whole, None
    spans: list[Span] = [
        (start, end, text if document.newline == "\n" else _BARE_LF.sub(document.newline, text))
        for start, end, text in placed.spans
    ]
    if document.bom and spans and spans[0][0] == 0 and spans[0][2].startswith("\ufeff"):
        spans[0] = (0, spans[0][1], spans[0][2][1:])  # the file's own BOM: the diff shows none
    if len(spans) == 1:
        # One span: the document updates its newline counts from the span alone.
        start, end, piece = spans[0]
        return document.splice(start, end, piece), spans
    return document.with_text(splice_spans(document.text, spans)), spans


def _not_streamed(path: str, exc: SandboxError) -> ToolError:
    return ToolError(
        "too_large",
        f"{exc.message} This change cannot be made by a pass over the file: use edit, "
        "multi_edit or apply_patch, which can.",
        {"path": path},
    )


def _on_bytes(
    ws: Workspace,
    call: Call,
    path: str,
    read: _Read,
    spans: list[ByteSpan],
    headline: Callable[[int], str],
) -> ToolResult:
    """The change made on a large file's bytes: written as views of the old bytes, hashed from
    the old content's digest state below the change, and noted for the next change."""
    before, version = read.data, read.version
    ws.contents.note_states(version.digest, read.steps)
    payload, shown = _bytes_diff(ws, path, before, version.digest, spans)
    pieces = splice_views(before, spans)
    prefix = ws.contents.state_below(version.digest, spans[0][0])
    new_steps: list[tuple[int, Digester]] = []
    new_version = commit(ws, call, path, before, version, pieces, span=_one_span(before, spans, pieces),
                         prefix=prefix, on_step=new_steps.append)  # fmt: skip
    if new_version is not None:
        ws.contents.carry(version.digest, new_version.digest, spans[0][0])
        ws.contents.note_plain(version.digest)  # the byte search checked it (or knew it)
        if plain_head(pieces):
            ws.contents.note_plain(new_version.digest)
        ws.contents.note_written(path, new_version.digest, before, spans)
        ws.contents.note_states(new_version.digest, new_steps)
    payload = with_refs(ws, payload, version.digest, digest(new_version))
    value = f"{sentence(headline(len(spans)), payload)}\n{shown}"
    return change_result(value, payload, unchecked_note(ws, path))


def _one_span(before: bytes, spans: list[ByteSpan], pieces: list[bytes | memoryview]) -> ByteSpan:
    """The one byte span that covers every replaced span (what the state records).

    `pieces` is the new content as `splice_views` gave it: when that is already one joined piece
    (many spans), the covering span's new bytes are cut from it instead of spliced again.
    """
    if len(spans) == 1:
        return spans[0]
    start, stop = spans[0][0], spans[-1][1]
    if len(pieces) == 1:
        new_stop = stop + len(pieces[0]) - len(before)
        return start, stop, bytes(pieces[0][start:new_stop])
    return start, stop, splice_spans(before[start:stop], [(s - start, e - start, r)
                                                          for s, e, r in spans])  # fmt: skip


def _bytes_diff(
    ws: Workspace, path: str, before: bytes, before_id: str, spans: list[ByteSpan]
) -> tuple[DiffPayload, str]:
    """The diff of a change made on bytes (whose content id is `before_id`) and the changed
    lines numbered, as the text path gives them."""
    start, end, inserted = spans[0]
    first_line = ws.contents.line_of(before_id, before, start)
    size = len(before) + sum(len(r) - (e - s) for s, e, r in spans)
    include = wants_texts(ws, len(before), size)
    payload = diff_spans(before, spans, path=path, include_texts=include, first_line=first_line,
                         binary=False)  # fmt: skip
    payload = payload.model_copy(update={"match": "exact"})
    # The first change with three lines around it, as the new file reads: a window of the old
    # bytes wide enough for three new lines after it, with the replacements inside it applied.
    first = line_start(before, start, back=3)
    removed_lines = before.count(b"\n", start, end)
    last = line_end(before, max(end - 1, start), ahead=3 + removed_lines * len(spans))
    inside = [(s - first, e - first, r) for s, e, r in spans if s < last]
    last = max(last, line_end(before, max(inside[-1][1] - 1, 0) + first))
    window = splice_spans(before[first:last], inside).decode("utf-8")
    at = len(before[first:start].decode("utf-8"))
    number = first_line - before.count(b"\n", first, start)
    return payload, excerpt(window, at, at + len(inserted.decode("utf-8")), first_line=number)
