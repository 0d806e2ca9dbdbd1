"""Turn change blocks into hunks with context, reading only the lines that end up in them.

A change carries line indices and byte offsets on both sides, so hunks are built from the raw
bytes without splitting whole files: context is found by walking a few newlines from each block.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress, count, islice, repeat
from operator import gt, itemgetter, sub
from typing import TYPE_CHECKING, Any, NamedTuple

from edittools.diff._changes import Change
from edittools.diff._inline import Budget, inline_spans
from edittools.diff._lines import back_lines, decode_range, forward_lines

if TYPE_CHECKING:
    from edittools.artifacts import DiffStats, Hunk

NO_NEWLINE = "\\ No newline at end of file"
_NEWLINE = ord("\n")


class PlainHunk(NamedTuple):
    """A hunk as plain data, with the fields of the protocol's `Hunk` (no model, no validation).

    The command line prints these without loading the artifact models.
    """

    old_start: int | None
    old_lines: int
    new_start: int | None
    new_lines: int
    lines: list[str]
    heading: str | None = None


HeadingOf = Callable[[int], "str | None"]
"""Gives a hunk's heading from the offset in the old text where its first line starts."""


def build_hunks(
    old: bytes,
    new: bytes,
    changes: list[Change],
    *,
    context: int,
    numbered: bool = True,
    eof_markers: bool = True,
    heading: HeadingOf | None = None,
    budget: Budget | None = None,
) -> list[Hunk]:
    """Group changes closer than ``2 * context`` equal lines and render each group as a hunk.

    `numbered` False leaves the starts null (snippet granularity); `eof_markers` False omits the
    missing-newline marker (a snippet's last line is not the end of the file). `heading` gives
    each hunk its function context; `budget` bounds the word-level highlights (`to_models`).
    """
    return to_models(
        plain_hunks(
            old,
            new,
            changes,
            context=context,
            numbered=numbered,
            eof_markers=eof_markers,
            heading=heading,
        ),
        budget=budget,
    )


def to_models(hunks: list[PlainHunk], *, budget: Budget | None = None) -> list[Hunk]:
    """The protocol's `Hunk` models of plain hunks, with their word-level highlights.

    `budget`, shared by the hunks of one diff, bounds the highlighting (a fresh one by default).
    """
    from edittools.artifacts import Hunk

    if budget is None:
        budget = Budget()
    # Every field is built with its declared type: no validation pass over the lines.
    construct = Hunk.model_construct
    return [
        construct(
            old_start=hunk.old_start,
            old_lines=hunk.old_lines,
            new_start=hunk.new_start,
            new_lines=hunk.new_lines,
            lines=hunk.lines,
            heading=hunk.heading,
            **_highlights(hunk.lines, budget),
        )
        for hunk in hunks
    ]


def with_spans(hunks: list[Hunk]) -> list[Hunk]:
    """The hunks, each that has no word-level highlights given them (others kept as they are)."""
    budget = Budget()
    return [
        hunk
        if hunk.spans is not None or hunk.spans_skipped is not None
        else hunk.model_copy(update=_highlights(hunk.lines, budget))
        for hunk in hunks
    ]


def _highlights(lines: list[str], budget: Budget) -> dict[str, Any]:
    """The `spans` and `spans_skipped` fields of a hunk with these lines."""
    from edittools.artifacts import ChangedSpan

    spans, skipped = inline_spans(lines, budget)
    span = ChangedSpan.model_construct
    found = [span(line=line, start=start, end=end) for line, start, end in spans]
    return {"spans": None if skipped == "large_hunk" else found, "spans_skipped": skipped}


def plain_hunks(
    old: bytes,
    new: bytes,
    changes: list[Change],
    *,
    context: int,
    numbered: bool = True,
    eof_markers: bool = True,
    heading: HeadingOf | None = None,
) -> list[PlainHunk]:
    """The hunks of `build_hunks` as plain data (without word-level highlights)."""
    context = max(0, context)
    if not changes:
        return []
    # A group starts at each change more than 2 * context lines after the one before.
    gaps = map(sub, map(itemgetter(0), islice(changes, 1, None)), map(itemgetter(1), changes))
    starts = [0, *compress(count(1), map(gt, gaps, repeat(2 * context)))]
    ends = [*starts[1:], len(changes)]
    return [
        _hunk(old, new, changes[start:end], context, numbered, eof_markers, heading)
        for start, end in zip(starts, ends, strict=True)
    ]


