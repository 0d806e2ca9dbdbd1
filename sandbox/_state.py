"""The state folder of one root: outside the root, opened like the sandbox opens user files.

State lives in the user's state directory, never in the root, so a repository cannot ship any:
the base is `state_dir=` when given, else `$EDITTOOLS_STATE_DIR`, else `$XDG_STATE_HOME/edittools`,
else `~/.local/state/edittools`. Each root gets one folder there, named after the root and keyed by
its device, inode and real path. Inside it: `index.sqlite3` (see `_index`), `blobs/`, `locks/`,
`pending/` (the temp-file notes below) and `tmp/`.

Everything below the base is opened through directory descriptors without following symlinks,
without blocking, regular files only and never a file with a second hard link; anything else is a
`state_corrupt` error naming the state path. A base that cannot be created is `state_unavailable`,
saying how to choose another — there is no fallback into the root. Running out of descriptors or
memory is neither (`state_error`): it says so, and the state is kept for the retry.

Temp-file notes: before `Sandbox.write_bytes` creates a temp file beside its target, a small note
naming the directory and the temp name goes into `pending/`; after the rename it is removed. The
next `Sandbox` finds notes of writers that died and removes their temp files (only names with the
temp suffix, resolved beneath the root), so crashed writes leave nothing behind.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pathlib
import re
import stat
import threading
from collections.abc import Iterator

from ._errors import WRONG_KIND, SandboxError, from_oserror, transient
from ._files import TEMP_SUFFIX
from ._paths import PathResolver

__all__ = ["ENV_VAR", "StateDir", "corrupt", "open_state_file", "state_base", "state_error"]

ENV_VAR = "EDITTOOLS_STATE_DIR"
_HOW = (
    "Choose a writable folder outside the root with Session(..., state_dir=...), --state-dir, or "
    f"the {ENV_VAR} environment variable."
)
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC

# Notes written by this process and still in use: a second Sandbox in the same process must not
# sweep them (the pid alone cannot tell "dead" from "me").
_LIVE_NOTES: set[str] = set()
_LIVE_LOCK = threading.Lock()


def state_base(state_dir: str | os.PathLike[str] | None) -> pathlib.Path:
    """The folder holding the state of every root: the argument, the environment, or the default."""
    if state_dir is not None:
        chosen = os.fspath(state_dir)
    elif os.environ.get(ENV_VAR):
        chosen = os.environ[ENV_VAR]
    elif os.path.isabs(os.environ.get("XDG_STATE_HOME", "")):
        chosen = os.path.join(os.environ["XDG_STATE_HOME"], "edittools")
    else:
        home = os.path.expanduser("~")
        if home == "~" or not os.path.isabs(home):
            raise SandboxError("state_unavailable", f"No home folder is known. {_HOW}")
        chosen = os.path.join(home, ".local", "state", "edittools")
    if not chosen or "\0" in chosen:
        raise SandboxError("state_unavailable", f"State folder {chosen!r} is not a path. {_HOW}")
    return pathlib.Path(os.path.abspath(chosen))


def corrupt(path: str | os.PathLike[str], what: str) -> SandboxError:
    """The error for unusable state at `path`: nothing there is read or written."""
    return SandboxError(
        "state_corrupt",
        f"The state folder entry {os.fspath(path)} {what}, so the tools' state cannot be used. "
        "Nothing was read from it or written. Move the state folder aside (or remove it) and "
        "retry; the tools then start with fresh state.",
        path=os.fspath(path),
    )


def state_error(
    exc: OSError, display: str | os.PathLike[str], action: str, wrong_kind: str | None = None
) -> SandboxError:
    """What `exc`, met doing `action` on state entry `display`, means for the state.

    Another kind of entry standing there (a symlink, a file for a folder, a FIFO: `WRONG_KIND`) is
    corruption when the caller says what that means (`wrong_kind`). Running out of descriptors or
    memory (`transient`) is the system's state, not the folder's: the errno's own error, which
    says what to do, and nothing to move aside. Anything else makes the folder unusable as it is
    (permissions, a full or read-only disk): `state_unavailable`, saying how to choose another.
    """
    if wrong_kind is not None and exc.errno in WRONG_KIND:
        return corrupt(display, wrong_kind)
    if transient(exc):
        return from_oserror(exc, os.fspath(display), action)
    return SandboxError(
        "state_unavailable",
        f"Cannot {action} {os.fspath(display)}: {exc.strerror or exc}. {_HOW}",
        path=os.fspath(display),
    )


def open_state_file(dir_fd: int, name: str, display: pathlib.Path, flags: int) -> int:
    """Open state file `name` like a user file: no symlink, no blocking, regular, one hard link."""
    try:
        fd = os.open(name, flags | _FILE_FLAGS, 0o600, dir_fd=dir_fd)
    except FileNotFoundError:
        raise
    except OSError as exc:
        what = f"cannot be opened ({exc.strerror or exc})"
        raise state_error(exc, display, "open the state file", what) from exc
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise corrupt(display, "is not a regular file")
        if st.st_nlink != 1:
            raise corrupt(display, f"has {st.st_nlink} hard links (state files have one)")
    except BaseException:
        os.close(fd)
        raise
    return fd


class StateDir:
    """The state folder of one root, with cached descriptors of its subfolders.

    Opening creates the base and the root's folder (mode 0700); subfolders are made on first use.
    """

    path: pathlib.Path

    def __init__(self, paths: PathResolver, root_real: str, base: pathlib.Path) -> None:
        self._paths = paths
        self._fds: dict[str, int] = {}
        self._lock = threading.Lock()
        if _inside(base, root_real):
            raise SandboxError(
                "state_unavailable",
                f"The state folder {base} lies inside the sandbox root {root_real}, where the "
                f"tools could change it. {_HOW}",
                path=str(base),
            )
        st = os.fstat(paths.root_fd)
        self.identity = f"{st.st_dev}:{st.st_ino}:{root_real}"
        key = hashlib.sha256(self.identity.encode("utf-8", "surrogateescape")).hexdigest()[:20]
        label = re.sub(r"[^A-Za-z0-9._-]", "_", os.path.basename(root_real) or "root")[:40]
        name = f"{label}-{key}"
        self.path = base / name
        try:
            os.makedirs(base, 0o700, exist_ok=True)
            base_fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as exc:
            raise state_error(exc, base, "create the state folder") from exc
        try:
            self._fds[""] = _subdir(base_fd, name, self.path)
        finally:
            os.close(base_fd)

    @property
    def fd(self) -> int:
        """A descriptor of the root's state folder, owned by this object."""
        return self._fds[""]

    def subdir(self, sub: str) -> int:
        """A descriptor of `<state>/<sub>` (one name), created on first use, owned by this object."""
        with self._lock:
            fd = self._fds.get(sub)
            if fd is None:
                fd = self._fds[sub] = _subdir(self.fd, sub, self.path / sub)
            return fd

    def close(self) -> None:
        """Close every cached descriptor."""
        with self._lock:
            for fd in self._fds.values():
                os.close(fd)
            self._fds.clear()

    @contextlib.contextmanager
    def pending(self, dir_rel: str, tmp: str) -> Iterator[None]:
        """Note the temp file `tmp` in root folder `dir_rel` for as long as the block runs."""
        fd = self.subdir("pending")
        note = f"{os.getpid()}-{tmp.strip('.')}"
        with _LIVE_LOCK:
            _LIVE_NOTES.add(note)
        try:
            try:
                nfd = os.open(note, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _FILE_FLAGS, 0o600,
                              dir_fd=fd)  # fmt: skip
                try:
                    os.write(nfd, f"{dir_rel}\n{tmp}\n".encode("utf-8", "surrogateescape"))
                finally:
                    os.close(nfd)
            except OSError as exc:
                raise from_oserror(exc, dir_rel, "note a temp file in") from exc
            yield
            with contextlib.suppress(FileNotFoundError):
                os.unlink(note, dir_fd=fd)
        finally:
            with _LIVE_LOCK:
                _LIVE_NOTES.discard(note)

    def sweep(self) -> int:
        """Remove temp files of writers that died; return how many notes were settled."""
        fd = self.subdir("pending")
        settled = 0
        for note in _listing(fd, self.path / "pending"):
            with _LIVE_LOCK:
                if note in _LIVE_NOTES:
                    continue
            pid_text, _, _ = note.partition("-")
            if pid_text.isdigit() and _alive(int(pid_text)) and int(pid_text) != os.getpid():
                continue
            self._settle(fd, note)
            settled += 1
        self._sweep_tmp()
        return settled

    def _settle(self, fd: int, note: str) -> None:
        # Out of descriptors, a note is kept (raising) for a sweep that can follow it.
        display = self.path / "pending" / note
        try:
            nfd = open_state_file(fd, note, display, os.O_RDONLY)
            with os.fdopen(nfd, "rb") as fh:
                lines = fh.read(8192).decode("utf-8", "surrogateescape").split("\n")
        except SandboxError as exc:
            if transient(exc):
                raise
            lines = []  # a note that is not a plain file is not followed, only removed
        except OSError as exc:
            if transient(exc):
                raise state_error(exc, display, "read the state file") from exc
            lines = []
        if len(lines) >= 2 and lines[1].endswith(TEMP_SUFFIX) and "/" not in lines[1]:
            dir_rel, tmp = lines[0], lines[1]
            try:
                dfd, _ = self._paths.open_dir([p for p in dir_rel.split("/") if p], dir_rel)
            except SandboxError as exc:
                if transient(exc):
                    raise
                dfd = -1
            if dfd >= 0:
                try:
                    with contextlib.suppress(OSError):
                        if stat.S_ISREG(os.stat(tmp, dir_fd=dfd, follow_symlinks=False).st_mode):
                            os.unlink(tmp, dir_fd=dfd)
                finally:
                    os.close(dfd)
        _remove_entry(fd, note)

    def _sweep_tmp(self) -> None:
        """Remove temp files of dead writers in `tmp/` (named `<pid>-...`)."""
        fd = self.subdir("tmp")
        for name in _listing(fd, self.path / "tmp"):
            pid_text, _, _ = name.partition("-")
            if pid_text.isdigit() and _alive(int(pid_text)):
                continue
            _remove_entry(fd, name)


def _subdir(parent: int, name: str, display: pathlib.Path) -> int:
    try:
        os.mkdir(name, 0o700, dir_fd=parent)
    except FileExistsError:
        pass
    except OSError as exc:
        raise state_error(exc, display, "create the state folder") from exc
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=parent)
    except OSError as exc:
        what = "is not a folder (a symlink or a file stands there)"
        raise state_error(exc, display, "open the state folder", what) from exc


def _listing(fd: int, display: pathlib.Path) -> list[str]:
    try:
        return os.listdir(fd)
    except OSError as exc:
        raise state_error(exc, display, "list the state folder") from exc


def _remove_entry(fd: int, name: str) -> None:
    """Remove a file-like entry of a state folder; a folder standing there is left alone."""
    with contextlib.suppress(OSError):
        os.unlink(name, dir_fd=fd)


def _inside(base: pathlib.Path, root_real: str) -> bool:
    real = pathlib.Path(os.path.realpath(base))
    return real == pathlib.Path(root_real) or real.is_relative_to(root_real)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
