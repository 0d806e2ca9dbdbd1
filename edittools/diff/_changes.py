"""Change blocks located in both texts by line number and byte offset."""

from __future__ import annotations

from itertools import accumulate
from typing import NamedTuple


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


def to_changes(
    blocks: list[tuple[int, int, int, int]],
    a_keys: list[bytes],
    b_keys: list[bytes],
    bounds: tuple[int, int, int, int],
    line_a: int,
    line_b: int,
) -> list[Change]:
    """Attach byte offsets and absolute line numbers to blocks of a region split into keys."""
    pa, ea, pb, eb = bounds
    # sums[k] + k is where line k starts (each full line is its key and a newline); the entry
    # past the last key is set so that it gives the region's end, whose last line may lack
    # the newline (its key is then one byte longer than the line).
    sums_a = list(accumulate(map(len, a_keys), initial=pa))
    sums_b = list(accumulate(map(len, b_keys), initial=pb))
    sums_a[-1] = ea - len(a_keys)
    sums_b[-1] = eb - len(b_keys)
    new = tuple.__new__  # builds the named tuples without a Python call per change
    return [
        new(
            Change,
            (
                line_a + a0,
                line_a + a1,
                line_b + b0,
                line_b + b1,
                sums_a[a0] + a0,
                sums_a[a1] + a1,
                sums_b[b0] + b0,
                sums_b[b1] + b1,
            ),
        )
        for a0, a1, b0, b1 in blocks
    ]
