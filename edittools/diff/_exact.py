"""Exact line diff over interned line ids, with Myers run in C++ by fast-diff-match-patch.

Lines that occur on one side only can never be matched, so they are dropped before the diff (as
xdiff and GNU diff do) and come back as plain deletions or insertions: the longest common
subsequence is unchanged and the search space shrinks a lot on heavy rewrites. Every remaining
distinct line becomes one character and the C++ Myers diff runs over the two strings with no time
limit, no line mode and no cleanup, which makes it exact. Interning runs in C-level iterators
(set intersection, ``map`` over a dict), so no Python code runs per line.

The exact diff cannot be interrupted; callers with a budget predict its time from
`SECONDS_PER_D2` and decide before calling (see `_fast`). `shared_lines` gives the size of the
problem the diff works on, for that prediction.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain, compress, count
from operator import itemgetter
from typing import NamedTuple

import fast_diff_match_patch

from edittools.diff._myers import Block, diff_ids

# Code points usable as ids: no NUL and no surrogates.
_MAX_IDS = 0x10FFFF - (0xE000 - 0xD800)
# Ids for the usual small diffs, made once (all below the surrogates).
_ID_TABLE = list(map(chr, range(1, 1 << 13)))
# Seconds per unit of squared distance (of the reduced problem): a cautious fit of the C++ engine
# on code rewrites and on duplicate-heavy and shuffled inputs (measured 1.6e-9 to 5.2e-9).
SECONDS_PER_D2 = 5e-9


def _id_chars(size: int) -> Iterable[str]:
    if size <= len(_ID_TABLE):
        return _ID_TABLE
    return chain(map(chr, range(1, 0xD800)), map(chr, range(0xE000, 0x110000)))


class KeyDiff(NamedTuple):
    """Change blocks, and the edit distance left once lines found on one side only are dropped."""

    blocks: list[Block]
    reduced_distance: int


def diff_keys(a: list[bytes], b: list[bytes]) -> KeyDiff:
    """Diff two lists of line keys exactly."""
    n, m = len(a), len(b)
    if not n or not m:
        return KeyDiff([(0, n, 0, m)] if n or m else [], 0)
    common = set(a).intersection(b)
    if not common:
        return KeyDiff([(0, n, 0, m)], 0)
    if len(common) > _MAX_IDS:
        return _python_diff(a, b, common)
    chars = dict(zip(common, _id_chars(len(common)), strict=False))
    ids_a = list(map(chars.get, a))  # None for a line absent from b
    ids_b = list(map(chars.get, b))
    sa = "".join(filter(None, ids_a))
    sb = "".join(filter(None, ids_b))
    keep_a = None if len(sa) == n else list(compress(count(), ids_a))
    keep_b = None if len(sb) == m else list(compress(count(), ids_b))
    ops = fast_diff_match_patch.diff(sa, sb, timelimit=0, checklines=False, cleanup="No")
    runs = _runs(ops)
    # The ops' lengths add up to matched + distance, the strings' to 2 * matched + distance.
    distance = 2 * sum(map(itemgetter(1), ops)) - len(sa) - len(sb)
    return KeyDiff(_blocks_from_runs(runs, keep_a, keep_b, n, m), distance)


def shared_lines(a: list[bytes], b: list[bytes]) -> int:
    """Lines of `a` and of `b` that occur on the other side too: the length of the reduced
    problem `diff_keys` solves (lines on one side only are dropped first)."""
    common = set(a).intersection(b)
    if not common:
        return 0
    return sum(map(common.__contains__, a)) + sum(map(common.__contains__, b))


def worst_seconds(lines: int) -> float:
    """The predicted time of an exact diff of `lines` lines in all when every one changed."""
    return SECONDS_PER_D2 * lines * lines


def matched_lines(a: list[bytes], b: list[bytes]) -> int:
    """How many lines a minimal diff of the two lists of keys keeps (the common subsequence).

    The counts of a diff follow from it (``len(a) - matched`` removed, ``len(b) - matched``
    added) without mapping the edit script back to blocks.
    """
    if not a or not b:
        return 0
    common = set(a).intersection(b)
    if not common:
        return 0
    if len(common) > _MAX_IDS:
        blocks = diff_keys(a, b).blocks
        return len(a) - sum(a1 - a0 for a0, a1, _, _ in blocks)
    chars = dict(zip(common, _id_chars(len(common)), strict=False))
    sa = "".join(filter(None, map(chars.get, a)))
    sb = "".join(filter(None, map(chars.get, b)))
    ops = fast_diff_match_patch.diff(sa, sb, timelimit=0, checklines=False, cleanup="No")
    return sum(length for op, length in ops if op == "=")


def _runs(ops: list[tuple[str, int]]) -> list[Block]:
    """Equal runs ``(i0, i1, j0, j1)`` of the two strings from an edit script."""
    runs: list[Block] = []
    i = j = 0
    for op, length in ops:
        if op == "=":
            runs.append((i, i + length, j, j + length))
            i += length
            j += length
        elif op == "-":
            i += length
        else:
            j += length
    return runs


def _python_diff(a: list[bytes], b: list[bytes], common: set[bytes]) -> KeyDiff:
    """More distinct common lines than code points: the pure-Python engine over ids."""
    ids = dict(zip(common, count(1), strict=False))
    seq_a = [ids[x] for x in a if x in ids]
    seq_b = [ids[x] for x in b if x in ids]
    keep_a = [i for i, x in enumerate(a) if x in ids]
    keep_b = [j for j, x in enumerate(b) if x in ids]
    blocks = diff_ids(seq_a, seq_b)
    distance = sum(a1 - a0 + b1 - b0 for a0, a1, b0, b1 in blocks)
    runs: list[Block] = []
    i = j = 0
    for a0, a1, b0, b1 in blocks:
        if a0 > i:
            runs.append((i, a0, j, b0))
        i, j = a1, b1
    if i < len(seq_a):
        runs.append((i, len(seq_a), j, len(seq_b)))
    return KeyDiff(_blocks_from_runs(runs, keep_a, keep_b, len(a), len(b)), distance)


def _blocks_from_runs(
    runs: list[Block], keep_a: list[int] | None, keep_b: list[int] | None, n: int, m: int
) -> list[Block]:
    """Map equal runs of the reduced sequences back to change blocks of the full ones."""
    blocks: list[Block] = []
    pa = pb = 0  # next unmatched line on each side, in full coordinates
    for i0, i1, j0, j1 in runs:
        length = i1 - i0
        x = i0 if keep_a is None else keep_a[i0]
        y = j0 if keep_b is None else keep_b[j0]
        if (keep_a is None or keep_a[i1 - 1] - x == length - 1) and (
            keep_b is None or keep_b[j1 - 1] - y == length - 1
        ):
            # No dropped line inside the run: one matched stretch.
            if x > pa or y > pb:
                blocks.append((pa, x, pb, y))
            pa, pb = x + length, y + length
            continue
        xs = range(i0, i1) if keep_a is None else keep_a[i0:i1]
        ys = range(j0, j1) if keep_b is None else keep_b[j0:j1]
        for x, y in zip(xs, ys, strict=True):
            if x > pa or y > pb:
                blocks.append((pa, x, pb, y))
            pa, pb = x + 1, y + 1
    if pa < n or pb < m:
        blocks.append((pa, n, pb, m))
    return blocks
