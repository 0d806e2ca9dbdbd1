"""Finding and counting byte strings in large buffers, with SIMD kernels.

CPython's `bytes.find` and `bytes.count` go a byte or a few at a time: about 3–5 GB/s on text
with repeated bytes (digits, indentation), which makes a search or a line count the largest part
of a pass over a file of gigabytes. StringZilla's kernels give the same answers (`-1` when
absent, bounds taken as slices take them, matches counted without overlap) several times faster.
Bytes, bytearrays and memoryviews are searched in place (a mapped file through a memoryview).
"""

from __future__ import annotations

import stringzilla

__all__ = ["Bytes", "count", "find"]

Bytes = bytes | bytearray | memoryview
"""What can be searched in place."""


def find(data: Bytes, needle: bytes, start: int = 0, end: int | None = None) -> int:
    """The lowest offset of `needle` in ``data[start:end]`` (as `bytes.find`), or -1."""
    if end is None:
        end = len(data)
    return int(stringzilla.find(data, needle, start, end))


def count(data: Bytes, needle: bytes, start: int = 0, end: int | None = None) -> int:
    """How many times `needle` (not empty) occurs in ``data[start:end]``, without overlaps."""
    if end is None:
        end = len(data)
    return int(stringzilla.count(data, needle, start, end))
