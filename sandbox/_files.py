"""File primitives on a directory descriptor: safe reads, version tokens, atomic durable writes.

These functions take an already-confined parent directory descriptor and a single name; they never
resolve paths themselves. Reads refuse anything that is not a regular file without blocking (the
entry is opened with `O_NONBLOCK | O_NOFOLLOW`, then `fstat`-checked). Writes go to a temp file
created exclusively in the same directory, get the original's mode, owner (where permitted) and
extended attributes once their content is in (`take_meta`), are fsynced, renamed over the target
through the directory descriptor and the directory is fsynced: a crash leaves the old or the new
bytes. `FileReader` streams a file opened that way, without a cap.
"""

from __future__ import annotations

import contextlib
import enum
import errno
import io
import os
import secrets
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ._digest import Digester, PendingDigest, digest_of
from ._errors import SandboxError, from_oserror
from ._metadata import FileMeta, file_meta, take_meta, take_mode, why

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

__all__ = [
    "ABSENT",
    "PRESENT",
    "TEMP_SUFFIX",
    "AbsentType",
    "FileReader",
    "PendingVersion",
    "Version",
    "atomic_write",
    "check_expect",
    "check_regular",
    "hash_file",
    "lstat_regular",
    "open_regular",
    "read_open",
    "read_open_deferred",
    "remove_dir",
    "same_inode_state",
    "temp_name",
]

TEMP_SUFFIX = ".edittools-tmp"
_CHUNK = 1 << 20
_MAX_READ = 0x7FFFF000  # the most one read(2) returns on Linux
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_NOFOLLOW | os.O_CLOEXEC
_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class Version:
    """A token of a file's state: content digest, size, modification time and inode.

    Two versions are equal when the content is the same (same `digest`, an opaque string that is
    also the content's blob id): that is what compare-and-swap compares, so a `touch` or an
    identical rewrite is not a change. The other fields describe the inode the content was seen in;
    they let a later compare-and-swap skip re-reading a file whose inode provably did not change
    (see `same_inode_state`).
    """

    digest: str
    size: int = field(compare=False)
    mtime_ns: int = field(compare=False)
    inode: int = field(compare=False)
    ctime_ns: int = field(default=-1, compare=False)
    seen_ns: int = field(default=-1, compare=False)
    """Wall-clock time the stat was taken, after the content was read (-1: unknown)."""
    unkept: tuple[str, ...] = field(default=(), compare=False)
    """For a version just written: the replaced file's metadata the new file could not keep
    (owner, a mode bit, an extended attribute), each named with the reason; empty normally."""


class AbsentType(enum.Enum):
    """The type of `ABSENT`."""

    ABSENT = "ABSENT"

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = AbsentType.ABSENT
"""Pass as `expect=` to require that the file does not exist yet (create-only)."""


def check_regular(st: os.stat_result, display: str) -> None:
    """Raise unless `st` describes a regular file."""
    if stat.S_ISREG(st.st_mode):
        return
    if stat.S_ISDIR(st.st_mode):
        raise SandboxError(
            "is_directory", f"{display!r} is a directory; give the path of a file.", path=display
        )
    kind = (
        "FIFO"
        if stat.S_ISFIFO(st.st_mode)
        else "socket"
        if stat.S_ISSOCK(st.st_mode)
        else "device"
        if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
        else "symlink"
        if stat.S_ISLNK(st.st_mode)
        else "special file"
    )
    raise SandboxError(
        "not_a_file",
        f"{display!r} is a {kind}, not a regular file; only regular files can be read or written.",
        path=display,
    )


