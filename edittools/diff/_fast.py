"""Windowed scanner: diff large texts touching only the lines around each difference.

From an aligned pair of line starts the scanner skips the identical stretch at memcmp speed
(`common_prefix`) and counts its newlines for line numbers; at the first difference it diffs a
window of lines on each side exactly (`diff_keys`). The changes up to the first run of `CONFIRM`
equal lines are committed and skipping resumes on that run; when no such run shows, the window
grows fourfold, and past `DENSE` bytes, or once it covers half the rest of the region on both
sides, the rest is diffed in one exact piece.
Before each larger window, the exact diff's time is predicted from the density of changes in the
last one, by bytes and again, once its lines are split, by the lines both sides share (the exact
diff's problem: a window of shuffled lines shares few, the whole rest all); if it would overrun
the budget, the rest gets `coarse_changes` instead and the result is flagged not minimal. Each window's diff is exact; committing at a long equal run is the "identical
stretches" speed-up, checked against the exact Myers diff and GNU ``diff --minimal`` in the tests.
`scan_changes` gives the changes; `scan_counts` runs the same scan for the line counts alone.
"""

from __future__ import annotations

import time

from edittools.diff._changes import Change, to_changes
from edittools.diff._exact import SECONDS_PER_D2, diff_keys, shared_lines
from edittools.diff._lines import NL, forward_bytes, split_keys
from edittools.diff._mapped import comparable
from edittools.diff._scan import common_prefix

WINDOW = 4096
"""Bytes in the first window at a difference (about a hundred lines of code)."""
CONFIRM = 32
"""Equal lines that must follow a change before the scanner commits it."""
DENSE = 1 << 20
"""Window size in bytes past which the rest is diffed in one piece."""
CHUNK = 32 * 1024
"""Bytes per chunk of the coarse diff (see `CHUNK_LINES`)."""
CHUNK_LINES = 1024
"""Most lines per coarse chunk, which bounds the cost of each chunk's exact diff."""
COARSE_RUN = 3
"""Equal lines at which the coarse diff cuts a chunk. 3 cuts nearer the end of a dense chunk than
4 (fewer lines are diffed twice) and gave the same or smaller counts on the test corpora."""
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
    changes: list[Change] = []
    minimal, _, _ = _scan(old, new, (pa, ea, pb, eb), line0, deadline, window, dense, changes)
    return changes, minimal


def scan_counts(
    old: bytes,
    new: bytes,
    pa: int,
    ea: int,
    pb: int,
    eb: int,
    deadline: float | None,
    *,
    window: int = WINDOW,
    dense: int = DENSE,
) -> tuple[int, int, bool]:
    """The added and removed lines of `scan_changes`'s diff, and whether it is minimal.

    The same windows, diffs and commits, without locating the changes: no line numbers (no
    newlines counted over the skipped stretches), no byte offsets but where skipping resumes.
    """
    minimal, added, removed = _scan(old, new, (pa, ea, pb, eb), 0, deadline, window, dense, None)
    return added, removed, minimal


def _scan(
    old: bytes,
    new: bytes,
    bounds: tuple[int, int, int, int],
    line0: int,
    deadline: float | None,
    window: int,
    dense: int,
    changes: list[Change] | None,
) -> tuple[bool, int, int]:
    """The scanner. Changes are appended to `changes`; None counts them instead: returns
    whether the diff is minimal, and the added and removed lines when counting."""
    pa, ea, pb, eb = bounds
    mb = comparable(new)
    added = removed = 0
    i, j, li, lj = pa, pb, line0, line0
    while True:
        p = common_prefix(old, new, mb, i, j, min(ea - i, eb - j))
        if i + p == ea and j + p == eb:
            return True, added, removed
        k = max(old.rfind(NL, i, i + p) + 1, i)
        if changes is not None:
            skipped = old.count(NL, i, k)
            li += skipped
            lj += skipped
        j += k - i
        i = k
        size, distance, span, shared_last = window, 0, 0, 0
        last: _Window | None = None
        while True:
            wa = ea if size >= dense else forward_bytes(old, i, size, ea)
            wb = eb if size >= dense else forward_bytes(new, j, size, eb)
            if (wa - i) * 2 >= ea - i and (wb - j) * 2 >= eb - j:
                # A window over half the rest on both sides would be followed by the whole
                # rest if it found no run to commit at: diff the rest at once, not both.
                wa, wb = ea, eb
            whole = wa == ea and wb == eb
            if span and deadline is not None:
                # Predict this window's exact diff from the density of changes in the last
                # one, and go coarse for all the rest if it would overrun the budget.
                now = (wa - i) + (wb - j)
                predicted = SECONDS_PER_D2 * (distance * now / span) ** 2 + SECONDS_PER_BYTE * now
                if time.monotonic() + predicted > deadline:
                    return _coarse_rest(old, new, last, (i, ea, j, eb), (li, lj), changes,
                                        (added, removed))  # fmt: skip
            ka = split_keys(old, i, wa)
            kb = split_keys(new, j, wb)
            shared = shared_lines(ka, kb) if deadline is not None else 0
            if span and deadline is not None:
                # A window without a shared line tells nothing of the density: assume the worst.
                density = distance / shared_last if shared_last else 1.0
                if time.monotonic() + SECONDS_PER_D2 * (density * shared) ** 2 > deadline:
                    return _coarse_rest(old, new, last, (i, ea, j, eb), (li, lj), changes,
                                        (added, removed))  # fmt: skip
            blocks, distance = diff_keys(ka, kb)
            shared_last = shared
            span = (wa - i) + (wb - j)
            cut = (
                len(blocks) - 1 if whole else _sync(blocks, len(ka), old, new, mb, (wa, ea, wb, eb))
            )
            last = (blocks, ka, kb, wa, wb)
            if cut is None:
                size *= 4
                continue
            if changes is None:
                for a0, a1, b0, b1 in blocks[: cut + 1]:
                    added += b1 - b0
                    removed += a1 - a0
                if whole:
                    return True, added, removed
                # Skipping resumes right after the last committed block, found from the
                # lengths of the keys before it: full lines, each its key and a newline (equal
                # lines follow the block, so it cannot end at a last line lacking one).
                a1, b1 = blocks[cut][1], blocks[cut][3]
                i += sum(map(len, ka[:a1])) + a1
                j += sum(map(len, kb[:b1])) + b1
                break
            committed = to_changes(blocks[: cut + 1], ka, kb, (i, wa, j, wb), li, lj)
            changes += committed
            if whole:
                return True, 0, 0
            # Skipping resumes right after the last committed change.
            end = committed[-1]
            i, j, li, lj = end.oa1, end.ob1, end.a1, end.b1
            break