def stats_of(hunks: list[Hunk]) -> DiffStats:
    """Count the added and removed lines of the hunks (the only source of the stats)."""
    from edittools.artifacts import DiffStats

    added, removed = count_lines(hunks)
    return DiffStats(added=added, removed=removed)


def count_lines(hunks: list[Hunk] | list[PlainHunk]) -> tuple[int, int]:
    """The added and removed lines of the hunks."""
    added = removed = 0
    for hunk in hunks:
        # One string of the markers, counted in C.
        markers = "".join(map(itemgetter(0), hunk.lines))
        added += markers.count("+")
        removed += markers.count("-")
    return added, removed


def _texts(data: bytes, start: int, end: int) -> tuple[list[str], bool]:
    """The lines of ``data[start:end]`` without their newlines, and whether the last lacks one."""
    texts = decode_range(data, start, end).split("\n")
    partial = end > start and data[end - 1] != _NEWLINE
    if not partial:
        texts.pop()  # the empty text after the last newline, or of an empty range
    return texts, partial


def _hunk(
    old: bytes,
    new: bytes,
    group: list[Change],
    context: int,
    numbered: bool,
    eof_markers: bool,
    heading: HeadingOf | None,
) -> PlainHunk:
    first, last = group[0], group[-1]
    start_a, before = back_lines(old, first.oa0, context, 0)
    end_a, after = forward_lines(old, last.oa1, context, len(old))
    # Context is the same bytes on both sides, so the new span follows from the old one.
    start_b = first.ob0 - (first.oa0 - start_a)
    end_b = last.ob1 + (end_a - last.oa1)
    a_texts, a_partial = _texts(old, start_a, end_a)
    b_texts, b_partial = _texts(new, start_b, end_b)
    a_partial = a_partial and eof_markers
    b_partial = b_partial and eof_markers
    base_a, base_b = first.a0 - before, first.b0 - before
    lines: list[str] = []
    extend, append = lines.extend, lines.append
    as_context, as_removed, as_added = " ".__add__, "-".__add__, "+".__add__
    at = 0  # next old line of the span, relative to base_a
    # This loop runs once per change: plain unpacking, no work for empty runs, and a single
    # line (the most common run in dense changes) appended without a slice and a map.
    for a0, a1, b0, b1, _, _, _, _ in group:
        x0, x1 = a0 - base_a, a1 - base_a
        if x0 - at == 1:
            append(" " + a_texts[at])
        elif x0 > at:
            extend(map(as_context, a_texts[at:x0]))
        if x1 > x0:
            if x1 - x0 == 1:
                append("-" + a_texts[x0])
            else:
                extend(map(as_removed, a_texts[x0:x1]))
            if a_partial and x1 == len(a_texts):
                append(NO_NEWLINE)
        if b1 > b0:
            y0, y1 = b0 - base_b, b1 - base_b
            if y1 - y0 == 1:
                append("+" + b_texts[y0])
            else:
                extend(map(as_added, b_texts[y0:y1]))
            if b_partial and y1 == len(b_texts):
                append(NO_NEWLINE)
        at = x1
    extend(map(as_context, a_texts[at:]))
    if a_partial and at < len(a_texts):
        lines.append(NO_NEWLINE)
    old_lines = (last.a1 - first.a0) + before + after
    new_lines = (last.b1 - first.b0) + before + after
    old_start = new_start = None
    if numbered:
        # A 1-based start, or the line before an empty range.
        old_start = base_a + (1 if old_lines else 0)
        new_start = base_b + (1 if new_lines else 0)
    found = heading(start_a) if heading is not None and numbered else None
    return PlainHunk(old_start, old_lines, new_start, new_lines, lines, found)
