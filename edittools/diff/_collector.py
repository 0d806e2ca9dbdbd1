"""Pausing Python's cycle collector while a diff builds its many short-lived containers.

A dense diff creates tens of thousands of tuples and lists (change blocks, edit ops, hunk
pieces), and every 700 of them the collector runs; the survivors move on to older generations
and trigger full scans of the whole heap. The engine makes no reference cycles, so those scans
free nothing: on a 100k-line rewrite they cost about a tenth of the diff's time. Reference
counting still frees everything as usual while the collector waits.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Disable the cycle collector for the block, and enable it again after if it was on.

    The switch is process-wide; a collector that was already off is left off.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
