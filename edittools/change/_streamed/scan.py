"""One streamed pass over a file too large for memory: find a byte string, hash old and new.

The file is read in bounded chunks into a ring of three buffers; each buffer starts with the last
`len(needle) - 1` bytes of the one before, so a match that straddles two chunks is found. Every
match is counted, overlapping ones too (no edit can replace two that overlap). On the same pass
the content is hashed (its version, for the compare-and-swap) and so is the content the edit
will write — the old bytes with each match replaced — so the new file's digest is known before
it exists and it is never read back. The two hashes run on a worker thread (BLAKE3 releases the
interpreter lock) and share their state up to the first change, so the common prefix is hashed
once. With a `SpliceWriter` the pass also tells it, chunk by chunk, what the new content keeps
and replaces, so the kernel writes the new file on another thread while the pass reads on.

Lines are counted only as far as they are needed: up to each match of a `replace_all`, up to the
first match otherwise (the lines of further matches, which only an ambiguity error shows, are
counted afterwards from there).
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from edittools import _bytesearch
from edittools._options import SCAN_CHUNK
from sandbox import Digester, SpliceWriter, Version

__all__ = ["FIND_KEPT", "Scan", "find_lines", "hash_counting", "scan"]

_KEPT = 50
_RING = 3
_NL = ord("\n")


@dataclass
class Scan:
    """What a pass found: matches (byte offsets and 1-based lines), the file's version, and the
    digest of the file with the matches replaced (None when that content is not wanted: more
    than one match without `replace_all`, or matches that overlap)."""

    starts: list[int] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    count: int = 0
    version: Version | None = None
    new_digest: str | None = None
    size: int = 0
    overlapping: bool = False


def scan(
    fd: int,
    needle: bytes,
    replacement: bytes,
    *,
    replace_all: bool,
    chunk: int = SCAN_CHUNK,
    writer: SpliceWriter | None = None,
    checkpoint: Callable[[int], object] | None = None,
) -> Scan:
    """Scan the open file `fd` from its start for `needle` (not empty).

    Without `replace_all` only the first few matches are kept (enough to list where an ambiguous
    needle is), but all are counted. `writer`, when given, is told the new content as it is found
    (and told to drop it when the needle turns out ambiguous). `checkpoint`, when given, is
    called with the offset reached before each chunk and may raise to stop the pass (a
    cancelled call).
    """
    with ThreadPoolExecutor(1) as pool:
        hashes = _Hashes(pool)
        run = _Pass(fd, needle, replacement, replace_all, max(chunk, 1), hashes, writer, checkpoint)
        run.run()
        old_hex, new_hex = hashes.hexdigests()
    found = run.found
    st = os.fstat(fd)
    found.version = Version(old_hex, found.size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns,
                            time.time_ns())  # fmt: skip
    if run.keep_new and found.count:
        found.new_digest = new_hex if new_hex is not None else old_hex
    if 0 in found.lines:
        _fill_lines(fd, found.starts, found.lines, run.counted_to, run.newlines, max(chunk, 1))
    return found


class _Hashes:
    """The digests of the old content and of the new one (the old with spans replaced), fed in
    file order on a worker thread.

    Until the first change the new content is the old one: the old digest's state is copied
    there (`fork`), so the common prefix is hashed once. `change` and `settle` take the file's
    bytes as a view of a buffer that holds the file from offset `origin`; each digest remembers
    how far it has been fed (`old_to`, `new_to`: offsets in the old file).
    """

    def __init__(self, pool: ThreadPoolExecutor) -> None:
        self._pool = pool
        self._old = Digester()
        self._new: Digester | None = None
        self._forked = False
        self.old_to = self.new_to = 0
        self.last: Future[None] | None = None

    def change(self, view: memoryview, origin: int, start: int, stop: int, data: bytes) -> None:
        """The new content holds `data` in place of the old bytes ``[start, stop)``."""
        if not self._forked:
            self._old_bytes(view[self.old_to - origin : start - origin])
            self.old_to = start
            self.last = self._pool.submit(self._fork)
            self._forked = True
        elif self.new_to < start:
            self._new_bytes(view[self.new_to - origin : start - origin])
        self._new_bytes(data)
        self.new_to = max(self.new_to, stop)

    def settle(self, view: memoryview, origin: int, settled: int, *, new: bool = True) -> None:
        """Everything before `settled` is decided: feed the old bytes up to it, and (with `new`)
        the new content's kept bytes too."""
        self._old_bytes(view[self.old_to - origin : settled - origin])
        self.old_to = settled
        if new and self._forked and settled > self.new_to:
            self._new_bytes(view[self.new_to - origin : settled - origin])
            self.new_to = settled

    def _old_bytes(self, data: memoryview) -> None:
        if len(data):
            self.last = self._pool.submit(self._old.update, data)

    def _fork(self) -> None:
        self._new = self._old.copy()

    def _new_bytes(self, data: bytes | memoryview) -> None:
        if len(data):
            self.last = self._pool.submit(self._feed_new, data)

    def _feed_new(self, data: bytes | memoryview) -> None:
        assert self._new is not None
        self._new.update(data)

    def hexdigests(self) -> tuple[str, str | None]:
        """The old digest, and the new one (None when nothing was changed: it is the old)."""
        if self.last is not None:
            self.last.result()
        return self._old.hexdigest(), None if self._new is None else self._new.hexdigest()


