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
"""

from __future__ import annotations

import re

from edittools._errors import ToolError
from edittools._workspace import Workspace
from edittools.artifacts import ToolResult
from edittools.tools._call import Call
from edittools.tools._params import EditLinesParams
from edittools.tools._replace import Placed, replace_placed
from edittools.tools._tags import line_digest
from sandbox import TextDocument

_ANCHOR = re.compile(r"^\s*(\d+)\s*#\s*([0-9a-fA-F]{3,32})\s*\|?\s*$")


def edit_lines(ws: Workspace, params: EditLinesParams, call: Call) -> ToolResult:
    """Replace the lines of `params.path` from anchor `start` to anchor `end` with `new_text`."""
    path = ws.sandbox.relpath(params.path)
    first, first_tag = _parse(params.start, "start")
    last, last_tag = _parse(params.end, "end")
    if last < first:
        raise ToolError(
            "invalid_arguments",
            f"end {params.end!r} is above start {params.start!r}: give the first line's anchor "
            "as start and the last line's as end.",
        )

    def locate(document: TextDocument) -> Placed:
        lines = document.text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()  # the empty piece after a final newline is no line
        at, said = _find(path, lines, first, first_tag, last, last_tag)
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
        return Placed(start, end, new, (at, stop_line), headline, said)

    return replace_placed(ws, call, path, locate, "new_text")


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
