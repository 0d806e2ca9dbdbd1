"""Memory-mapped files seen through the slice of the ``bytes`` interface the engine uses.

The engine was written for ``bytes``: it calls ``find``, ``rfind``, ``count``, ``startswith``,
``endswith``, ``isascii``, ``in``, indexing and slicing on whole texts. A ``mmap`` has the first
two in C and slicing (which copies only the slice), but not the rest. `Mapped` supplies them over
bounded slices, so no operation ever copies more than a bounded slice at once: a file of any size
is diffed with the unchanged bulk left in the page cache, and only changed regions are split
into lines. The engine stays pure: it receives the mapping, it never opens a file.

The other side of a comparison is a memoryview of the mapping (`comparable`): a common stretch
costs one bounded copy of old's bytes, compared in place against new's pages. A view of a map
keeps it from closing, so the engine's caller ends it with `release` (`line_diff` does).
"""

from __future__ import annotations

import mmap
from typing import overload

CHUNK = 1 << 20
"""Most bytes one operation copies out of the mapping (counting, ASCII checks)."""


class Mapped:
    """A read-only view of a memory map with the ``bytes`` methods the line-diff engine calls."""

    __slots__ = ("_data", "_size", "_view")

    def __init__(self, data: mmap.mmap) -> None:
        self._data = data
        self._size = len(data)
        self._view = memoryview(data)

    def release(self) -> None:
        """End the view `comparable` gives, so the map can be closed (the `Mapped` is done)."""
        self._view.release()

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, key: int) -> int: ...
    @overload
    def __getitem__(self, key: slice) -> bytes: ...
    def __getitem__(self, key: int | slice) -> int | bytes:
        return self._data[key]

    def __eq__(self, other: object) -> bool:
        """Equal to ``bytes`` or another `Mapped` with the same content (compared by chunks)."""
        if not isinstance(other, bytes | Mapped):
            return NotImplemented
        if len(other) != self._size:
            return False
        return all(
            self._data[start : start + CHUNK] == other[start : start + CHUNK]
            for start in range(0, self._size, CHUNK)
        )

    __hash__ = None  # type: ignore[assignment]

    def __contains__(self, sub: bytes) -> bool:
        return self._data.find(sub) >= 0

    def find(self, sub: bytes, start: int = 0, end: int | None = None) -> int:
        """Lowest index of `sub` in ``[start:end]``, or -1 (in C, no copy)."""
        return self._data.find(sub, start, self._size if end is None else end)

    def rfind(self, sub: bytes, start: int = 0, end: int | None = None) -> int:
        """Highest index of `sub` in ``[start:end]``, or -1 (in C, no copy)."""
        return self._data.rfind(sub, start, self._size if end is None else end)

    def count(self, sub: bytes, start: int = 0, end: int | None = None) -> int:
        """Occurrences of a one-byte `sub` in ``[start:end]``, counted chunk by chunk.

        Only single bytes are counted (the engine counts newlines): a longer needle could
        straddle two chunks.
        """
        if len(sub) != 1:
            raise ValueError("Mapped.count counts single bytes only.")
        from edittools import _bytesearch  # SIMD: twice as fast as bytes.count on text

        end = self._size if end is None else min(end, self._size)
        total = 0
        while start < end:
            stop = min(start + CHUNK, end)
            # Counted in a copy this process owns: StringZilla is never given a mapped file.
            total += _bytesearch.count(self._data[start:stop], sub)
            start = stop
        return total

    def startswith(self, prefix: bytes | memoryview, start: int = 0) -> bool:
        """Whether the bytes at `start` are `prefix` (the engine passes bounded slices; a
        memoryview is compared in place, at memcmp speed)."""
        return self._data[start : start + len(prefix)].startswith(prefix)

    def endswith(self, suffix: bytes | memoryview, start: int = 0, end: int | None = None) -> bool:
        """Whether ``[start:end]`` ends with `suffix` (compared as `startswith` compares)."""
        end = self._size if end is None else end
        begin = end - len(suffix)
        return begin >= start and self._data[begin:end].endswith(suffix)

    def isascii(self) -> bool:
        """Whether every byte is below 0x80, checked chunk by chunk."""
        return all(
            self._data[start : start + CHUNK].isascii() for start in range(0, self._size, CHUNK)
        )

    def decode(self, encoding: str = "utf-8", errors: str = "strict") -> str:
        """The whole content decoded (a full copy: for texts that fit in memory)."""
        return self._data[:].decode(encoding, errors)


def comparable(data: bytes) -> memoryview:
    """What the engine slices to compare against `data` without copying it whole.

    A zero-copy view: of the bytes, or for a `Mapped` (typed as ``bytes`` by the engine, whose
    signatures it fits by duck typing) of its map, until `Mapped.release`.
    """
    if isinstance(data, Mapped):
        return data._view
    return memoryview(data)
