"""Windowed scanner: diff large texts touching only the lines around each difference.

From an aligned pair of line starts the scanner skips the identical stretch at memcmp speed
(`common_prefix`) and counts its newlines for line numbers; at the first difference it diffs a
window of lines on each side exactly (`diff_keys`). The changes up to the first run of `CONFIRM`
equal lines are committed and skipping resumes on that run; when no such run shows, the window
grows fourfold, and past `DENSE` lines the rest of the region is diffed in one exact piece (under
the budget). Each window's diff is exact; committing at a long equal run is the "identical
stretches" speed-up, checked against the exact Myers diff and GNU ``diff --minimal`` in the tests.
"""

from __future__ import annotations

import time

from edittools.diff._changes import Change, to_changes
from edittools.diff._exact import SECONDS_PER_D2, diff_keys
from edittools.diff._lines import NL, forward_bytes, key_offsets, split_keys
from edittools.diff._scan import common_prefix

WINDOW = 4096
"""Bytes in the first window at a difference (about a hundred lines of code)."""
CONFIRM = 32
"""Equal lines that must follow a change before the scanner commits it."""
DENSE = 1 << 20
"""Window size in bytes past which the rest is diffed in one piece."""
CHUNK = 64 * 1024
"""Bytes per chunk of the coarse diff."""
COARSE_RUN = 4
"""Equal lines at which the coarse diff cuts a chunk."""
SECONDS_PER_BYTE = 3e-8
"""Predicted cost per input byte of splitting and interning a dense region for the exact diff."""


def scan_changes(
    old: bytes,
    new: bytes,
    pa: int,
    ea: int,
    pb: int,
    eb: int,
    line0: int,
    deadline: float | None,
    *,
    window: int = WINDOW,
    dense: int = DENSE,
) -> tuple[list[Change], bool]:
    """Diff whole lines ``old[pa:ea]`` against ``new[pb:eb]``, both starting at line `line0`.

    `window` and `dense` are the first and the largest window sizes, in bytes.
    """
    mb = memoryview(new)
    changes: list[Change] = []
    i, j, li, lj = pa, pb, line0, line0
    while True:
        p = common_prefix(old, new, mb, i, j, min(ea - i, eb - j))
        if i + p == ea and j + p == eb:
            return changes, True
        k = max(old.rfind(NL, i, i + p) + 1, i)
        skipped = old.count(NL, i, k)
        li += skipped
        lj += skipped
        j += k - i
        i = k
        size = window
        while size < dense:
            wa = forward_bytes(old, i, size, ea)
            wb = forward_bytes(new, j, size, eb)
            ka = split_keys(old, i, wa)
            kb = split_keys(new, j, wb)
            whole = wa == ea and wb == eb
            blocks, exact, distance = diff_keys(ka, kb, deadline=deadline if whole else None)
            cut = (
                len(blocks) - 1 if whole else _sync(blocks, len(ka), old, new, mb, (wa, ea, wb, eb))
            )
            if cut is not None:
                kept = blocks[: cut + 1]
                changes += to_changes(kept, ka, kb, (i, wa, j, wb), li, lj)
                if whole:
                    return changes, exact
                x, y = kept[-1][1], kept[-1][3]
                i = key_offsets(ka, i, wa, [x])[0]
                j = key_offsets(kb, j, wb, [y])[0]
                li += x
                lj += y
                break
            size *= 4
        else:
            # Predict the exact diff of the rest from the density of the last window.
            scale = ((ea - i) + (eb - j)) / max((wa - i) + (wb - j), 1)
            predicted = SECONDS_PER_D2 * (distance * scale) ** 2
            predicted += SECONDS_PER_BYTE * ((ea - i) + (eb - j))
            rest, minimal = _dense(old, new, (i, ea, j, eb), li, lj, deadline, predicted)
            return changes + rest, minimal


def _dense(
    old: bytes,
    new: bytes,
    bounds: tuple[int, int, int, int],
    li: int,
    lj: int,
    deadline: float | None,
    predicted: float,
) -> tuple[list[Change], bool]:
    """The rest of a region where changes never stop: one exact piece, or coarse past the budget.

    The exact diff runs when there is no budget or when its `predicted` time fits in what is
    left; otherwise the coarse diff (`coarse_changes`) is returned, flagged not minimal.
    """
    if deadline is None or time.monotonic() + predicted <= deadline:
        return _exact_piece(old, new, bounds, li, lj)
    return coarse_changes(old, new, bounds, li, lj), False


def _exact_piece(
    old: bytes, new: bytes, bounds: tuple[int, int, int, int], li: int, lj: int
) -> tuple[list[Change], bool]:
    i, ea, j, eb = bounds
    ka = split_keys(old, i, ea)
    kb = split_keys(new, j, eb)
    blocks, minimal, _ = diff_keys(ka, kb)
    return to_changes(blocks, ka, kb, bounds, li, lj), minimal


def coarse_changes(
    old: bytes, new: bytes, bounds: tuple[int, int, int, int], li: int, lj: int
) -> list[Change]:
    """A correct, near-minimal diff in time linear in the region: exact chunks of `CHUNK` lines.

    Chunks of about `CHUNK` bytes are diffed exactly and committed up to their last run of
    `COARSE_RUN` equal lines (a chunk without one is committed whole); the next chunk starts there.
    """
    i, ea, j, eb = bounds
    changes: list[Change] = []
    while i < ea or j < eb:
        wa = forward_bytes(old, i, CHUNK, ea)
        wb = forward_bytes(new, j, CHUNK, eb)
        ka = split_keys(old, i, wa)
        kb = split_keys(new, j, wb)
        blocks = diff_keys(ka, kb).blocks
        cut = len(blocks) - 1
        if not (wa == ea and wb == eb):
            for t in range(len(blocks) - 2, -1, -1):
                if blocks[t + 1][0] - blocks[t][1] >= COARSE_RUN:
                    cut = t
                    break
        kept = blocks[: cut + 1]
        changes += to_changes(kept, ka, kb, (i, wa, j, wb), li, lj)
        if cut == len(blocks) - 1:
            x, y = len(ka), len(kb)
            i, j = wa, wb
        else:
            x, y = kept[-1][1], kept[-1][3]
            i = key_offsets(ka, i, wa, [x])[0]
            j = key_offsets(kb, j, wb, [y])[0]
        li += x
        lj += y
    return changes


def _sync(
    blocks: list[tuple[int, int, int, int]],
    window_lines: int,
    old: bytes,
    new: bytes,
    mb: memoryview,
    ends: tuple[int, int, int, int],
) -> int | None:
    """Index of the first block followed by at least `CONFIRM` equal lines, if any.

    The run after the last block may go on past the window; the bytes beyond are compared to
    see how far (a run that reaches the end of both regions also counts).
    """
    for t, block in enumerate(blocks):
        if t + 1 < len(blocks):
            if blocks[t + 1][0] - block[1] >= CONFIRM:
                return t
            continue
        run = window_lines - block[1]
        if run >= CONFIRM:
            return t
        wa, ea, wb, eb = ends
        q = common_prefix(old, new, mb, wa, wb, min(ea - wa, eb - wb))
        if wa + q == ea and wb + q == eb:
            return t
        if run + old.count(NL, wa, wa + q) >= CONFIRM:
            return t
    return None
