"""A file's new content written while the caller still reads the old one: a staged splice.

A change to a file larger than memory is found by one pass over the file and written as the old
bytes with spans replaced (see `_splice`). Done one after the other, the write waits for the
whole pass. `SpliceWriter` overlaps them: the caller reads the file through the writer's own
descriptor and, as its pass moves on, says which old bytes are settled (`keep`) and which spans it
replaces (`replace`); a worker thread copies the settled ranges by the kernel into a temp file
beside the target (the copies release the interpreter lock and run on another core) while the
pass reads on. `finish` copies the rest, syncs, and returns a `Staged` file, which a commit
(`FileWrite.data`) renames into place like any other temp file, all or nothing.

The temp file is noted in the state folder from its creation, so a writer killed at any instant
leaves nothing the next open does not sweep; a writer closed without a commit removes it. The
source is the very inode the caller read: a file changed while it was read (its size, mtime or
ctime moved) is refused as stale at `finish`.
"""

from __future__ import annotations

import contextlib
import os
import queue
import stat
import threading
from dataclasses import dataclass
from types import TracebackType

from ._errors import SandboxError, from_oserror
from ._files import temp_name
from ._metadata import take_mode
from ._paths import Resolved
from ._splice import KICK, copy_range, start_writeback
from ._state import StateDir

__all__ = ["SpliceWriter", "Staged", "open_splice_writer"]

_BATCH = 32 << 20  # kept bytes gathered into one copy (fewer, larger copies cost the kernel less)
_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class Staged:
    """A new content already written (and synced) to a temp file beside its target.

    `spans` are the ``(start, stop, new bytes)`` replaced in the old file of `source_size` bytes;
    `digest` is the new content's id, computed by the caller without reading it back. Valid while
    the `SpliceWriter` that made it is open.
    """

    name: str
    fd: int
    size: int
    digest: str
    source: os.stat_result
    spans: tuple[tuple[int, int, bytes], ...]


