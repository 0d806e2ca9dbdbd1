"""Diff payloads as display rows: classified unified lines, numbered rows, side-by-side pairs.

Both views read a diff the same way: from its hunks when it has them, else from its unified
text (a payload adapted from another runtime may carry only that). Snippet hunks have no line
numbers; their rows carry none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from edittools.artifacts import Diagnostic, DiffPayload, Hunk
from edittools.diff import inline_spans

Role = Literal["header", "hunk", "context", "add", "remove", "note"]

_HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_ROLE_OF_MARKER: dict[str, Role] = {" ": "context", "-": "remove", "+": "add", "\\": "note"}


@dataclass(frozen=True)
class Row:
    """One displayed line of a hunk, with its line numbers on each side when known."""

    role: Role
    text: str
    old_no: int | None = None
    new_no: int | None = None
    marks: tuple[tuple[int, int], ...] = ()
    """Word-level highlights: ``[start, end)`` ranges of `text` that changed."""


def classify_unified(text: str) -> list[tuple[Role, str]]:
    """Split unified diff text into lines, each with its role.

    Hunk bodies are counted from their `@@` headers, so a removed line reading `-- x` is not
    mistaken for a `---` file header. Lines outside hunks are headers.
    """
    out: list[tuple[Role, str]] = []
    old_left = new_left = 0
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for line in lines:
        in_body = old_left > 0 or new_left > 0
        header = _HUNK_HEADER.match(line)
        if not in_body and header:
            old_left = int(header.group(2) or "1")
            new_left = int(header.group(4) or "1")
            out.append(("hunk", line))
            continue
        marker = line[:1]
        if marker == "\\":
            out.append(("note", line))
        elif in_body and marker in _ROLE_OF_MARKER:
            role = _ROLE_OF_MARKER[marker]
            out.append((role, line))
            old_left -= role != "add"
            new_left -= role != "remove"
        elif in_body and line == "":
            # Some tools drop the space of an empty context line.
            out.append(("context", " "))
            old_left -= 1
            new_left -= 1
        else:
            old_left = new_left = 0
            out.append(("header", line))
    return out


def hunks_of(payload: DiffPayload) -> list[Hunk]:
    """Return the payload's hunks, parsing them from its unified text when it has none."""
    if payload.hunks or not payload.unified:
        return list(payload.hunks)
    hunks: list[Hunk] = []
    starts: tuple[int, int, int, int] | None = None
    heading: str | None = None
    body: list[str] = []

    def close() -> None:
        if starts is not None:
            hunks.append(
                Hunk(
                    old_start=starts[0],
                    old_lines=starts[1],
                    new_start=starts[2],
                    new_lines=starts[3],
                    lines=list(body),
                    heading=heading,
                )
            )

    for role, line in classify_unified(payload.unified):
        if role == "hunk":
            close()
            m = _HUNK_HEADER.match(line)
            assert m is not None  # classify_unified only says "hunk" for a matching header
            starts = (
                int(m.group(1)),
                int(m.group(2) or "1"),
                int(m.group(3)),
                int(m.group(4) or "1"),
            )
            heading = line[m.end() :].removeprefix(" ") or None
            body = []
        elif role in ("context", "add", "remove", "note") and starts is not None:
            body.append(line)
        elif role == "header":
            close()
            starts = None
    close()
    return hunks


def hunk_rows(hunk: Hunk) -> list[Row]:
    """Return a hunk's lines as rows numbered on the old and new side."""
    numbered = hunk.old_start is not None and hunk.new_start is not None
    # An empty range names the line before it, so the first line of a side is start + 1 then.
    old_no = (hunk.old_start or 0) + (hunk.old_lines == 0)
    new_no = (hunk.new_start or 0) + (hunk.new_lines == 0)
    marks = marks_of(hunk)
    rows: list[Row] = []
    for index, line in enumerate(hunk.lines):
        role = _ROLE_OF_MARKER.get(line[:1], "context")
        text = line[1:] if role != "note" else line
        old = old_no if numbered and role in ("context", "remove") else None
        new = new_no if numbered and role in ("context", "add") else None
        rows.append(Row(role, text, old, new, tuple(marks.get(index, ()))))
        old_no += role in ("context", "remove")
        new_no += role in ("context", "add")
    return rows


def marks_of(hunk: Hunk) -> dict[int, list[tuple[int, int]]]:
    """A hunk's word-level highlights by line index: its `spans`, or found now when it has none.

    Spans are untrusted input: one that names a line that is not removed or added is ignored.
    """
    if hunk.spans is not None:
        found = [(span.line, span.start, span.end) for span in hunk.spans]
    elif hunk.spans_skipped is None:
        found = inline_spans(hunk.lines).spans
    else:
        found = []
    marks: dict[int, list[tuple[int, int]]] = {}
    for line, start, end in sorted(found):
        if 0 <= line < len(hunk.lines) and hunk.lines[line][:1] in ("-", "+") and start < end:
            marks.setdefault(line, []).append((start, end))
    return marks


def split_pairs(rows: list[Row]) -> list[tuple[Row | None, Row | None]]:
    """Pair rows for a side-by-side view: removed lines face the added lines that follow them."""
    pairs: list[tuple[Row | None, Row | None]] = []
    removed: list[Row] = []
    added: list[Row] = []

    def flush() -> None:
        for i in range(max(len(removed), len(added))):
            left = removed[i] if i < len(removed) else None
            right = added[i] if i < len(added) else None
            pairs.append((left, right))
        removed.clear()
        added.clear()

    for row in rows:
        if row.role == "remove":
            if added:
                flush()
            removed.append(row)
        elif row.role == "add":
            added.append(row)
        elif row.role == "note":
            # The marker belongs to the line just before it: keep it on that side.
            if added:
                added.append(row)
            elif removed:
                removed.append(row)
            else:
                pairs.append((row, row))
        else:
            flush()
            pairs.append((row, row))
    flush()
    return pairs


def diagnostics_on_hunks(
    diagnostics: list[Diagnostic], hunks: list[Hunk]
) -> tuple[list[list[Diagnostic]], list[Diagnostic]]:
    """Place each diagnostic on the first hunk whose new lines it meets.

    Returns the diagnostics of each hunk, and those that meet no hunk (notes on the whole file,
    or an error the change caused beyond the lines it touched).
    """
    placed: list[list[Diagnostic]] = [[] for _ in hunks]
    loose: list[Diagnostic] = []
    for diagnostic in diagnostics:
        index = _hunk_of(diagnostic, hunks)
        (loose if index is None else placed[index]).append(diagnostic)
    return placed, loose


def _hunk_of(diagnostic: Diagnostic, hunks: list[Hunk]) -> int | None:
    if diagnostic.line is None:
        return None
    first = diagnostic.line
    last = max(first, diagnostic.end_line or first)
    for index, hunk in enumerate(hunks):
        if hunk.new_start is None:
            continue
        start = hunk.new_start + (hunk.new_lines == 0)
        end = start + max(hunk.new_lines, 1) - 1
        if first <= end and start <= last:
            return index
    return None


def diagnostic_text(diagnostic: Diagnostic) -> str:
    """One line for a diagnostic: `syntax error, line 12, column 5 to line 14: missing ')'`."""
    where = ""
    if diagnostic.line is not None:
        where = f", line {diagnostic.line}"
        if diagnostic.column is not None:
            where += f", column {diagnostic.column}"
        if diagnostic.end_line is not None and diagnostic.end_line > diagnostic.line:
            where += f" to line {diagnostic.end_line}"
    return f"{diagnostic.source} {diagnostic.severity}{where}: {diagnostic.message}"
