"""Exact Myers diff (linear-space middle-snake recursion) over sequences of line ids, in Python.

This is the reference engine: the fast paths must agree with its counts. It returns change blocks
``(a0, a1, b0, b1)``: lines ``a[a0:a1]`` are replaced by ``b[b0:b1]``; everything between blocks is
equal. It also serves the rare input with more distinct lines than the C++ path can encode.
"""

from __future__ import annotations

from collections.abc import Sequence

Block = tuple[int, int, int, int]


def diff_ids(a: Sequence[int], b: Sequence[int]) -> list[Block]:
    """Return the change blocks of a shortest edit script turning `a` into `b`."""
    edits: list[Block] = []
    _diff(a, 0, len(a), b, 0, len(b), edits)
    return merge_blocks(edits)


def merge_blocks(edits: list[Block]) -> list[Block]:
    """Join adjacent single edits into maximal change blocks, in order."""
    merged: list[Block] = []
    for a0, a1, b0, b1 in sorted(edits):
        if a0 == a1 and b0 == b1:
            continue
        if merged and merged[-1][1] == a0 and merged[-1][3] == b0:
            p = merged[-1]
            merged[-1] = (p[0], a1, p[2], b1)
        else:
            merged.append((a0, a1, b0, b1))
    return merged


def _diff(
    a: Sequence[int],
    alo: int,
    ahi: int,
    b: Sequence[int],
    blo: int,
    bhi: int,
    out: list[Block],
) -> None:
    # Strip the common prefix and suffix so every recursive call makes progress.
    while alo < ahi and blo < bhi and a[alo] == b[blo]:
        alo += 1
        blo += 1
    while alo < ahi and blo < bhi and a[ahi - 1] == b[bhi - 1]:
        ahi -= 1
        bhi -= 1
    if alo == ahi or blo == bhi:
        out.append((alo, ahi, blo, bhi))
        return
    xs, ys, xe, ye = _middle_snake(a, alo, ahi, b, blo, bhi)
    _diff(a, alo, alo + xs, b, blo, blo + ys, out)
    _diff(a, alo + xe, ahi, b, blo + ye, bhi, out)


def _middle_snake(
    a: Sequence[int],
    alo: int,
    ahi: int,
    b: Sequence[int],
    blo: int,
    bhi: int,
) -> tuple[int, int, int, int]:
    """Find the middle snake of an optimal path; coordinates relative to (alo, blo)."""
    n = ahi - alo
    m = bhi - blo
    delta = n - m
    odd = delta & 1
    maxd = (n + m + 1) // 2
    off = maxd + 1
    vf = [0] * (2 * off + 1)
    vb = [0] * (2 * off + 1)
    for d in range(maxd + 1):
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and vf[off + k - 1] < vf[off + k + 1]):
                x = vf[off + k + 1]
            else:
                x = vf[off + k - 1] + 1
            y = x - k
            x0, y0 = x, y
            while x < n and y < m and a[alo + x] == b[blo + y]:
                x += 1
                y += 1
            vf[off + k] = x
            if odd and delta - (d - 1) <= k <= delta + (d - 1) and x + vb[off + delta - k] >= n:
                return x0, y0, x, y
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and vb[off + k - 1] < vb[off + k + 1]):
                x = vb[off + k + 1]
            else:
                x = vb[off + k - 1] + 1
            y = x - k
            x0, y0 = x, y
            while x < n and y < m and a[ahi - 1 - x] == b[bhi - 1 - y]:
                x += 1
                y += 1
            vb[off + k] = x
            if not odd and -d <= delta - k <= d and x + vf[off + delta - k] >= n:
                return n - x, m - y, n - x0, m - y0
    raise AssertionError("middle snake not found")  # pragma: no cover
