"""Edits by anchor: a read tags each line with a short digest of its text (`12#a3f|text`), and
`edit_lines` replaces the lines between two anchors only while they still read as they did.

A tag is the first characters of the line's BLAKE2 digest (of its text without the newline and a
final CR): three hex characters, more where two different lines of the file would share three,
so a tag names one line text in its file (equal lines share their tag; the number tells them
apart). An anchor holds where its line still has its text. When both anchors hold at their
numbers the range is there; when lines were added or removed above it, the range is looked for
by its tags (the same distance apart) and used where it now is, and the result says so; when its
text changed, the edit is refused with what the lines now read. A file that changed since the
read is judged on the range's region like every change (`_replace`).

Anchors are of the content their read showed (the state keeps which: `Workspace.anchored`). When
the session saw the file change after that read (its own change, or a read without anchors of a
file changed meanwhile), their numbers are first carried through that change's line mapping, or
refused where it meets them: never found again by their tags alone, which same-shaped lines share.
"""

from __future__ import annotations

import re

from edittools._errors import ToolError
from edittools.artifacts import ToolResult
from edittools.change import Call, Overlap, Placed, carried, execute, resolved
from edittools.diff import diff_texts, unified_excerpt
from edittools.state import Workspace
from edittools.tools._params import EditLinesParams
from edittools.tools._tags import line_digest
from sandbox import TextDocument, decode

_ANCHOR = re.compile(r"^\s*(\d+)\s*#\s*([0-9a-fA-F]{3,32})\s*\|?\s*$")


def edit_lines(ws: Workspace, params: EditLinesParams, call: Call) -> ToolResult:
    """Replace the lines of `params.path` from anchor `start` to anchor `end` with `new_text`."""
    path = resolved(ws, call, params.path)
    first, first_tag = _parse(params.start, "start")
    last, last_tag = _parse(params.end, "end")
    if last < first:
        raise ToolError(
            "invalid_arguments",
            f"end {params.end!r} is above start {params.start!r}: give the first line's anchor "
            "as start and the last line's as end.",
        )

    first, last, carried_note = _carried(ws, call, path, (first, first_tag), (last, last_tag))

    def locate(document: TextDocument) -> Placed:
        lines = _lines(document.text)
        at, said = _find(path, lines, first, first_tag, last, last_tag)
        said = " ".join(filter(None, (carried_note, said)))
        starts = _line_starts(document.text)
        start = starts[at - 1]
        stop_line = at + last - first
        end = starts[stop_line] if stop_line < len(starts) else len(document.text)
        old = document.text[start:end]
        new = params.new_text.replace("\r\n", "\n")
        if new and not new.endswith("\n") and old.endswith("\n"):
            new += "\n"
        elif new.endswith("\n") and not old.endswith("\n"):
            new = new[:-1]  # the range ends a file with no final newline: it keeps having none
        headline = f"Replaced lines {at}-{stop_line} of {path}"
        return Placed.span(start, end, new, (at, stop_line), headline, said)

    return execute(ws, call, path, locate, new_text={"new_text": params.new_text})


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the empty piece after a final newline is no line
    return lines


