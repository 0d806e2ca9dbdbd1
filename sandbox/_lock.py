"""Cross-process, per-file locks kept on separate lock files in the state folder.

A lock is `flock(LOCK_EX)` on `<state>/locks/<sha256 of the relative path>.lock`, never on the
target itself: the target is replaced by rename on every write, and POSIX record locks vanish when
any descriptor of a file is closed. `flock` locks belong to an open file description, so two threads
that open the lock file separately also exclude each other. Within one thread the lock is
re-entrant, so `write_bytes` may run inside `with sandbox.lock(path):`. Lock files are small and are
never deleted (deleting a lock file while another process waits on it would let two holders in).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import threading
from collections.abc import Callable, Iterator

from ._errors import from_oserror

__all__ = ["LockTable"]


class LockTable:
    """Re-entrant (per thread) exclusive locks keyed by canonical relative path."""

    def __init__(self, locks_dir: Callable[[], int]) -> None:
        self._locks_dir = locks_dir
        self._held: dict[tuple[str, int], tuple[int, int]] = {}  # (rel, thread) -> (fd, depth)
        self._guard = threading.Lock()

    @contextlib.contextmanager
    def hold(self, rel: str) -> Iterator[None]:
        """Hold the exclusive lock for `rel` while the block runs."""
        key = (rel, threading.get_ident())
        with self._guard:
            held = self._held.get(key)
            if held is not None:
                self._held[key] = (held[0], held[1] + 1)
        if held is None:
            fd = self._acquire(rel)
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
                os.close(fd)  # closing the only descriptor releases the flock

    def _acquire(self, rel: str) -> int:
        name = hashlib.sha256(rel.encode("utf-8", "surrogateescape")).hexdigest() + ".lock"
        try:
            fd = os.open(
                name,
                os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                0o666,
                dir_fd=self._locks_dir(),
            )
        except OSError as exc:
            raise from_oserror(exc, rel, "create the lock file for") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError as exc:
            os.close(fd)
            raise from_oserror(exc, rel, "lock") from exc
        return fd
