"""The line diff of two byte strings: changes with line numbers and byte offsets.

Common leading and trailing lines are skipped at memcmp speed (stripping them never changes the
minimum). A small middle is diffed exactly in one piece (at most `SMALL_REGION` bytes) when even
its worst case fits the budget; a large one, or a small one of thousands of short lines, goes to
the windowed scanner of `_fast`, which touches only the lines around each difference and keeps to
the budget.
"""

from __future__ import annotations

import time

from edittools.diff._changes import Change, to_changes
from edittools.diff._exact import diff_keys, matched_lines, worst_seconds
from edittools.diff._fast import scan_changes, scan_counts
from edittools.diff._lines import NL, split_keys
from edittools.diff._mapped import comparable
from edittools.diff._scan import common_prefix, common_suffix

# Middles up to this many bytes (both sides together) are diffed in one exact piece.
SMALL_REGION = 64 * 1024


def trim_common(a: bytes, b: bytes) -> tuple[int, int, int, int]:
    """Byte bounds ``(pa, ea, pb, eb)`` of the middle left after whole common lines at both ends.

    ``a[:pa] == b[:pb]`` (so ``pa == pb``) and ``a[ea:] == b[eb:]``; every bound is a line start
    (or the end of the data).
    """
    mb = comparable(b)
    n, m = len(a), len(b)
    p = common_prefix(a, b, mb, 0, 0, min(n, m))
    if p == n == m:
        return n, n, m, m
    pa = a.rfind(NL, 0, p) + 1
    s = common_suffix(a, b, mb, n, m, min(n - pa, m - pa))
    x, y = n - s, m - s
    if s and (x == pa or a[x - 1] == 10) and (y == pa or b[y - 1] == 10):
        q = s
    else:
        f = a.find(NL, x, n)
        q = 0 if f < 0 else n - f - 1
    return pa, n - q, pa, m - q


def line_changes(
    old: bytes, new: bytes, *, deadline: float | None = None, first_line: int = 0
) -> tuple[list[Change], bool]:
    """Return the changes turning `old` into `new` and whether they are minimal.

    Line numbers count from `first_line` (0-based), for texts that are a part of a file.
    """
    pa, ea, pb, eb = trim_common(old, new)
    if pa == ea and pb == eb:
        return [], True
    first = first_line + old.count(NL, 0, pa)
    if _small(old, new, (pa, ea, pb, eb), deadline):
        return region_changes(old, new, pa, ea, pb, eb, first, first), True
    return scan_changes(old, new, pa, ea, pb, eb, first, deadline)


def _small(
    old: bytes, new: bytes, bounds: tuple[int, int, int, int], deadline: float | None
) -> bool:
    """Whether the middle is diffed in one exact piece: small, and within the budget even if
    every line changed (64 KiB of short lines, shuffled, took seconds)."""
    pa, ea, pb, eb = bounds
    if (ea - pa) + (eb - pb) > SMALL_REGION:
        return False
    if deadline is None or pa == ea or pb == eb:
        return True  # lines added or removed only: one block, found without a search
    lines = old.count(NL, pa, ea) + new.count(NL, pb, eb) + 2
    return time.monotonic() + worst_seconds(lines) <= deadline


def line_counts(
    old: bytes,
    new: bytes,
    *,
    deadline: float | None = None,
    bounds: tuple[int, int, int, int] | None = None,
) -> tuple[int, int, bool]:
    """Added and removed lines of the diff `line_changes` finds, and whether it is minimal.

    A small middle is counted from the length of the common subsequence alone, without building
    change blocks; a large one by the scanner of `line_changes`, without locating the changes.
    `bounds` is the middle `trim_common` gives, when the caller has it already.
    """
    pa, ea, pb, eb = trim_common(old, new) if bounds is None else bounds
    if pa == ea and pb == eb:
        return 0, 0, True
    if _small(old, new, (pa, ea, pb, eb), deadline):
        a_keys = split_keys(old, pa, ea)
        b_keys = split_keys(new, pb, eb)
        matched = matched_lines(a_keys, b_keys)
        return len(b_keys) - matched, len(a_keys) - matched, True
    return scan_counts(old, new, pa, ea, pb, eb, deadline)


def region_changes(
    old: bytes,
    new: bytes,
    pa: int,
    ea: int,
    pb: int,
    eb: int,
    line_a: int,
    line_b: int,
) -> list[Change]:
    """Diff whole lines ``old[pa:ea]`` against ``new[pb:eb]`` exactly, in one piece.

    The regions start at lines `line_a` and `line_b` (0-based) of their texts.
    """
    a_keys = split_keys(old, pa, ea)
    b_keys = split_keys(new, pb, eb)
    blocks = diff_keys(a_keys, b_keys).blocks
    return to_changes(blocks, a_keys, b_keys, (pa, ea, pb, eb), line_a, line_b)
