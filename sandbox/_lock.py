"""Cross-process, per-file locks kept in the state folder, never on the files themselves.

The target is replaced by rename on every write, so a lock on it would guard the wrong inode. On
Linux a lock is an open-file-description byte-range lock (`F_OFD_SETLKW`) on one byte of a single
table file, `<state>/locks/paths.lock`, at an offset taken from the sha256 of the relative path.
Such a lock belongs to the open file description, not to the process: each thread opens the table
once and holds all its locks on that one descriptor, two threads exclude each other like two
processes, and closing some other descriptor of the file releases nothing (POSIX record locks
would). So a patch over thousands of files needs one descriptor, not one per file, and runs under a
low open-file limit. Two paths whose hashes share an offset (one in 2^60) only share a lock.

Where the kernel has no OFD locks (macOS, the BSDs) a lock is `flock(LOCK_EX)` on one lock file per
path, one descriptor per held lock. Within one thread locks are re-entrant either way, so
`write_bytes` may run inside `with sandbox.lock(path):`. Lock files are never deleted (deleting one
while another process waits on it would let two holders in).

A wait is bounded: a lock is tried without blocking, again and again with a growing pause, until
`timeout` seconds have passed; then the call fails with `busy`, naming the holder's pid when it is
known. The kernel does not say who holds an OFD lock, so each holder writes its pid into the table
file when it takes a lock, in a slot of 16 bytes chosen by the lock's offset (with the offset
itself, so a slot another lock took over since names nobody); a flock file holds its holder's pid.
A holder stopped or hung while holding a lock then costs the others the timeout, not their calls.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import struct
import threading
import time
from collections.abc import Callable, Iterator

from ._errors import SandboxError, from_oserror

__all__ = ["LockTable"]

_Opener = Callable[[int, str], int]  # (locks folder descriptor, name) -> open lock file; may raise

TABLE_FILE = "paths.lock"
_OFD: int = getattr(fcntl, "F_OFD_SETLKW", 0)  # 0: not offered here
_OFD_TRY: int = getattr(fcntl, "F_OFD_SETLK", 0)
# struct flock in the platform's own layout and alignment; l_pid must be 0 for OFD locks.
_FLOCK = struct.Struct("hhqqi0q")
_HOLDER = struct.Struct("<QI")  # the lock's offset, the holder's pid: one slot of the table
_SLOT = 16
_SLOTS = 1 << 16  # 1 MiB of slots at the start of the table (the file stays sparse)
_FIRST_PAUSE = 0.001
_LONGEST_PAUSE = 0.05
DEFAULT_TIMEOUT = 5.0


class LockTable:
    """Re-entrant (per thread) exclusive locks keyed by canonical relative path."""

    def __init__(
        self, locks_dir: Callable[[], int], open_file: _Opener, *, timeout: float = DEFAULT_TIMEOUT
    ) -> None:
        """`open_file` opens (creating) a lock file in the locks folder, as state files are opened:
        no symlink, no blocking, a regular file with one hard link; it raises otherwise. A wait
        for a lock held elsewhere ends after `timeout` seconds with `busy`."""
        self.timeout = timeout
        self._locks_dir = locks_dir
        self._open_file = open_file
        self._held: dict[tuple[str, int], tuple[int, int]] = {}  # (key, thread) -> (fd, depth)
        self._tables: dict[int, tuple[int, int]] = {}  # thread -> (table fd, locks held on it)
        self._guard = threading.Lock()
        self._ofd = _OFD != 0

    @contextlib.contextmanager
    def hold(self, rel: str) -> Iterator[None]:
        """Hold the exclusive lock for `rel` while the block runs."""
        digest = hashlib.sha256(rel.encode("utf-8", "surrogateescape")).hexdigest()
        key = (digest[:15] if self._ofd else digest, threading.get_ident())
        with self._guard:
            held = self._held.get(key)
            if held is not None:
                self._held[key] = (held[0], held[1] + 1)
        if held is None:
            fd = self._acquire(key[0], rel)
            with self._guard:
                self._held[key] = (fd, 1)
        try:
            yield
        finally:
            with self._guard:
                fd, depth = self._held[key]
                if depth > 1:
                    self._held[key] = (fd, depth - 1)
                else:
                    del self._held[key]
            if depth == 1:
                self._release(key[0], fd, rel)

    @contextlib.contextmanager
    def try_hold(self, rels: list[str]) -> Iterator[bool]:
        """Hold the locks of every path in `rels` if none is held elsewhere; yield whether it did.

        Never waits: a lock held by a live writer (of any process) makes it yield False at once.
        """
        held: list[tuple[str, int, str]] = []
        try:
            for rel in sorted(set(rels)):
                digest = hashlib.sha256(rel.encode("utf-8", "surrogateescape")).hexdigest()
                digest = digest[:15] if self._ofd else digest
                fd = self._acquire(digest, rel, wait=False)
                if fd < 0:
                    yield False
                    return
                held.append((digest, fd, rel))
            yield True
        finally:
            for digest, fd, rel in reversed(held):
                self._release(digest, fd, rel)

    def _acquire(self, digest: str, rel: str, *, wait: bool = True) -> int:
        """A descriptor holding the lock; -1 when `wait` is off and another holder has it.

        Waiting polls (a blocking request could not be bounded) up to `timeout`, then raises
        `busy`.
        """
        if self._ofd:
            fd = self._table(rel)
            at = (int(digest, 16) % _SLOTS) * _SLOT
        else:
            fd = self._open(digest + ".lock", rel)
            at = 0
        deadline = time.monotonic() + max(self.timeout, 0.0)
        pause = _FIRST_PAUSE
        while True:
            try:
                if self._ofd:
                    fcntl.fcntl(fd, _OFD_TRY, _range(fcntl.F_WRLCK, digest))
                else:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                held = isinstance(exc, BlockingIOError | PermissionError)  # EAGAIN, EACCES
                if held and wait and time.monotonic() < deadline:
                    time.sleep(min(pause, max(deadline - time.monotonic(), 0.0)))
                    pause = min(pause * 2, _LONGEST_PAUSE)
                    continue
                holder = _holder(fd, at, digest) if held and wait else None
                self._drop(fd)
                if held and not wait:
                    return -1
                if held:
                    raise _busy(rel, holder, self.timeout) from exc
                raise from_oserror(exc, rel, "lock") from exc
        with contextlib.suppress(OSError):  # only a name for a later waiter's error
            os.pwrite(fd, _HOLDER.pack(int(digest[:15], 16), os.getpid()), at)
        return fd

    def _drop(self, fd: int) -> None:
        """Give up the descriptor of a lock not taken."""
        if self._ofd:
            self._untable()
        else:
            os.close(fd)

    def _release(self, digest: str, fd: int, rel: str) -> None:
        if not self._ofd:
            os.close(fd)  # closing the only descriptor releases the flock
            return
        try:
            fcntl.fcntl(fd, _OFD, _range(fcntl.F_UNLCK, digest))
        except OSError:
            # Cannot happen on a valid descriptor; if it did, closing the table (when this was
            # the thread's last lock) still releases the range.
            pass
        finally:
            self._untable()

    def _table(self, rel: str) -> int:
        """This thread's descriptor of the lock table, opened on its first lock."""
        thread = threading.get_ident()
        with self._guard:
            entry = self._tables.get(thread)
            if entry is not None:
                self._tables[thread] = (entry[0], entry[1] + 1)
                return entry[0]
        fd = self._open(TABLE_FILE, rel)
        with self._guard:
            self._tables[thread] = (fd, 1)
        return fd

    def _untable(self) -> None:
        """One lock fewer on this thread's table; the last one closes it."""
        thread = threading.get_ident()
        with self._guard:
            table, count = self._tables[thread]
            if count > 1:
                self._tables[thread] = (table, count - 1)
                return
            del self._tables[thread]
        os.close(table)

    def _open(self, name: str, rel: str) -> int:
        """Open a lock file: a regular file with one link, never through a symlink or blocking."""
        try:
            return self._open_file(self._locks_dir(), name)
        except OSError as exc:
            raise from_oserror(exc, rel, "create the lock file for") from exc


def _holder(fd: int, at: int, digest: str) -> int | None:
    """The pid the lock's slot names, when it is the same lock and that process is alive."""
    try:
        key, found = _HOLDER.unpack(os.pread(fd, _HOLDER.size, at))
    except (OSError, struct.error):
        return None
    pid = int(found)
    if key != int(digest[:15], 16) or pid <= 0:
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None  # it died; the lock is held by some other process now
    except PermissionError:
        pass  # alive, another user's
    return pid


def _busy(rel: str, pid: int | None, timeout: float) -> SandboxError:
    if pid == os.getpid():
        who = f"another thread of this process (pid {pid})"
    elif pid is not None:
        who = f"another process (pid {pid})"
    else:
        who = "another process"
    return SandboxError(
        "busy",
        f"{rel!r} is locked by {who}, which has held it for over {timeout:g} s while changing "
        "it, so nothing was done here. Retry later; if it does not pass, that process is "
        "stopped or hung: end it.",
        path=rel,
    )


def _range(kind: int, digest: str) -> bytes:
    """A struct flock for one byte at the offset `digest` names (60 bits: a positive off_t)."""
    return _FLOCK.pack(kind, os.SEEK_SET, int(digest, 16), 1, 0)
