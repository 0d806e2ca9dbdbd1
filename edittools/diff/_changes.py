"""Change blocks located in both texts by line number and byte offset."""

from __future__ import annotations

from itertools import repeat
from operator import add
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
    if not blocks:
        return []
    pa, ea, pb, eb = bounds
    k = len(blocks)
    a0s, a1s, b0s, b1s = zip(*blocks, strict=True)
    # Both ends of every block, in ascending order, for one offset lookup per side.
    ends: list[int] = [0] * (2 * k)
    ends[0::2], ends[1::2] = a0s, a1s
    offs_a = key_offsets(a_keys, pa, ea, ends)
    ends[0::2], ends[1::2] = b0s, b1s
    offs_b = key_offsets(b_keys, pb, eb, ends)
    rows = zip(
        map(add, a0s, repeat(line_a)),
        map(add, a1s, repeat(line_a)),
        map(add, b0s, repeat(line_b)),
        map(add, b1s, repeat(line_b)),
        offs_a[0::2],
        offs_a[1::2],
        offs_b[0::2],
        offs_b[1::2],
        strict=True,
    )
    # tuple.__new__ through map builds the named tuples without a Python call per change.
    return list(map(tuple.__new__, repeat(Change), rows))
