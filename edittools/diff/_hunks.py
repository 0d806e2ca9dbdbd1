"""Turn change blocks into hunks with context, reading only the lines that end up in them.

A change carries line indices and byte offsets on both sides, so hunks are built from the raw
bytes without splitting whole files: context is found by walking a few newlines from each block.
"""

from __future__ import annotations

from typing import NamedTuple

from edittools.artifacts import DiffStats, Hunk
from edittools.diff._lines import NL, back_lines, decode, forward_lines

NO_NEWLINE = "\\ No newline at end of file"


class Change(NamedTuple):
    """Lines ``a0:a1`` of old (bytes ``oa0:oa1``) become lines ``b0:b1`` of new (``ob0:ob1``)."""

    a0: int
    a1: int
    b0: int
    b1: int
    oa0: int
    oa1: int
    ob0: int
    ob1: int


def build_hunks(
    old: bytes,
    new: bytes,
    changes: list[Change],
    *,
    context: int,
    numbered: bool = True,
    eof_markers: bool = True,
) -> list[Hunk]:
    """Group changes closer than ``2 * context`` equal lines and render each group as a hunk.

    `numbered` False leaves the starts null (snippet granularity); `eof_markers` False omits the
    missing-newline marker (a snippet's last line is not the end of the file).
    """
    context = max(0, context)
    hunks: list[Hunk] = []
    group: list[Change] = []
    for change in changes:
        if group and change.a0 - group[-1].a1 > 2 * context:
            hunks.append(_hunk(old, new, group, context, numbered, eof_markers))
            group = []
        group.append(change)
    if group:
        hunks.append(_hunk(old, new, group, context, numbered, eof_markers))
    return hunks


def stats_of(hunks: list[Hunk]) -> DiffStats:
    """Count the added and removed lines of the hunks (the only source of the stats)."""
    added = removed = 0
    for hunk in hunks:
        for line in hunk.lines:
            marker = line[:1]
            if marker == "+":
                added += 1
            elif marker == "-":
                removed += 1
    return DiffStats(added=added, removed=removed)


def _text_lines(data: bytes, start: int, end: int, marker: str, eof_marker: bool) -> list[str]:
    """Decode ``data[start:end]`` (whole lines) into marked hunk lines."""
    if start >= end:
        return []
    chunk = data[start:end]
    missing_newline = not chunk.endswith(NL)
    texts = decode(chunk).split("\n")
    if not missing_newline:
        texts.pop()
    out = [marker + text for text in texts]
    if missing_newline and eof_marker:
        out.append(NO_NEWLINE)
    return out


def _hunk(
    old: bytes,
    new: bytes,
    group: list[Change],
    context: int,
    numbered: bool,
    eof_markers: bool,
) -> Hunk:
    first, last = group[0], group[-1]
    start_a, before = back_lines(old, first.oa0, context, 0)
    end_a, after = forward_lines(old, last.oa1, context, len(old))
    lines = _text_lines(old, start_a, first.oa0, " ", eof_markers)
    previous: Change | None = None
    for change in group:
        if previous is not None:
            lines += _text_lines(old, previous.oa1, change.oa0, " ", eof_markers)
        lines += _text_lines(old, change.oa0, change.oa1, "-", eof_markers)
        lines += _text_lines(new, change.ob0, change.ob1, "+", eof_markers)
        previous = change
    lines += _text_lines(old, last.oa1, end_a, " ", eof_markers)
    old_lines = (last.a1 - first.a0) + before + after
    new_lines = (last.b1 - first.b0) + before + after
    old_start = new_start = None
    if numbered:
        # A 1-based start, or the line before an empty range.
        old_start = first.a0 - before + (1 if old_lines else 0)
        new_start = first.b0 - before + (1 if new_lines else 0)
    return Hunk(
        old_start=old_start,
        old_lines=old_lines,
        new_start=new_start,
        new_lines=new_lines,
        lines=lines,
    )