class SpliceWriter:
    """Writes a file's old bytes with spans replaced to a temp file, on a thread, as told.

    Made by `Sandbox.splice_writer`; a context manager. Read the old file through `fileno()`;
    call `keep` and `replace` in file order as the pass settles each part; then `finish`.
    """

    def __init__(self, entry: Resolved, src: int, st: os.stat_result, tmp: str, out: int,
                 notes: contextlib.ExitStack) -> None:  # fmt: skip
        self._entry = entry
        self._src = src
        self._stat = st
        self._tmp = tmp
        self._out = out
        self._notes = notes
        self._at = 0  # offset in the old file up to which the worker was given the new content
        self._kept = 0  # offset up to which the caller said the old bytes are kept
        self._spans: list[tuple[int, int, bytes]] = []
        self._jobs: queue.SimpleQueue[tuple[int, int, bytes] | None] = queue.SimpleQueue()
        self._error: OSError | None = None
        self._dropped = False
        self._worker = threading.Thread(target=self._run, name="splice-writer", daemon=True)
        self._worker.start()

    def fileno(self) -> int:
        """The old file's descriptor, to read it (positioned reads: the writer copies from it)."""
        return self._src

    def keep(self, upto: int) -> None:
        """The old bytes up to offset `upto` go to the new content unchanged."""
        self._kept = max(self._kept, upto)
        if self._kept - self._at >= _BATCH:
            self._flush()

    def replace(self, start: int, stop: int, data: bytes) -> None:
        """The old bytes ``[start, stop)`` are replaced by `data` (spans come in order)."""
        if start < max(self._at, self._kept):
            raise ValueError("spans must come in file order, after what was kept")
        self._jobs.put((self._at, start, data))
        self._at = self._kept = stop
        self._spans.append((start, stop, data))

    def _flush(self) -> None:
        if self._kept > self._at:
            self._jobs.put((self._at, self._kept, b""))
            self._at = self._kept

    def drop(self) -> None:
        """Stop writing (the content will not be committed); what is queued is skipped."""
        self._dropped = True

    def reset(self) -> None:
        """Start the new content again from nothing (another pass over the same file)."""
        self._drain()
        self._dropped = False
        self._at = self._kept = 0
        self._spans = []
        self._error = None
        try:
            os.ftruncate(self._out, 0)
            os.lseek(self._out, 0, os.SEEK_SET)
        except OSError as exc:
            raise from_oserror(exc, self._entry.rel, "write") from exc
        self._worker = threading.Thread(target=self._run, name="splice-writer", daemon=True)
        self._worker.start()

    def finish(self, size: int, digest: str) -> Staged:
        """Copy the old bytes up to `size` (the old file's size), sync, and hand the file over.

        Refused as stale when the old file changed while it was read.
        """
        if self._dropped:
            raise ValueError("a dropped writer has no content to finish; reset it first")
        self.keep(size)
        self._flush()
        self._drain()
        rel = self._entry.rel
        if self._error is not None:
            raise from_oserror(self._error, rel, "write")
        try:
            os.fsync(self._out)
            now = os.fstat(self._src)
        except OSError as exc:
            raise from_oserror(exc, rel, "write") from exc
        before = self._stat
        if (now.st_size, now.st_mtime_ns, now.st_ctime_ns) != (
            before.st_size, before.st_mtime_ns, before.st_ctime_ns) or now.st_size != size:  # fmt: skip
            raise SandboxError(
                "stale", f"{rel!r} changed while it was read; read it again and redo the change.",
                path=rel)  # fmt: skip
        new_size = size + sum(len(d) - (b - a) for a, b, d in self._spans)
        return Staged(self._tmp, self._out, new_size, digest, before, tuple(self._spans))

    def _drain(self) -> None:
        self._jobs.put(None)
        self._worker.join()

    def _run(self) -> None:
        written = flushed = 0
        while (job := self._jobs.get()) is not None:
            if self._dropped or self._error is not None:
                continue
            start, stop, data = job
            try:
                copy_range(self._src, self._out, start, stop - start)
                view = memoryview(data)
                while view:
                    view = view[os.write(self._out, view) :]
                written += stop - start + len(data)
                if written - flushed >= KICK:
                    start_writeback(self._out, flushed, written - flushed)
                    flushed = written
            except OSError as exc:
                self._error = exc

    def close(self) -> None:
        """Stop the worker, remove the temp file unless a commit renamed it, close everything."""
        if self._src < 0:
            return
        self._dropped = True
        self._drain()
        try:
            here = os.stat(self._tmp, dir_fd=self._entry.dir_fd, follow_symlinks=False)
            ours = os.fstat(self._out)
            if stat.S_ISREG(here.st_mode) and (here.st_dev, here.st_ino) == (ours.st_dev,
                                                                            ours.st_ino):  # fmt: skip
                os.unlink(self._tmp, dir_fd=self._entry.dir_fd)
        except OSError:
            pass  # renamed into place by a commit, or already gone
        finally:
            os.close(self._out)
            os.close(self._src)
            self._src = -1
            self._notes.close()
            self._entry.close()

    def __enter__(self) -> SpliceWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def open_splice_writer(entry: Resolved, src: int, st: os.stat_result,
                       state: StateDir) -> SpliceWriter:  # fmt: skip
    """A writer of a temp file beside `entry` (whose open file is `src`); it takes over `entry`
    and `src` (closed on failure too). The temp file gets the file's permission bits now, and
    the rest of its metadata (owner, special bits, attributes) when a commit adopts it."""
    tmp = temp_name()
    notes = contextlib.ExitStack()
    out = -1
    try:
        # Noted before it exists: a writer killed at any instant leaves nothing unswept.
        notes.enter_context(state.pending(entry.rel.rpartition("/")[0], tmp))
        try:
            out = os.open(tmp, _TEMP_FLAGS, 0o666, dir_fd=entry.dir_fd)
            take_mode(out, st)
        except OSError as exc:
            raise from_oserror(exc, entry.rel, "create a temp file for") from exc
        return SpliceWriter(entry, src, st, tmp, out, notes)
    except BaseException:
        if out >= 0:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=entry.dir_fd)
            os.close(out)
        notes.close()
        os.close(src)
        entry.close()
        raise
