"""The project's state folder (`<root>/.edittools/` by default) and the temp-file journal.

The folder is created on first use with a `.gitignore` of `*`, always beneath the root descriptor.
It holds `locks/` (one lock file per locked path), `blobs/` (the blob store) and `pending/`, the
journal of temp files being written: before a temp file is created, a small note naming its
directory and name is put in `pending/`; after the rename it is removed. When a writer dies
(SIGKILL, power loss after the note reached the disk) the next `Sandbox` start finds notes whose
process is gone and removes their temp files, so crashed writes leave nothing behind without
scanning the tree.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator

from ._errors import SandboxError, from_oserror
from ._files import TEMP_SUFFIX
from ._paths import PathResolver

__all__ = ["StateDir"]

# Notes written by this process and still in use: a second Sandbox in the same process must not
# sweep them (the pid alone cannot tell "dead" from "me").
_LIVE_NOTES: set[str] = set()
_LIVE_LOCK = threading.Lock()


class StateDir:
    """Lazily created state folder with cached descriptors for its subfolders."""

    def __init__(self, paths: PathResolver, name: str) -> None:
        self._paths = paths
        self.name = name
        self._fds: dict[str, int] = {}
        self._lock = threading.Lock()

    def subdir(self, sub: str, *, create: bool = True) -> int:
        """A descriptor for `<state>/<sub>`, owned by this object.

        Created on first use; with `create=False` a missing folder raises not_found instead.
        """
        with self._lock:
            fd = self._fds.get(sub)
            if fd is None and not create:
                parts = [*self.name.split("/"), *sub.split("/")]
                fd = self._paths.open_dir(parts, self.name)[0]
                self._fds[sub] = fd
            if fd is None:
                if "" not in self._fds:
                    self._fds[""] = self._create_root()
                fd = self._paths.ensure_dir(f"{self.name}/{sub}".split("/"), self.name)[0]
                self._fds[sub] = fd
            return fd

    def append(self, name: str, data: bytes) -> None:
        """Append `data` to the log `<state>/<name>` with one write (O_APPEND)."""
        _check_log_name(name)
        fd = self._root(create=True)
        try:
            lfd = os.open(
                name, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                0o600, dir_fd=fd,
            )  # fmt: skip
            try:
                os.write(lfd, data)
            finally:
                os.close(lfd)
        except OSError as exc:
            raise from_oserror(exc, f"{self.name}/{name}", "append to") from exc

    def read_log(self, name: str) -> bytes:
        """The whole log `<state>/<name>`; empty when it does not exist yet."""
        _check_log_name(name)
        try:
            fd = self._root(create=False)
        except SandboxError:
            return b""
        try:
            lfd = os.open(
                name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=fd
            )
        except FileNotFoundError:
            return b""
        except OSError as exc:
            raise from_oserror(exc, f"{self.name}/{name}", "read") from exc
        with os.fdopen(lfd, "rb") as fh:
            return fh.read()

    def _root(self, *, create: bool) -> int:
        """A descriptor of the state folder itself, owned by this object."""
        with self._lock:
            fd = self._fds.get("")
            if fd is None:
                if create:
                    fd = self._create_root()
                else:
                    fd = self._paths.open_dir(self.name.split("/"), self.name)[0]
                self._fds[""] = fd
            return fd

    def _create_root(self) -> int:
        fd, _ = self._paths.ensure_dir(self.name.split("/"), self.name)
        try:
            # Exclusive create: an existing .gitignore (maybe edited by the user) is left alone.
            gi = os.open(
                ".gitignore", os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666, dir_fd=fd
            )
        except FileExistsError:
            return fd
        except OSError as exc:
            os.close(fd)
            raise from_oserror(exc, self.name, "create the state folder") from exc
        try:
            os.write(gi, b"*\n")
        finally:
            os.close(gi)
        return fd

    def close(self) -> None:
        """Close every cached descriptor."""
        with self._lock:
            for fd in self._fds.values():
                os.close(fd)
            self._fds.clear()

    @contextlib.contextmanager
    def pending(self, dir_rel: str, tmp: str) -> Iterator[None]:
        """Journal the temp file `tmp` in directory `dir_rel` for as long as the block runs."""
        fd = self.subdir("pending")
        note = f"{os.getpid()}-{tmp.strip('.')}"
        with _LIVE_LOCK:
            _LIVE_NOTES.add(note)
        try:
            try:
                nfd = os.open(note, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600, dir_fd=fd)
                try:
                    os.write(nfd, f"{dir_rel}\n{tmp}\n".encode("utf-8", "surrogateescape"))
                finally:
                    os.close(nfd)
            except OSError as exc:
                raise from_oserror(exc, dir_rel, "journal a temp file in") from exc
            yield
            with contextlib.suppress(FileNotFoundError):
                os.unlink(note, dir_fd=fd)
        finally:
            with _LIVE_LOCK:
                _LIVE_NOTES.discard(note)

    def sweep(self) -> int:
        """Remove temp files of writers that died; return how many notes were settled.

        Does nothing (and creates nothing) when the state folder or its journal does not exist.
        """
        try:
            fd, _ = self._paths.open_dir([*self.name.split("/"), "pending"], self.name)
        except SandboxError:
            return 0
        settled = 0
        try:
            for note in os.listdir(fd):
                with _LIVE_LOCK:
                    if note in _LIVE_NOTES:
                        continue
                pid_text, _, _ = note.partition("-")
                if pid_text.isdigit() and _alive(int(pid_text)) and int(pid_text) != os.getpid():
                    continue
                self._settle(fd, note)
                settled += 1
        finally:
            os.close(fd)
        return settled

    def _settle(self, fd: int, note: str) -> None:
        try:
            with open(
                note, "rb", opener=lambda p, f: os.open(p, f | os.O_NOFOLLOW, dir_fd=fd)
            ) as fh:
                lines = fh.read().decode("utf-8", "surrogateescape").split("\n")
        except OSError:
            lines = []
        if len(lines) >= 2 and lines[1].endswith(TEMP_SUFFIX) and "/" not in lines[1]:
            dir_rel, tmp = lines[0], lines[1]
            try:
                dfd, _ = self._paths.open_dir([p for p in dir_rel.split("/") if p], dir_rel)
            except SandboxError:
                dfd = -1
            if dfd >= 0:
                try:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(tmp, dir_fd=dfd)
                finally:
                    os.close(dfd)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(note, dir_fd=fd)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _check_log_name(name: str) -> None:
    if not name or "/" in name or name in (".", "..") or "\0" in name:
        raise SandboxError("invalid_path", f"{name!r} is not a plain log file name.", path=name)
