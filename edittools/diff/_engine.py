"""The line diff of two byte strings: changes with line numbers and byte offsets.

Common leading and trailing lines are skipped at memcmp speed (stripping them never changes the
minimum); the lines in between are diffed exactly over interned ids.
"""

from __future__ import annotations

from edittools.diff._exact import diff_lines
from edittools.diff._hunks import Change
from edittools.diff._lines import NL, split_lines
from edittools.diff._scan import common_prefix, common_suffix


def trim_common(a: bytes, b: bytes) -> tuple[int, int, int, int]:
    """Byte bounds ``(pa, ea, pb, eb)`` of the middle left after whole common lines at both ends.

    ``a[:pa] == b[:pb]`` (so ``pa == pb``) and ``a[ea:] == b[eb:]``; every bound is a line start
    (or the end of the data).
    """
    ma = memoryview(b)
    n, m = len(a), len(b)
    p = common_prefix(a, b, ma, 0, 0, min(n, m))
    if p == n == m:
        return n, n, m, m
    pa = a.rfind(NL, 0, p) + 1
    limit = min(n - pa, m - pa)
    s = common_suffix(a, b, ma, n, m, limit)
    x, y = n - s, m - s
    if s and (x == pa or a[x - 1] == 10) and (y == pa or b[y - 1] == 10):
        q = s
    else:
        f = a.find(NL, x, n)
        q = 0 if f < 0 else n - f - 1
    return pa, n - q, pa, m - q


def line_changes(
    old: bytes, new: bytes, *, deadline: float | None = None
) -> tuple[list[Change], bool]:
    """Return the changes turning `old` into `new` and whether they are minimal."""
    pa, ea, pb, eb = trim_common(old, new)
    if pa == ea and pb == eb:
        return [], True
    first = old.count(NL, 0, pa)
    return region_changes(old, new, pa, ea, pb, eb, first, first, deadline)


def region_changes(
    old: bytes,
    new: bytes,
    pa: int,
    ea: int,
    pb: int,
    eb: int,
    line_a: int,
    line_b: int,
    deadline: float | None = None,
) -> tuple[list[Change], bool]:
    """Diff whole lines ``old[pa:ea]`` against ``new[pb:eb]``; the regions start at the given lines."""
    a_lines = split_lines(old, pa, ea)
    b_lines = split_lines(new, pb, eb)
    blocks, minimal = diff_lines(a_lines, b_lines, deadline=deadline)
    return _with_offsets(blocks, a_lines, b_lines, pa, pb, line_a, line_b), minimal


def _with_offsets(
    blocks: list[tuple[int, int, int, int]],
    a_lines: list[bytes],
    b_lines: list[bytes],
    pa: int,
    pb: int,
    line_a: int,
    line_b: int,
) -> list[Change]:
    changes: list[Change] = []
    ia = ib = 0  # line cursor in each list
    oa, ob = pa, pb  # byte offset of that line
    for a0, a1, b0, b1 in blocks:
        oa += sum(map(len, a_lines[ia:a0]))
        ob += sum(map(len, b_lines[ib:b0]))
        oa1 = oa + sum(map(len, a_lines[a0:a1]))
        ob1 = ob + sum(map(len, b_lines[b0:b1]))
        changes.append(Change(line_a + a0, line_a + a1, line_b + b0, line_b + b1, oa, oa1, ob, ob1))
        ia, ib, oa, ob = a1, b1, oa1, ob1
    return changes
