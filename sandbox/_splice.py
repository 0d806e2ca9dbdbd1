"""New content of a file given as the current file with byte spans replaced, copied by the kernel.

A file too large to hold in memory is changed without reading it into the process: the unchanged
ranges are copied from the old file into the temp file by `copy_file_range` (no copy through user
space; a reflink or server-side copy where the file system offers one), falling back to `sendfile`
and then to bounded read/write chunks. The new bytes of each span are written between them.
"""

from __future__ import annotations

import contextlib
import errno
import os
from dataclasses import dataclass

__all__ = ["KICK", "Splice", "copy_range", "start_writeback", "write_splice"]

_CHUNK = 8 << 20
# Kernel copies are asked for at most this much at a time (copy_file_range takes a size_t, but
# large requests hold the file's locks long and gain nothing).
_STEP = 1 << 30
_NO_KERNEL_COPY = (errno.EXDEV, errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.EBADF)
KICK = 32 << 20
"""Bytes written between two starts of write-back: the final sync then waits for the tail only
(a 2 GiB copy and its fsync took 0.8-1.4 s so, 1.8-2.0 s with the whole write-back at the sync)."""


@dataclass(frozen=True)
class Splice:
    """The current file with `spans` — ``(start, stop, new bytes)`` in order, not overlapping —
    replaced, as the content to write.

    `size` is the size of the file the spans were found in (a file of another size is refused as
    stale). `digest` is the new content's digest, which the caller computed without the new
    content existing (e.g. hashed while it scanned the old file), so the write never reads the
    file a second time to hash it.
    """

    spans: tuple[tuple[int, int, bytes], ...]
    size: int
    digest: str

    @property
    def new_size(self) -> int:
        """The size of the content after the splice."""
        return self.size + sum(len(new) - (stop - start) for start, stop, new in self.spans)


def write_splice(src: int, dst: int, splice: Splice) -> int:
    """Write `splice` applied to the open file `src` to `dst` (at its position); return the size.

    Write-back is started every `KICK` bytes, so the caller's sync waits for the last part only.
    """
    at = written = flushed = 0
    for start, stop, new in (*splice.spans, (splice.size, splice.size, b"")):
        while at < start:
            step = min(KICK - (written - flushed), start - at)  # > 0: kicked at KICK
            copy_range(src, dst, at, step)
            at += step
            written += step
            if written - flushed >= KICK:
                start_writeback(dst, flushed, written - flushed)
                flushed = written
        view = memoryview(new)
        while view:
            view = view[os.write(dst, view) :]
        written += len(new)
        if written - flushed >= KICK:
            start_writeback(dst, flushed, written - flushed)
            flushed = written
        at = stop
    return splice.new_size


def start_writeback(fd: int, offset: int, count: int) -> None:
    """Start writing `count` bytes of `fd` back to disk now, without waiting for them.

    So the disk writes while the copy goes on, and the final fsync waits only for the tail. Pages
    under write-back are not dropped by this advice: the new file stays cached. Only a hint: a
    file system that refuses it loses nothing but the head start.
    """
    with contextlib.suppress(OSError):
        os.posix_fadvise(fd, offset, count, os.POSIX_FADV_DONTNEED)


def copy_range(src: int, dst: int, offset: int, count: int) -> None:
    """Copy `count` bytes of `src` from `offset` to `dst` at its current position.

    Raises OSError (EIO for a source that ended early: the file shrank under the copy).
    """
    end = offset + count
    mode = 0
    while offset < end:
        want = min(_STEP, end - offset)
        try:
            if mode == 0:
                done = os.copy_file_range(src, dst, want, offset)
            elif mode == 1:
                done = os.sendfile(dst, src, offset, want)
            else:
                chunk = os.pread(src, min(want, _CHUNK), offset)
                view = memoryview(chunk)
                while view:
                    view = view[os.write(dst, view) :]
                done = len(chunk)
        except OSError as exc:
            if mode < 2 and exc.errno in _NO_KERNEL_COPY:
                mode += 1
                continue
            raise
        if done == 0:
            raise OSError(errno.EIO, "the file ended before the copy did (it shrank meanwhile)")
        offset += done
