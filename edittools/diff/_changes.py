"""Change blocks located in both texts by line number and byte offset."""

from __future__ import annotations

from itertools import repeat
from typing import NamedTuple

from edittools.diff._lines import key_offsets


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
    offs_a = key_offsets(a_keys, pa, ea, [x for block in blocks for x in block[:2]])
    offs_b = key_offsets(b_keys, pb, eb, [y for block in blocks for y in block[2:]])
    rows = zip(
        [line_a + block[0] for block in blocks],
        [line_a + block[1] for block in blocks],
        [line_b + block[2] for block in blocks],
        [line_b + block[3] for block in blocks],
        offs_a[0::2],
        offs_a[1::2],
        offs_b[0::2],
        offs_b[1::2],
        strict=True,
    )
    # tuple.__new__ through map builds the named tuples without a Python call per change.
    return list(map(tuple.__new__, repeat(Change), rows))
