"""Word-level highlights: which characters of a changed line pair differ.

In a hunk, each run of removed lines followed by a run of added lines is a change block; its
lines are paired in order (the first removed with the first added, and so on). Each pair is
cut into words (runs of letters and digits), runs of blanks and single other characters; each
distinct token becomes one character and the two token strings are diffed with semantic cleanup
(the C++ diff-match-patch binding, as lines are diffed), so a renamed identifier is highlighted
whole, never as a few letters of it. The result names, for a line index into the hunk's
`lines`, the ``[start, end)`` ranges of characters (Unicode code points of the line's text
after its marker) that changed.

The cost is bounded: a pair with a line longer than `MAX_LINE_CHARS` is not highlighted, nor is
a hunk with more than `MAX_HUNK_LINES` lines, and one diff spends at most `MAX_TOTAL_CHARS`
characters on highlights; the hunk then says why its spans are missing or incomplete.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

import fast_diff_match_patch

_TOKEN = re.compile(r"\w+|\s+|.", re.DOTALL)
_FIRST = 0xE000  # tokens are coded from the private use area: never a surrogate

MAX_LINE_CHARS = 1000
"""A pair with a longer line is left unhighlighted (reason ``long_lines``)."""
MAX_HUNK_LINES = 1000
"""A hunk with more lines gets no highlights (reason ``large_hunk``)."""
MAX_TOTAL_CHARS = 1_000_000
"""Characters of paired lines one diff may highlight; later hunks get reason ``budget``."""

Skipped = Literal["long_lines", "large_hunk", "budget"]
Span = tuple[int, int, int]
"""``(line index into the hunk's lines, start, end)``: characters ``start:end`` of the text."""


class InlineSpans(NamedTuple):
    """The changed ranges of one hunk's paired lines, and why some were skipped (or None)."""

    spans: list[Span]
    skipped: Skipped | None


class Budget:
    """Characters left for highlighting across the hunks of one diff."""

    __slots__ = ("left",)

    def __init__(self, chars: int = MAX_TOTAL_CHARS) -> None:
        self.left = chars


def pairs(lines: list[str]) -> list[tuple[int, int]]:
    """Index pairs ``(removed, added)`` of the change blocks of a hunk's marked lines.

    A ``\\`` note line (no newline at end of file) belongs to the line before it and does not
    end a block.
    """
    out: list[tuple[int, int]] = []
    removed: list[int] = []
    added: list[int] = []
    for index, line in enumerate(lines):
        marker = line[:1]
        if marker == "-":
            if added:
                out.extend(zip(removed, added, strict=False))
                removed, added = [], []
            removed.append(index)
        elif marker == "+":
            added.append(index)
        elif marker != "\\":
            out.extend(zip(removed, added, strict=False))
            removed, added = [], []
    out.extend(zip(removed, added, strict=False))
    return out


def inline_spans(lines: list[str], budget: Budget | None = None) -> InlineSpans:
    """The changed character ranges of each paired removed and added line of a hunk.

    A pair with nothing in common gets no spans (the whole line changed; the row's colour says
    it already). `budget`, shared by the hunks of one diff, bounds the total work.
    """
    if len(lines) > MAX_HUNK_LINES:
        return InlineSpans([], "large_hunk")
    spans: list[Span] = []
    skipped: Skipped | None = None
    diff = fast_diff_match_patch.diff
    for old_index, new_index in pairs(lines):
        old, new = lines[old_index][1:], lines[new_index][1:]
        if len(old) > MAX_LINE_CHARS or len(new) > MAX_LINE_CHARS:
            skipped = "long_lines"
            continue
        if budget is not None:
            if budget.left < len(old) + len(new):
                return InlineSpans(spans, "budget")
            budget.left -= len(old) + len(new)
        if old == new:
            continue
        codes: dict[str, str] = {}
        old_tokens, new_tokens = _TOKEN.findall(old), _TOKEN.findall(new)
        old_coded, new_coded = _coded(old_tokens, codes), _coded(new_tokens, codes)
        ops = diff(
            old_coded,
            new_coded,
            timelimit=0,
            checklines=False,
            cleanup="Semantic",
            counts_only=True,
        )
        if not any(op == "=" for op, _ in ops):
            continue
        at_old = at_new = 0  # characters
        token_old = token_new = 0  # tokens
        for op, count in ops:
            if op != "+":
                size = sum(map(len, old_tokens[token_old : token_old + count]))
                if op == "-":
                    spans.append((old_index, at_old, at_old + size))
                at_old += size
                token_old += count
            if op != "-":
                size = sum(map(len, new_tokens[token_new : token_new + count]))
                if op == "+":
                    spans.append((new_index, at_new, at_new + size))
                at_new += size
                token_new += count
    spans.sort()
    return InlineSpans(spans, skipped)


def _coded(tokens: list[str], codes: dict[str, str]) -> str:
    """One character per token, the same character for the same token in both lines."""
    return "".join([codes.setdefault(token, chr(_FIRST + len(codes))) for token in tokens])