class _Ring:
    """The read buffers of a pass, taken in turn; a buffer is handed out again only once the
    worker is done with the bytes it was given from it."""

    def __init__(self, size: int) -> None:
        self.bufs = [bytearray(size) for _ in range(_RING)]
        self.views = [memoryview(b) for b in self.bufs]
        self._busy: list[Future[None] | None] = [None] * _RING

    def take(self, n: int) -> tuple[bytearray, memoryview]:
        """The `n`-th buffer of the pass (the ring's slot `n`), once it is free."""
        slot = n % _RING
        if (job := self._busy[slot]) is not None:
            job.result()
        return self.bufs[slot], self.views[slot]

    def lend(self, n: int, job: Future[None] | None) -> None:
        """The `n`-th buffer is in use until `job` (the last hash fed from it) is done."""
        self._busy[n % _RING] = job


class _Pass:
    """The state of one pass; offsets named `*_to`/`*_from`/`settled` are offsets in the file."""

    def __init__(self, fd: int, needle: bytes, replacement: bytes, replace_all: bool, chunk: int,
                 hashes: _Hashes, writer: SpliceWriter | None,
                 checkpoint: Callable[[int], object] | None = None) -> None:  # fmt: skip
        self.fd, self.needle, self.replacement = fd, needle, replacement
        self.replace_all, self.chunk, self.hashes, self.writer = replace_all, chunk, hashes, writer
        self.found = Scan()
        self.keep_new = True
        self.counting = True
        self.counted_to = self.newlines = 0  # newlines in the file before `counted_to`
        self.next_ok = 0  # where the last match ends: one starting before it overlaps it
        self.checkpoint = checkpoint

    def run(self) -> None:
        tail = len(self.needle) - 1
        ring = _Ring(self.chunk + tail)
        base = 0  # file offset of the next read
        prev_end = 0
        k = 0
        while True:
            if self.checkpoint is not None:
                self.checkpoint(base)
            buf, view = ring.take(k)
            carry = min(tail, base)
            if carry:
                view[:carry] = ring.views[(k - 1) % _RING][prev_end - carry : prev_end]
            got = _read_full(self.fd, view[carry : carry + self.chunk], base)
            at_end = got < self.chunk
            end = carry + got  # the buffer holds the file's [origin, origin + end)
            origin = base - carry
            self._matches(buf, view, origin, end)
            settled = origin + end if at_end else max(origin + end - tail, self.next_ok)
            self._settle(buf, view, origin, settled)
            ring.lend(k, self.hashes.last)
            prev_end, base = end, origin + end
            k += 1
            if at_end:
                self.found.size = base
                return

    def _matches(self, buf: bytearray, view: memoryview, origin: int, end: int) -> None:
        found, needle = self.found, self.needle
        # A match starting in the carried bytes ends past the last buffer: it is a new one.
        pos = 0
        while (i := _bytesearch.find(buf, needle, pos, end)) >= 0:
            found.count += 1
            start = origin + i
            stop = start + len(needle)
            overlaps = start < self.next_ok
            found.overlapping = found.overlapping or overlaps
            line = 0  # not counted (yet)
            if self.counting:
                if start < self.counted_to:  # counted past already, up to the last match's end
                    self.newlines -= _bytesearch.count(buf, b"\n", i, self.counted_to - origin)
                else:
                    self.newlines += _bytesearch.count(buf, b"\n", self.counted_to - origin, i)
                self.counted_to = start
                line = self.newlines + 1
            if self.replace_all or found.count <= _KEPT:
                found.starts.append(start)
                found.lines.append(line)
            if self.keep_new and not overlaps and (self.replace_all or found.count == 1):
                self._replace(view, origin, start, stop)
                self.counting = self.replace_all  # one change: its line is all that is needed
            elif self.keep_new:
                self.keep_new = False  # ambiguous or overlapping: nothing will be written
                if self.writer is not None:
                    self.writer.drop()
            pos = i + 1
            self.next_ok = stop

    def _replace(self, view: memoryview, origin: int, start: int, stop: int) -> None:
        self.hashes.change(view, origin, start, stop, self.replacement)
        if self.writer is not None:
            self.writer.replace(start, stop, self.replacement)

    def _settle(self, buf: bytearray, view: memoryview, origin: int, settled: int) -> None:
        """Everything before `settled` is decided: count, hash and keep it."""
        if self.counting:
            self.newlines += _bytesearch.count(
                buf, b"\n", self.counted_to - origin, settled - origin
            )
            self.counted_to = settled
        self.hashes.settle(view, origin, settled, new=self.keep_new)
        if self.keep_new and self.writer is not None:
            self.writer.keep(settled)


