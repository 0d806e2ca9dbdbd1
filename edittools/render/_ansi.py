"""The terminal view of a `LineDiff`, written with plain ANSI codes: no rich, no models.

`edittools diff` prints through this view, so diffing two files starts in a few dozen
milliseconds (rich and the artifact models take a quarter of a second to load). It prints what
`DiffView` prints for the same diff: the `path  +N -M` header with its labels, then the unified
lines coloured by role, the changed words of paired lines in reverse video. Colour follows the same rules as rich's console: on for a terminal,
off when piped, off with ``NO_COLOR``, forced with ``FORCE_COLOR``, off for ``TERM=dumb``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, TextIO

from edittools.render._sanitize import segments, visible

if TYPE_CHECKING:
    from edittools.diff import LineDiff

_RESET = "\x1b[0m"
_SGR = {
    "path": "1",
    "header": "1;2",
    "hunk": "36",
    "context": "",
    "add": "32",
    "remove": "31",
    "note": "2",
    "label": "33",
}


def wants_colour(stream: TextIO) -> bool:
    """Whether to colour output to `stream`, by the conventions rich follows too."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM", "") in ("dumb", "unknown"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def write_line_diff(
    result: LineDiff,
    stream: TextIO,
    *,
    path: str,
    old_path: str | None = None,
    colour: bool,
    similarity: int | None = None,
) -> None:
    """Write the header line and the coloured unified text of `result` to `stream`.

    `old_path` labels the old side; `similarity` is a rename's, shown with it.
    """

    def paint(role: str, text: str, marked: bool = False) -> str:
        code = _SGR[role]
        if marked:
            code = f"7;{code}" if code else "7"
        return f"\x1b[{code}m{text}{_RESET}" if colour and code and text else text

    header = [paint("path", visible(path))]
    if not result.binary:
        added, removed = result.counts()
        header.append("  " + paint("add", f"+{added}") + " " + paint("remove", f"-{removed}"))
    for label in _labels(result, path, old_path, similarity):
        header.append("  " + paint("label", visible(label)))
    out = ["".join(header)]
    marks = _marks(result) if colour else {}
    hunk = -1
    at = 0  # index of the line in its hunk
    # Split on newlines only: a line's own CR or form feed is content, shown by `visible`.
    for line in result.unified(path, old_path, similarity=similarity).split("\n")[:-1]:
        # Every body line starts with its marker, so "@@" only ever opens a hunk.
        if line.startswith("@@"):
            hunk, at = hunk + 1, 0
            out.append(paint("hunk", visible(line)))
            continue
        if hunk < 0:
            out.append(paint("header", visible(line)))
            continue
        role = _ROLE.get(line[:1], "context")
        ranges = marks.get((hunk, at))
        at += 1
        if ranges:
            # The changed words in reverse video, as the rich view shows them.
            out.append(
                paint(role, line[:1])
                + "".join(
                    paint(role, piece, marked) for piece, marked in segments(line[1:], ranges)
                )
            )
        else:
            out.append(paint(role, visible(line)))
    stream.write("\n".join(out) + "\n")


def _marks(result: LineDiff) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """The word-level highlights of each hunk line: ``(hunk, line) -> [(start, end), ...]``."""
    from edittools.diff import inline_spans

    marks: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for index, hunk in enumerate(result.hunks):
        for line, start, end in inline_spans(hunk.lines).spans:
            marks.setdefault((index, line), []).append((start, end))
    return marks


_ROLE = {"+": "add", "-": "remove", "\\": "note", " ": "context"}


def _labels(result: LineDiff, path: str, old_path: str | None, similarity: int | None) -> list[str]:
    """The words `diff_labels` shows for a payload, for what a `LineDiff` knows."""
    labels: list[str] = []
    if result.operation == "rename":
        alike = "" if similarity is None else f" ({similarity}% alike)"
        labels.append(f"rename {old_path or '?'} -> {path}{alike}")
    elif result.operation == "create":
        labels.append("new file")
    elif result.operation == "delete":
        labels.append("deleted")
    if result.binary:
        labels.append("binary")
    if not result.minimal:
        labels.append("non-minimal")
    return labels
