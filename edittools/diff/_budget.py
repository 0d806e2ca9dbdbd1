"""One time budget for all the diffs of a call: `shared_budget`.

A call that diffs many files (a patch of thousands, a review since a checkpoint) would otherwise
give each diff the whole budget. Within `shared_budget(seconds)`, the time spent inside diffs is
added up and each diff gets what is left (or its own budget, when smaller): once it is spent, the
large diffs that follow are coarse at once (`minimal` False) and small ones cost their one exact
piece. Time the call spends outside diffs (reading, matching, writing) is not counted.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["charged", "shared_budget"]

_LEFT: ContextVar[list[float] | None] = ContextVar("edittools_diff_budget", default=None)


@contextmanager
def shared_budget(seconds: float) -> Iterator[None]:
    """Within the block, the diffs together get `seconds` (a nested block shares the outer one)."""
    if _LEFT.get() is not None:
        yield
        return
    token = _LEFT.set([seconds])
    try:
        yield
    finally:
        _LEFT.reset(token)


@contextmanager
def charged(budget: float | None) -> Iterator[float | None]:
    """Run one diff: yields its budget, capped by what is left of the shared one (None: no
    limit), and charges the shared budget with the time the block took."""
    left = _LEFT.get()
    if left is None:
        yield budget
        return
    start = time.monotonic()
    try:
        yield left[0] if budget is None else min(budget, left[0])
    finally:
        left[0] = max(0.0, left[0] - (time.monotonic() - start))