def _read_full(fd: int, view: memoryview, offset: int) -> int:
    """Fill `view` from `fd` at `offset`; fewer bytes only at the file's end."""
    got = 0
    while got < len(view) and (n := os.preadv(fd, [view[got:]], offset + got)):
        got += n
    return got


def _fill_lines(fd: int, starts: list[int], lines: list[int], at: int, newlines: int,
                chunk: int) -> None:  # fmt: skip
    """Number the matches the pass did not count lines for, from `at` (`newlines` before it)."""
    line = newlines + 1
    for k, start in enumerate(starts):
        while at < start and (piece := os.pread(fd, min(chunk, start - at), at)):
            line += _bytesearch.count(piece, b"\n")
            at += len(piece)
        if not lines[k]:
            lines[k] = line


FIND_KEPT = 100_000
"""The most places `find_lines` keeps of one needle (a needle found more often is ambiguous)."""


def find_lines(
    fd: int,
    needles: Sequence[bytes],
    *,
    chunk: int = SCAN_CHUNK,
    anywhere: bool = False,
    checkpoint: Callable[[int], object] | None = None,
) -> list[list[tuple[int, int]]]:
    """Where each needle (not empty) occurs at the start of a line of the open file `fd` (or
    anywhere, with `anywhere`), as ``(offset, 1-based line)`` in file order (overlapping places
    too) — all needles in one pass.

    Each chunk is searched with the last `max(len(needle))` bytes before it, so a place across
    a border is found and the byte before it (a newline, or none at the file's start) is seen.
    `checkpoint`, when given, is called with the offset reached before each chunk and may raise
    to stop the pass.
    """
    found: list[list[tuple[int, int]]] = [[] for _ in needles]
    tail = max(map(len, needles))
    nexts = [0] * len(needles)  # for each needle, the first offset not yet searched
    buf = bytearray(chunk + tail)
    view = memoryview(buf)
    carry = 0  # bytes kept from the last read at the buffer's start
    base = newlines = 0  # the offset of the next read; the newlines before it
    while True:
        if checkpoint is not None:
            checkpoint(base)
        got = _read_full(fd, view[carry : carry + chunk], base)
        end = carry + got  # the buffer holds the file's [origin, origin + end)
        origin = base - carry
        hits = []
        for k, needle in enumerate(needles):
            pos = max(nexts[k] - origin, 0)
            while (i := _bytesearch.find(buf, needle, pos, end)) >= 0:
                if anywhere or (i > 0 and buf[i - 1] == _NL) or (i == 0 and origin == 0):
                    hits.append((i, k))
                pos = i + 1
            nexts[k] = origin + max(end - len(needle) + 1, 0)
        hits.sort()
        line, at = newlines - _bytesearch.count(buf, b"\n", 0, carry) + 1, 0
        for i, k in hits:
            line += _bytesearch.count(buf, b"\n", at, i)
            at = i
            if len(found[k]) < FIND_KEPT:
                found[k].append((origin + i, line))
        if not got:
            return found
        newlines += _bytesearch.count(buf, b"\n", carry, end)
        carry = min(tail, end)
        view[:carry] = view[end - carry : end]
        base += got


def hash_counting(
    fd: int,
    spans: Sequence[tuple[int, int, bytes]],
    *,
    chunk: int = SCAN_CHUNK,
    checkpoint: Callable[[int], object] | None = None,
) -> tuple[Version, list[int], str]:
    """The version of the open file `fd`, the 1-based line holding the start of each span, and
    the digest of the file with each span ``(start, end, data)`` (in order, not overlapping)
    replaced by its data — all in one pass over the file (the second digest costs CPU, not
    another read). The digests run on a worker thread as the pass reads on, and share their
    state up to the first span (see `_Hashes`). `checkpoint` is as in `find_lines`."""
    lines: list[int] = []
    at = newlines = 0
    k = 0  # the next span not yet told to the digests
    ring = _Ring(max(chunk, 1))
    with ThreadPoolExecutor(1) as pool:
        hashes = _Hashes(pool)
        for n in itertools.count():
            if checkpoint is not None:
                checkpoint(at)
            buf, view = ring.take(n)
            got = _read_full(fd, view, at)
            if not got:
                break
            stop = at + got
            for start, _, _ in spans[len(lines) :]:
                if start >= stop:
                    break
                lines.append(newlines + _bytesearch.count(buf, b"\n", 0, start - at) + 1)
            if len(lines) < len(spans):  # lines are counted only as far as a span needs them
                newlines += _bytesearch.count(buf, b"\n", 0, got)
            while k < len(spans) and spans[k][0] < stop:
                hashes.change(view, at, *spans[k])
                k += 1
            hashes.settle(view, at, stop)
            ring.lend(n, hashes.last)
            at = stop
        for span in spans[k:]:  # spans at the very end
            hashes.change(memoryview(b""), at, *span)
        old_hex, new_hex = hashes.hexdigests()
    lines += [newlines + 1] * (len(spans) - len(lines))  # spans at the very end
    st = os.fstat(fd)
    version = Version(old_hex, at, st.st_mtime_ns, st.st_ino, st.st_ctime_ns, time.time_ns())
    return version, lines, old_hex if new_hex is None else new_hex