def _carried(
    ws: Workspace, call: Call, path: str, start: tuple[int, str], end: tuple[int, str]
) -> tuple[int, int, str]:
    """The range's lines in what the session last saw of `path`, and a sentence when they moved.

    Anchors name lines of the content their read showed. When the session saw `path` change
    since (its own change, or a read without anchors of a file changed meanwhile), their numbers
    are carried through that change, never matched again by their tags alone: same-shaped lines
    share a tag, and the one now at the old number may be another. Refused (`stale_read`) when
    the change meets the range, or the content the anchors were read from is not kept.
    """
    shown = ws.anchored(path, reader=call.reader)
    seen = ws.seen(path, reader=call.reader)
    (first, first_tag), (last, last_tag) = start, end
    if shown is None or seen is None or shown.digest == seen.digest:
        return first, last, ""
    then, now = ws.seen_bytes(shown), ws.seen_bytes(seen)
    named = f"The anchors {first}#{first_tag} and {last}#{last_tag}"
    again = "Read the lines again with anchors, then retry."
    if then is None or now is None:
        raise ToolError(
            "stale_read",
            f"{named} were read before {path} changed since, and the content they were read "
            f"from is not kept, so their lines cannot be found again for certain. {again}",
            {"path": path},
        )
    old, new = decode(then).text, decode(now).text
    lines = _lines(old)
    if not all(
        n <= len(lines) and line_digest(lines[n - 1]).startswith(tag)
        for n, tag in ((first, first_tag), (last, last_tag))
    ):
        raise ToolError(
            "stale_read",
            f"{named} are not of this session's last read of {path} with anchors (it changed "
            f"since). {again}",
            {"path": path},
        )
    try:
        now_first, now_last = carried(old, new, (first, last))
    except Overlap as exc:
        low, high = exc.theirs.reach
        shown_at = (
            f"after line {high}" if low > high
            else f"line {low}" if low == high else f"lines {low}-{high}"
        )  # fmt: skip
        diff = diff_texts(old, new, path=path, include_texts=False)
        raise ToolError(
            "stale_read",
            f"{named} were read before {path} changed since, in or beside their lines "
            f"({shown_at} of the content read), so where they are now is not certain. "
            f"{again}\n{unified_excerpt(diff.unified)}",
            {"path": path, "diff": diff.model_dump(mode="json", by_alias=True)},
        ) from exc
    if (now_first, now_last) == (first, last):
        return first, last, ""
    return (
        now_first,
        now_last,
        (
            f"The lines were read as {first}-{last} before {path} changed since, now at "
            f"{now_first}-{now_last}."
        ),
    )


def _parse(anchor: str, name: str) -> tuple[int, str]:
    found = _ANCHOR.match(anchor)
    if found is None or int(found.group(1)) < 1:
        raise ToolError(
            "invalid_arguments",
            f"{name} {anchor!r} is not an anchor: give it as read with anchors=True, a line "
            "number, '#', and the tag (e.g. '12#a3f').",
        )
    return int(found.group(1)), found.group(2).lower()


def _find(
    path: str, lines: list[str], first: int, first_tag: str, last: int, last_tag: str
) -> tuple[int, str]:
    """Where the range now begins (1-based), and a sentence when it moved."""

    def holds(number: int, tag: str) -> bool:
        return 1 <= number <= len(lines) and line_digest(lines[number - 1]).startswith(tag)

    if holds(first, first_tag) and holds(last, last_tag):
        return first, ""
    span = last - first
    places = [
        k
        for k in range(1, len(lines) - span + 1)
        if holds(k, first_tag) and holds(k + span, last_tag)
    ]
    if len(places) == 1:
        at = places[0]
        return at, f"The lines had moved: read as {first}-{last}, found at {at}-{at + span}."
    now = "; ".join(
        f"line {n} now reads {lines[n - 1][:120]!r}" if n <= len(lines) else f"line {n} is gone"
        for n in sorted({first, last})
    )
    if places:
        where = ", ".join(f"{k}-{k + span}" for k in places[:10])
        raise ToolError(
            "ambiguous_match",
            f"The anchors {first}#{first_tag} and {last}#{last_tag} no longer hold where they "
            f"were read ({now}), and fit {len(places)} ranges of {path}: lines {where}. Read "
            "the file again with anchors.",
            {"candidates": places[:10]},
        )
    raise ToolError(
        "stale_read",
        f"The anchors {first}#{first_tag} and {last}#{last_tag} no longer hold in {path}: "
        f"{now}, and no range of its lines has both tags that far apart. The lines changed "
        "since they were read: read them again with anchors.",
    )


def _line_starts(text: str) -> list[int]:
    """The offset where each line of `text` begins (split on "\\n")."""
    starts = [0]
    at = text.find("\n")
    while at != -1:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    if starts[-1] == len(text):
        starts.pop()
    return starts