_Window = tuple[list[tuple[int, int, int, int]], list[bytes], list[bytes], int, int]
"""A window's exact diff: blocks, the keys of both sides, and where the window ends on each."""


def _coarse_rest(
    old: bytes,
    new: bytes,
    last: _Window | None,
    bounds: tuple[int, int, int, int],
    lines: tuple[int, int],
    changes: list[Change] | None,
    counted: tuple[int, int],
) -> tuple[bool, int, int]:
    """`_scan`'s result when the budget cannot afford the next window: the rest of the region
    by `coarse_changes`, appended to `changes` (or added to the `counted` lines)."""
    i, ea, j, eb = bounds
    li, lj = lines
    rest: list[Change] = []
    if last is not None:
        # The last window's diff is exact: keep it as the first coarse chunk.
        blocks, ka, kb, wa, wb = last
        rest, i, j, li, lj = _commit_chunk(blocks, ka, kb, (i, wa, j, wb), (li, lj), final=False)
    rest += coarse_changes(old, new, (i, ea, j, eb), li, lj)
    if changes is not None:
        changes += rest
        return False, 0, 0
    return False, counted[0] + _added(rest), counted[1] + _removed(rest)


def _added(changes: list[Change]) -> int:
    return sum(change.b1 - change.b0 for change in changes)


def _removed(changes: list[Change]) -> int:
    return sum(change.a1 - change.a0 for change in changes)


def coarse_changes(
    old: bytes, new: bytes, bounds: tuple[int, int, int, int], li: int, lj: int
) -> list[Change]:
    """A correct, near-minimal diff in time linear in the changed part of the region.

    Identical stretches are skipped as in the scanner; from each difference, chunks of about
    `CHUNK` bytes are diffed exactly and committed up to their last run of `COARSE_RUN` equal
    lines (a chunk without one is committed whole); the next chunk starts there.
    """
    i, ea, j, eb = bounds
    mb = comparable(new)
    changes: list[Change] = []
    while True:
        p = common_prefix(old, new, mb, i, j, min(ea - i, eb - j))
        if i + p == ea and j + p == eb:
            return changes
        k = max(old.rfind(NL, i, i + p) + 1, i)
        skipped = old.count(NL, i, k)
        li += skipped
        lj += skipped
        j += k - i
        i = k
        wa, ka = _chunk(old, i, ea)
        wb, kb = _chunk(new, j, eb)
        blocks = diff_keys(ka, kb).blocks
        kept, i, j, li, lj = _commit_chunk(
            blocks, ka, kb, (i, wa, j, wb), (li, lj), final=wa == ea and wb == eb
        )
        changes += kept


def _commit_chunk(
    blocks: list[tuple[int, int, int, int]],
    ka: list[bytes],
    kb: list[bytes],
    bounds: tuple[int, int, int, int],
    lines: tuple[int, int],
    *,
    final: bool,
) -> tuple[list[Change], int, int, int, int]:
    """Commit the exact diff of one chunk up to its last run of `COARSE_RUN` equal lines.

    A chunk without such a run (or the `final` one) is committed whole. Returns the changes and
    the byte offsets and line numbers ``(i, j, li, lj)`` where the next chunk starts.
    """
    _, wa, _, wb = bounds
    li, lj = lines
    cut = len(blocks) - 1
    if not final:
        for t in range(len(blocks) - 2, -1, -1):
            if blocks[t + 1][0] - blocks[t][1] >= COARSE_RUN:
                cut = t
                break
    changes = to_changes(blocks[: cut + 1], ka, kb, bounds, li, lj)
    if cut == len(blocks) - 1:
        return changes, wa, wb, li + len(ka), lj + len(kb)
    end = changes[-1]
    return changes, end.oa1, end.ob1, end.a1, end.b1


def _chunk(data: bytes, start: int, ceiling: int) -> tuple[int, list[bytes]]:
    """The end and the keys of the coarse chunk at `start`: `CHUNK` bytes, at most `CHUNK_LINES`."""
    end = forward_bytes(data, start, CHUNK, ceiling)
    keys = split_keys(data, start, end)
    if len(keys) > CHUNK_LINES:
        del keys[CHUNK_LINES:]  # a last line without its newline is never kept here
        end = start + sum(map(len, keys)) + CHUNK_LINES
    return end, keys


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
