"""Exact line diff over interned line ids, with Myers run in C++ by fast-diff-match-patch.

Each distinct line gets an integer id; lines that occur on one side only can never be matched, so
they are dropped before the diff (as xdiff and GNU diff do) and come back as plain deletions or
insertions: the longest common subsequence is unchanged, and the search space shrinks a lot on
heavy rewrites. The remaining ids become one character each and the C++ Myers diff runs over the
two strings with no time limit, no line mode and no cleanup, which makes it exact.
"""

from __future__ import annotations

from collections.abc import Sequence

import fast_diff_match_patch

from edittools.diff._myers import Block, BudgetExceeded, diff_ids

# Code points usable for ids: 1..0xD7FF and 0xE000..0x10FFFF (no NUL, no surrogates).
_SURROGATES = 0xE000 - 0xD800
_MAX_IDS = 0x10FFFF - _SURROGATES


def _char(ident: int) -> str:
    return chr(ident if ident < 0xD800 else ident + _SURROGATES)


def diff_lines(
    a: Sequence[bytes],
    b: Sequence[bytes],
    *,
    deadline: float | None = None,
) -> tuple[list[Block], bool]:
    """Diff two line lists; return change blocks and whether they are minimal.

    Within the deadline the result is exact. If the exact search cannot finish in time, the C++
    engine is run again with the time left (at least a small slice) as its limit: a correct diff
    that may not be minimal, reported with ``False``.
    """
    ids: dict[bytes, int] = {}
    in_a: dict[bytes, bool] = {}
    for line in a:
        in_a[line] = True
    keep_a: list[int] = []
    keep_b: list[int] = []
    seq_b: list[int] = []
    setdefault = ids.setdefault
    for j, line in enumerate(b):
        if line in in_a:
            seq_b.append(setdefault(line, len(ids) + 1))
            keep_b.append(j)
    seq_a: list[int] = []
    get = ids.get
    for i, line in enumerate(a):
        ident = get(line)
        if ident is not None:
            seq_a.append(ident)
            keep_a.append(i)
    minimal = True
    if not seq_a or not seq_b:
        pairs: list[Block] = []
    elif len(ids) > _MAX_IDS:
        try:
            pairs = _matches_from_blocks(diff_ids(seq_a, seq_b, deadline=deadline), len(seq_a))
        except BudgetExceeded:
            pairs = []
            minimal = False
    else:
        sa = "".join(map(_char, seq_a))
        sb = "".join(map(_char, seq_b))
        pairs, minimal = _cpp_matches(sa, sb, deadline)
    return _blocks_from_matches(pairs, keep_a, keep_b, len(a), len(b)), minimal


def _cpp_matches(sa: str, sb: str, deadline: float | None) -> tuple[list[Block], bool]:
    """Equal runs ``(i, i_end, j, j_end)`` of the reduced sequences, from the C++ engine."""
    ops = fast_diff_match_patch.diff(sa, sb, timelimit=0, checklines=False, cleanup="No")
    minimal = True
    runs: list[Block] = []
    i = j = 0
    for op, n in ops:
        if op == "=":
            runs.append((i, i + n, j, j + n))
            i += n
            j += n
        elif op == "-":
            i += n
        else:
            j += n
    return runs, minimal


def _matches_from_blocks(blocks: list[Block], n: int) -> list[Block]:
    """Turn change blocks into the equal runs between them."""
    runs: list[Block] = []
    i = j = 0
    for a0, a1, b0, b1 in blocks:
        if a0 > i:
            runs.append((i, a0, j, b0))
        i, j = a1, b1
    if i < n:
        runs.append((i, n, j, j + (n - i)))
    return runs


def _blocks_from_matches(
    runs: list[Block], keep_a: list[int], keep_b: list[int], n: int, m: int
) -> list[Block]:
    """Map equal runs of the reduced sequences back to change blocks of the full ones."""
    blocks: list[Block] = []
    pa = pb = 0  # next unmatched line on each side, in full coordinates
    for i0, i1, j0, j1 in runs:
        length = i1 - i0
        if keep_a[i1 - 1] - keep_a[i0] == length - 1 and keep_b[j1 - 1] - keep_b[j0] == length - 1:
            pairs = [(keep_a[i0], keep_b[j0], length)]
        else:
            pairs = [(keep_a[i0 + t], keep_b[j0 + t], 1) for t in range(length)]
        for x, y, run in pairs:
            if x > pa or y > pb:
                blocks.append((pa, x, pb, y))
            pa, pb = x + run, y + run
    if pa < n or pb < m:
        blocks.append((pa, n, pb, m))
    return blocks