def open_regular(dir_fd: int, name: str, display: str) -> tuple[int, os.stat_result]:
    """Open `name` in `dir_fd` for reading without following or blocking; refuse non-regular files."""
    try:
        fd = os.open(name, _READ_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        raise from_oserror(exc, display, "open") from exc
    try:
        st = os.fstat(fd)
        check_regular(st, display)
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def read_open(
    fd: int, st: os.stat_result, display: str, max_bytes: int
) -> tuple[bytes, Version, os.stat_result]:
    """Read the open regular file `fd` up to `max_bytes` and close it; return bytes, version, stat."""
    data, after = _read_all(fd, st, display, max_bytes)
    return data, _version(digest_of(data), len(data), after), after


def read_open_deferred(
    fd: int,
    st: os.stat_result,
    display: str,
    max_bytes: int,
    *,
    known: Callable[[bytes], str | None] | None = None,
    on_step: Callable[[tuple[int, Digester]], object] | None = None,
) -> tuple[bytes, PendingVersion]:
    """`read_open` whose digest is computed on a worker thread (see `PendingVersion`), unless
    `known` gives it from the bytes (see `Sandbox.read_bytes_deferred`)."""
    data, after = _read_all(fd, st, display, max_bytes)
    proven = None if known is None else known(data)
    digest = (
        PendingDigest([data], on_step=on_step) if proven is None else PendingDigest.known(proven)
    )
    return data, PendingVersion(digest, len(data), after)


class PendingVersion:
    """The version of a content just read, while its digest is computed on a worker thread.

    The caller works on the bytes meanwhile (a search of a large file runs while another core
    hashes it) and calls `result` when it needs the version: before any check that compares it.
    The stat and the time it was taken are those of the read itself, not of the end of the hash.
    """

    def __init__(self, digest: PendingDigest, size: int, st: os.stat_result) -> None:
        self._digest = digest
        self._size = size
        self._st = st
        self._seen_ns = time.time_ns()
        self._version: Version | None = None

    def ready(self) -> Version | None:
        """The version when its digest is known already (no waiting); else None."""
        return self.result() if self._digest.ready() else None

    def result(self) -> Version:
        """The version (waits for the digest)."""
        if self._version is None:
            st = self._st
            self._version = Version(self._digest.result(), self._size, st.st_mtime_ns,
                                    st.st_ino, st.st_ctime_ns, self._seen_ns)  # fmt: skip
        return self._version


def _read_all(
    fd: int, st: os.stat_result, display: str, max_bytes: int
) -> tuple[bytes, os.stat_result]:
    """Read the open regular file `fd` up to `max_bytes` and close it; return bytes and stat."""
    try:
        if st.st_size > max_bytes:
            raise _too_large(display, st.st_size, max_bytes)
        # One read of the whole size (no join of chunks to copy it again), then more until the
        # end; past the cap by one byte, so a file that grew since fstat is still caught.
        first = os.read(fd, min(st.st_size + 1, max_bytes + 1, _MAX_READ))
        chunks = [first]
        total = len(first)
        while first and total <= max_bytes:
            chunk = os.read(fd, min(_CHUNK, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > max_bytes:
            raise _too_large(display, total, max_bytes)
        data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        after = os.fstat(fd)
    except OSError as exc:
        raise from_oserror(exc, display, "read") from exc
    finally:
        os.close(fd)
    return data, after


class FileReader(io.RawIOBase):
    """A regular file open for a forward-only streamed read, with no size cap.

    Everything read is hashed on the way: once the stream has been read to its end, `version` is
    the token `read_bytes` would give for the same bytes (before that it is None). Not seekable,
    since the hash follows the order of reading. Close it, or use it as a context manager.
    """

    path: str
    size: int

    def __init__(self, fd: int, st: os.stat_result, path: str) -> None:
        super().__init__()
        self._fd = fd
        self.path = path
        self.size = st.st_size  # at opening; the file may still grow or shrink
        self._digest = Digester()
        self._count = 0
        self._version: Version | None = None

    @property
    def version(self) -> Version | None:
        """The version of the bytes read, once the end was reached; None until then."""
        return self._version

    def readable(self) -> bool:
        """Always true: the file is open for reading."""
        return True

    def fileno(self) -> int:
        """The file descriptor (for `fstat` and the like; reading it directly skips the hash)."""
        return self._fd

    def readinto(self, buffer: WriteableBuffer) -> int:
        """Read up to `len(buffer)` bytes into `buffer`; 0 at the end of the file."""
        if self.closed:
            raise ValueError("I/O operation on a closed FileReader")
        view = memoryview(buffer).cast("B")
        if not view:
            return 0
        try:
            count = os.readv(self._fd, [view])
            if count == 0 and self._version is None:
                after = os.fstat(self._fd)
                self._version = _version(self._digest.hexdigest(), self._count, after)
        except OSError as exc:
            raise from_oserror(exc, self.path, "read") from exc
        self._digest.update(view[:count])
        self._count += count
        return count

    def close(self) -> None:
        """Close the file descriptor."""
        if not self.closed:
            try:
                os.close(self._fd)
            finally:
                super().close()


def hash_file(dir_fd: int, name: str, display: str) -> tuple[Version, os.stat_result] | None:
    """The version of regular file `name` in `dir_fd` (streamed, no cap); None when absent."""
    try:
        fd, _ = open_regular(dir_fd, name, display)
    except SandboxError as exc:
        if exc.code == "not_found":
            return None
        raise
    try:
        digest = Digester()
        size = 0
        while chunk := os.read(fd, _CHUNK):
            digest.update(chunk)
            size += len(chunk)
        after = os.fstat(fd)
    except OSError as exc:
        raise from_oserror(exc, display, "read") from exc
    finally:
        os.close(fd)
    return _version(digest.hexdigest(), size, after), after


def _too_large(display: str, size: int, cap: int) -> SandboxError:
    return SandboxError(
        "too_large",
        f"{display!r} is {size} bytes or more, over the cap of {cap} bytes for reading a whole "
        "file, so it is too large to change this way. Read it in ranges instead (read with "
        "offset and limit, e.g. offset=1 limit=200); exact edits (edit, multi_edit) and "
        "apply_patch updates with context lines stream it; or change it with another tool.",
        path=display,
    )


def _meta_at(dir_fd: int, name: str, like: os.stat_result) -> FileMeta:
    """The metadata of `name` in `dir_fd`, read from it while it is still the inode `like`
    describes; else the owner and mode of `like` alone."""
    try:
        fd = os.open(name, _READ_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        return FileMeta.of_stat(
            like,
            (f"its extended attributes (the file cannot be opened to read them: {why(exc)})",),
        )
    try:
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) != (like.st_dev, like.st_ino) or not stat.S_ISREG(st.st_mode):
            return FileMeta.of_stat(like)
        return file_meta(fd, st)
    finally:
        os.close(fd)


def temp_name() -> str:
    """A fresh temp-file name; the suffix marks it for the crash sweep."""
    return f".{secrets.token_hex(8)}{TEMP_SUFFIX}"


def atomic_write(
    dir_fd: int,
    name: str,
    data: bytes,
    display: str,
    *,
    tmp: str,
    like: os.stat_result | None,
    digest: str | None = None,
    meta: FileMeta | None = None,
) -> Version:
    """Replace `name` in `dir_fd` with `data` atomically and durably, via the temp file `tmp`.

    `like` is the stat of the file being replaced: its mode, owner (where allowed) and extended
    attributes (`meta` when the caller read them, else read from that file now) are kept, and
    what could not be is named in the version's `unkept`; a new file gets 0o666 minus the umask.
    The rename replaces the directory entry, so other hard links to the old file keep the old
    bytes. `digest`, when the caller knows it, spares hashing `data` again.
    """
    if like is not None and meta is None:
        meta = _meta_at(dir_fd, name, like)
    try:
        fd = os.open(tmp, _TEMP_FLAGS, 0o666, dir_fd=dir_fd)
    except OSError as exc:
        raise from_oserror(exc, display, "create a temp file for") from exc
    renamed = False
    unkept: tuple[str, ...] = ()
    try:
        if like is not None:
            take_mode(fd, like)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if meta is not None:
            unkept = take_meta(fd, meta)
        os.fsync(fd)
        os.rename(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        renamed = True
        os.fsync(dir_fd)
        st = os.fstat(fd)  # after the rename, which changes the inode's ctime
    except OSError as exc:
        raise from_oserror(exc, display, "write") from exc
    finally:
        os.close(fd)
        if not renamed:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=dir_fd)
    return _version(digest_of(data) if digest is None else digest, len(data), st, unkept)


def _version(digest: str, size: int, st: os.stat_result, unkept: tuple[str, ...] = ()) -> Version:
    return Version(digest, size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns, time.time_ns(), unkept)


# A change of an inode within one tick of the file system's clock may keep its timestamps: a stat
# taken that soon after the last change proves nothing about later changes ("racy" in git's words).
# Ticks are at most 10 ms on Linux; timestamps kept in whole milliseconds or coarser (FAT, some
# network file systems) get a wider margin.
_RACY_NS = 20_000_000
_COARSE_RACY_NS = 2_000_000_000


def same_inode_state(version: Version, st: os.stat_result) -> bool:
    """Whether `st` proves the file still holds the content `version` was read as.

    True only when `st` is the same inode with the same size, mtime and ctime, and `version`'s stat
    was taken long enough after that inode's last change that a later change would have moved its
    ctime (ctime cannot be set by a program, unlike mtime). False means "unknown": hash it.
    """
    if version.seen_ns < 0 or version.ctime_ns < 0:
        return False
    same = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns) == (
        version.inode,
        version.size,
        version.mtime_ns,
        version.ctime_ns,
    )
    coarse = version.ctime_ns % 1_000_000 == 0
    margin = _COARSE_RACY_NS if coarse else _RACY_NS
    return same and version.seen_ns - version.ctime_ns > margin


# Stands for "exists, content not hashed" where only existence matters (expect=ABSENT).
PRESENT = Version(digest="", size=-1, mtime_ns=-1, inode=-1)


def lstat_regular(dir_fd: int, name: str, rel: str) -> os.stat_result | None:
    """The entry's stat without following; None when absent; loop if it is now a symlink."""
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise from_oserror(exc, rel, "inspect") from exc
    if stat.S_ISLNK(st.st_mode):
        raise SandboxError("loop", f"{rel!r} turned into a symlink; retry.", path=rel)
    check_regular(st, rel)
    return st


def check_expect(expect: Version | AbsentType | None, current: Version | None, rel: str) -> None:
    """Raise stale or exists unless `current` satisfies the compare-and-swap `expect`."""
    if expect is None:
        return
    if expect is ABSENT:
        if current is not None:
            raise SandboxError(
                "exists",
                f"{rel!r} already exists; read it and pass its version as expect= to replace it.",
                path=rel,
            )
        return
    if current is None or current.digest != expect.digest:
        state = "was deleted" if current is None else "changed"
        raise SandboxError(
            "stale",
            f"{rel!r} {state} since the expected version; read it again and redo the change.",
            path=rel,
        )


def remove_dir(dir_fd: int, name: str, st: os.stat_result, display: str) -> None:
    """Remove the empty directory `name` in `dir_fd` (`st` is its stat, not followed).

    Anything but a directory is refused; the kernel refuses a directory that is not empty, or one
    swapped for a symlink since `st` was taken (removal by name never follows a link).
    """
    if not stat.S_ISDIR(st.st_mode):
        kind = (
            "symlink"
            if stat.S_ISLNK(st.st_mode)
            else "file"
            if stat.S_ISREG(st.st_mode)
            else "special file"
        )
        raise SandboxError(
            "not_a_directory",
            f"{display!r} is a {kind}, not a directory; only an empty directory can be removed.",
            path=display,
        )
    try:
        os.rmdir(name, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno in (errno.ENOTEMPTY, errno.EEXIST):
            raise SandboxError(
                "not_empty",
                f"{display!r} is not empty, so it was left in place; remove what it holds first.",
                path=display,
            ) from exc
        raise from_oserror(exc, display, "remove directory") from exc
    try:
        os.fsync(dir_fd)
    except OSError as exc:
        raise from_oserror(exc, display, "remove directory") from exc
