"""New content of a file given as the current file with byte spans replaced, copied by the kernel.

A file too large to hold in memory is changed without reading it into the process: the unchanged
ranges are copied from the old file into the temp file by `copy_file_range` (no copy through user
space; a reflink or server-side copy where the file system offers one), falling back to `sendfile`
and then to bounded read/write chunks. The new bytes of each span are written between them.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass

__all__ = ["Splice", "copy_range", "write_splice"]

_CHUNK = 8 << 20
# Kernel copies are asked for at most this much at a time (copy_file_range takes a size_t, but
# large requests hold the file's locks long and gain nothing).
_STEP = 1 << 30
_NO_KERNEL_COPY = (errno.EXDEV, errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.EBADF)


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
    """Write `splice` applied to the open file `src` to `dst` (at its position); return the size."""
    at = 0
    for start, stop, new in splice.spans:
        copy_range(src, dst, at, start - at)
        view = memoryview(new)
        while view:
            view = view[os.write(dst, view) :]
        at = stop
    copy_range(src, dst, at, splice.size - at)
    return splice.new_size


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
