"""What a session knows of the large contents it handled lately, by content digest.

Five facts spare passes over a large file that a one-line change would otherwise pay each time:

- Newline counts at checkpoints every `STEP` bytes: the diff of a change needs the number of the
  line it starts on, and counting the newlines before it is a pass over every byte before it.
  A change that leaves the first `start` bytes as they were hands the checkpoints below `start`
  on to the new content.
- Whether a content is plain UTF-8 (`plain_utf8`), checked once per content.
- The digest states after every mebibyte of a content, handed out as its hash ran (`on_step`): a
  new content sharing the first bytes of an old one is hashed from the old one's state below
  the change (`sandbox.FileWrite.prefix`), not from the start.
- The last content the session wrote, kept as the bytes it was spliced from and the spans: a file
  read back and found equal to it, byte for byte (a memory compare, several times faster than a
  hash), has its digest without being hashed again. The comparison is the proof, so nothing here
  depends on timestamps.
- The newline counts of a decoded content (bare LF, CRLF, bare CR): a read of a file that did not
  change since its last read decodes it without counting its lines again (a pass over the text as
  long as the decoding itself, several times over).

A content is known by its digest alone, so a fact kept under a digest holds for any bytes with that
digest; callers pass digests they computed (or proved) from the very bytes they pass.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import TypeVar

from edittools import _bytesearch
from sandbox import Digester

__all__ = ["STEP", "KnownContents"]

STEP = 1 << 20
"""Bytes between newline checkpoints: the most one line lookup counts."""
_KEEP = 8  # contents whose facts are kept (the latest ones)

Span = tuple[int, int, bytes]
V = TypeVar("V")


class KnownContents:
    """Facts about recent contents, keyed by content digest (thread-safe)."""

    def __init__(self) -> None:
        # digest -> newlines in content[:k * STEP], for k = 0, 1, ... (as far as counted)
        self._marks: dict[str, list[int]] = {}
        self._plain: dict[str, None] = {}  # an ordered set of the digests of plain contents
        self._newlines: dict[str, tuple[int, int, int]] = {}
        self._states: dict[str, dict[int, Digester]] = {}
        self._written: tuple[str, str, bytes, tuple[Span, ...]] | None = None
        self._lock = threading.Lock()

    # --- line numbers ---------------------------------------------------------------------

    def line_of(self, digest: str, data: bytes, offset: int) -> int:
        """The 1-based number of the line holding `offset` in `data`, whose digest is `digest`."""
        with self._lock:
            marks = _latest(self._marks, digest, self._marks.pop(digest, [0]))
            while len(marks) <= offset // STEP and len(marks) * STEP <= len(data):
                at = (len(marks) - 1) * STEP
                marks.append(marks[-1] + _bytesearch.count(data, b"\n", at, at + STEP))
            k = min(offset // STEP, len(marks) - 1)
            return marks[k] + _bytesearch.count(data, b"\n", k * STEP, offset) + 1

    def carry(self, old_digest: str, new_digest: str, start: int) -> None:
        """Content `new_digest` holds the same first `start` bytes as `old_digest`: give it the
        checkpoints and digest states that lie within them."""
        if new_digest == old_digest:
            return
        with self._lock:
            marks = self._marks.get(old_digest)
            if marks is not None:
                self._marks.pop(new_digest, None)
                _latest(self._marks, new_digest, marks[: start // STEP + 1])
            states = self._states.get(old_digest)
            if states is not None:
                kept = {at: state for at, state in states.items() if at <= start}
                _latest(self._states, new_digest, kept | self._states.pop(new_digest, {}))

    # --- digest states --------------------------------------------------------------------

    def note_states(self, digest: str, states: Iterable[tuple[int, Digester]]) -> None:
        """Keep digest states of content `digest` (`(offset, state after offset bytes)`)."""
        with self._lock:
            known = self._states.pop(digest, {})
            known.update(states)
            _latest(self._states, digest, known)

    def state_below(self, digest: str, offset: int) -> tuple[int, Digester] | None:
        """The kept digest state of content `digest` nearest below `offset`, as a `(count,
        state)` prefix (a copy), or None."""
        with self._lock:
            states = self._states.get(digest, {})
            below = max((at for at in states if at <= offset), default=None)
            return None if below is None else (below, states[below].copy())

    # --- plain UTF-8 ----------------------------------------------------------------------

    def is_plain(self, digest: str) -> bool:
        """Whether content `digest` was found plain UTF-8 (False: unknown, or not plain)."""
        with self._lock:
            return digest in self._plain

    def note_plain(self, digest: str) -> None:
        """Content `digest` is plain UTF-8 (checked on its bytes by the caller)."""
        with self._lock:
            self._plain.pop(digest, None)
            _latest(self._plain, digest, None)

    # --- newline counts -------------------------------------------------------------------

    def newline_counts(self, digest: str) -> tuple[int, int, int] | None:
        """The newline counts of the decoded content `digest`, when known."""
        with self._lock:
            return self._newlines.get(digest)

    def note_newline_counts(self, digest: str, counts: tuple[int, int, int]) -> None:
        """Content `digest`, decoded, holds `counts` (bare LF, CRLF, bare CR)."""
        with self._lock:
            self._newlines.pop(digest, None)
            _latest(self._newlines, digest, counts)

    # --- the last write -------------------------------------------------------------------

    def note_written(self, path: str, digest: str, base: bytes, spans: Sequence[Span]) -> None:
        """`path` was written with `base` with `spans` replaced, whose digest is `digest`.

        Holds `base` until the next write: the price of not hashing the file when it is read back.
        """
        with self._lock:
            self._written = (path, digest, base, tuple(spans))

    def written_digest(self, path: str, data: bytes) -> str | None:
        """The digest of `data` when it is, byte for byte, what the session last wrote to
        `path`; None otherwise (hash it)."""
        with self._lock:
            written = self._written
        if written is None or written[0] != path:
            return None
        _, digest, base, spans = written
        if len(data) != len(base) + sum(len(new) - (stop - start) for start, stop, new in spans):
            return None
        view = memoryview(base)
        at = kept = 0  # offsets in data and in base
        for start, stop, new in spans:
            if not data.startswith(view[kept:start], at):
                return None
            at += start - kept
            if not data.startswith(new, at):
                return None
            at += len(new)
            kept = stop
        return digest if data.startswith(view[kept:], at) else None


def _latest(table: dict[str, V], digest: str, value: V) -> V:
    """Put `value` under `digest` as the latest entry, dropping the oldest beyond `_KEEP`."""
    table[digest] = value
    while len(table) > _KEEP:
        table.pop(next(iter(table)))
    return value
