"""One streamed pass over a file too large for memory: find a byte string, hash old and new.

The file is read in bounded chunks; a match that straddles two chunks is found because the last
`len(needle) - 1` bytes of each chunk are carried into the next. Matches are taken left to right
without overlapping (as `bytes.replace` does). On the same pass the content is hashed (its version,
for the compare-and-swap) and so is the content the edit will write — the old bytes with each
match replaced — so the new file's digest is known before it exists and it is never read back.
Lines are counted on the way, so every match comes with its true line number.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from sandbox import Digester, Version

__all__ = ["SCAN_CHUNK", "Scan", "hash_counting", "scan"]

SCAN_CHUNK = 8 << 20
"""Bytes read at a time (with the carried tail, the most one pass holds)."""


@dataclass
class Scan:
    """What a pass found: matches (byte offsets and 1-based lines), the file's version, and the
    digest of the file with the matches replaced (None when that content is not wanted: more
    than one match without `replace_all`)."""

    starts: list[int] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    count: int = 0
    version: Version | None = None
    new_digest: str | None = None
    size: int = 0


def scan(
    fd: int, needle: bytes, replacement: bytes, *, replace_all: bool, chunk: int = SCAN_CHUNK
) -> Scan:
    """Scan the open file `fd` from its start for `needle` (not empty).

    Without `replace_all` only the first few matches are kept (enough to list where an ambiguous
    needle is), but all are counted.
    """
    found = Scan()
    old, new = Digester(), Digester()
    # The hashes (which release the interpreter lock) run on a worker, in order, while this
    # thread searches and counts the next chunk; at most two chunks are in flight.
    with ThreadPoolExecutor(1) as pool:
        _scan_chunks(fd, needle, replacement, replace_all, chunk, found, old, new, pool)
    st = os.fstat(fd)
    size = found.size
    found.version = Version(old.hexdigest(), size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns,
                            time.time_ns())  # fmt: skip
    if found.new_digest is not None:
        found.new_digest = new.hexdigest()
    return found


def _scan_chunks(
    fd: int,
    needle: bytes,
    replacement: bytes,
    replace_all: bool,
    chunk: int,
    found: Scan,
    old: Digester,
    new: Digester,
    pool: ThreadPoolExecutor,
) -> None:
    keep_new = True
    pending: list[Future[None]] = []
    carry = b""
    base = fed = newlines = next_ok = 0  # file offsets of `buf[0]`, of what `new` has taken
    size = 0
    while True:
        piece = os.pread(fd, chunk, base + len(carry))
        size = base + len(carry) + len(piece)
        buf = carry + piece if carry else piece
        view = memoryview(buf)
        at_end = not piece
        for job in pending:
            job.result()
        pending = [pool.submit(old.update, view[len(carry) :])]
        pos = max(next_ok - base, 0)
        counted_to = 0
        line = newlines + 1
        while (i := buf.find(needle, pos)) >= 0:
            found.count += 1
            line += buf.count(b"\n", counted_to, i)
            counted_to = i
            if replace_all or found.count <= _KEPT:
                found.starts.append(base + i)
                found.lines.append(line)
            if keep_new and (replace_all or found.count == 1):
                pending.append(pool.submit(new.update, view[fed - base : i]))
                pending.append(pool.submit(new.update, replacement))
                fed = base + i + len(needle)
            else:
                keep_new = False
            pos = i + len(needle)
            next_ok = base + pos
        cut = len(buf) if at_end else min(len(buf), max(len(buf) - len(needle) + 1, next_ok - base))
        if keep_new and base + cut > fed:
            pending.append(pool.submit(new.update, view[fed - base : cut]))
            fed = base + cut
        newlines += buf.count(b"\n", 0, cut)
        carry = buf[cut:]
        base += cut
        if at_end:
            break
    for job in pending:
        job.result()
    found.size = size
    if keep_new and found.count:
        found.new_digest = ""  # filled in by the caller from `new`


_KEPT = 50


def hash_counting(
    fd: int, upto: int, *, chunk: int = SCAN_CHUNK, replace: tuple[int, int, bytes] | None = None
) -> tuple[Version, int, str | None]:
    """The version of the open file `fd`, the 1-based line holding offset `upto`, and, when
    `replace` is `(start, end, data)`, the digest of the file with `[start, end)` replaced by
    `data` — all in one pass over the file (the second digest costs CPU, not another read)."""
    digest = Digester()
    replaced = None if replace is None else Digester()
    inserted = False
    at = newlines = 0
    while piece := os.pread(fd, chunk, at):
        digest.update(piece)
        if at < upto:
            newlines += piece.count(b"\n", 0, upto - at)
        if replace is not None and replaced is not None:
            inserted = _feed_replaced(replaced, memoryview(piece), at, replace, inserted)
        at += len(piece)
    if replace is not None and replaced is not None and not inserted:
        replaced.update(replace[2])
    st = os.fstat(fd)
    version = Version(digest.hexdigest(), at, st.st_mtime_ns, st.st_ino, st.st_ctime_ns,
                      time.time_ns())  # fmt: skip
    return version, newlines + 1, None if replaced is None else replaced.hexdigest()


def _feed_replaced(
    digest: Digester, piece: memoryview, at: int, replace: tuple[int, int, bytes], inserted: bool
) -> bool:
    """Feed `digest` the part of `piece` (at offset `at`) that the replaced content keeps, with
    the replacement in its place; return whether the replacement has been fed."""
    start, end, data = replace
    stop = at + len(piece)
    if at < start:
        digest.update(piece[: min(stop, start) - at])
    if not inserted and stop >= start:
        digest.update(data)
        inserted = True
    if stop > end:
        digest.update(piece[max(at, end) - at :])
    return inserted
