"""Line numbers of offsets in large contents, from newline counts kept at checkpoints.

The diff of a change in a large file needs the number of the line it starts on, and counting the
newlines before it is a byte-at-a-time pass (about 2 GB/s): a one-line edit near the end of a
45 MB file would spend 20 ms on it, every time. The counts are kept instead, at checkpoints every
`STEP` bytes, by content digest — a content is known by its digest alone, so counts of one digest
hold for any bytes with that digest. A change that leaves a content's first `start` bytes as they
were hands the checkpoints below `start` on to the new content, so a file edited again and again
is counted only from the checkpoint below each change.
"""

from __future__ import annotations

import threading

__all__ = ["STEP", "LineCounts"]

STEP = 1 << 20
"""Bytes between checkpoints: the most one lookup counts."""
_KEEP = 8  # contents whose checkpoints are kept (the latest ones)


class LineCounts:
    """Newline counts at checkpoints of recent contents, keyed by content digest (thread-safe)."""

    def __init__(self) -> None:
        # digest -> newlines in content[:k * STEP], for k = 0, 1, ... (as far as counted)
        self._marks: dict[str, list[int]] = {}
        self._lock = threading.Lock()

    def line_of(self, digest: str, data: bytes, offset: int) -> int:
        """The 1-based number of the line holding `offset` in `data`, whose digest is `digest`."""
        with self._lock:
            marks = self._latest(digest, self._marks.pop(digest, [0]))
            while len(marks) <= offset // STEP and len(marks) * STEP <= len(data):
                at = (len(marks) - 1) * STEP
                marks.append(marks[-1] + data.count(b"\n", at, at + STEP))
            k = min(offset // STEP, len(marks) - 1)
            return marks[k] + data.count(b"\n", k * STEP, offset) + 1

    def carry(self, old_digest: str, new_digest: str, start: int) -> None:
        """Content `new_digest` holds the same first `start` bytes as `old_digest`: give it the
        checkpoints that lie within them."""
        with self._lock:
            marks = self._marks.get(old_digest)
            if marks is not None and new_digest != old_digest:
                self._marks.pop(new_digest, None)
                self._latest(new_digest, marks[: start // STEP + 1])

    def _latest(self, digest: str, marks: list[int]) -> list[int]:
        """Keep `marks` as the latest content's, dropping the oldest beyond `_KEEP`."""
        self._marks[digest] = marks
        while len(self._marks) > _KEEP:
            self._marks.pop(next(iter(self._marks)))
        return marks
