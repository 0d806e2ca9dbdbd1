"""A content-addressed blob store in the state folder.

Blobs live in `<state>/blobs/<first two hex digits>/<rest>`, named by the digest of their content
(see `_digest`). Ids are opaque to callers: they are only ever handed back to `get` and `has`. A
blob is written to `<state>/tmp/<pid>-...`, synced and renamed into place, so a crash never leaves a
half blob under a real id; every `get` re-hashes the bytes, so a blob damaged on disk is refused
rather than returned. Blobs are opened like user files: no symlinks, no blocking, one hard link.

An undo snapshot usually costs no copy: `keep` links the inode of a file that is about to be
replaced by rename into the store under its known id (see `keep` for when it copies instead, and
says why), and `seal` makes it read-only once the rename has left the store with the only link.

A blob that only spares reading a file again (`put(..., durable=False)`: a content the tools
wrote or read, whose file holds it anyway) is not synced and is marked by its mode (0440 instead
of 0400): `keep` links the file beside such a copy and `seal` puts the link in its place, so a
file read, or created, and then changed leaves its replaced inode in the store and no copy of it.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import pathlib
import re
import stat
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ._digest import DIGEST_HEX, digest_of
from ._errors import SandboxError, from_oserror
from ._files import temp_name
from ._splice import copy_range
from ._state import StateDir, open_state_file, state_error

__all__ = ["BlobStore", "Kept"]

_ID = re.compile(rf"[0-9a-f]{{{DIGEST_HEX}}}")
_FICLONE = 0x40049409  # ioctl: share the source's extents (btrfs, xfs); EOPNOTSUPP elsewhere
_SEALED = 0o400
_SHARD_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_UNSYNCED = 0o440  # a copy not synced to disk, kept while it matches its id (see `put`)
# Tests set this to take the copy path a state on another file system would take.
_FORCE_COPY = False
_Fill = Callable[[int], Literal["cloned", "copied"]]
_WHY_LINK_FAILED = {
    errno.EXDEV: "the state folder is on another file system than the file",
    errno.EPERM: "the kernel refused to link it (a file of another user, under "
    "fs.protected_hardlinks)",
    errno.EACCES: "the kernel refused to link it (no permission)",
    errno.EMLINK: "the file has as many hard links as the file system allows",
    errno.ENOTSUP: "the file system does not support hard links",
}


@dataclass(frozen=True)
class Kept:
    """How `keep` kept a content: `how` is linked (the inode itself: `seal` it after the rename),
    stored (the store held it already), cloned (a reflink: the blocks are shared, no data copied)
    or copied (`why` says why no link could be made); `size` is the bytes a copy took."""

    how: Literal["linked", "stored", "cloned", "copied"]
    why: str | None = None
    size: int = 0

    @property
    def linked(self) -> bool:
        """Whether the store now shares the file's inode (until the rename replaces the file)."""
        return self.how == "linked"


class BlobStore:
    """Content-addressed bytes: `put` returns an opaque id, `get` returns the bytes, `has` checks.

    Obtain it from `Sandbox.store`; it reads and writes the state folder directly, which the public
    file API refuses to touch.
    """

    def __init__(self, state: StateDir) -> None:
        self._state = state
        # Links `keep` made beside an unsynced copy, in tmp/ by blob id, until `seal` puts them in
        # its place: a reader of the blob never meets the two-link inode a pending rename shares.
        self._aside: dict[str, str] = {}
        self._aside_lock = threading.Lock()

    def put(
        self, data: bytes | memoryview, *, blob_id: str | None = None, durable: bool = True
    ) -> str:
        """Store `data` atomically and durably; return its id.

        `blob_id`, when the caller already knows the digest of `data`, spares hashing it again.
        Storing bytes that are already there writes nothing and reads nothing back (`get` checks
        every blob against its id anyway); only a missing one, or one left sharing an inode by an
        interrupted `keep`, is written anew. Without `durable` the blob is not synced (a content
        a file holds anyway, kept to spare reading it; see the module's docstring): a crash may
        take it, and `get` then refuses it by its id.
        """
        blob_id = digest_of(data) if blob_id is None else blob_id
        fd = self._shard(blob_id, create=True)
        try:
            found = self._found(fd, blob_id, len(data))
            if found is None or (durable and stat.S_IMODE(found.st_mode) == _UNSYNCED):
                self._write(fd, blob_id, lambda tfd: _write_all(tfd, data), durable=durable)
        finally:
            os.close(fd)
        return blob_id

    def keep(self, fd: int, st: os.stat_result, blob_id: str) -> Kept:
        """Keep the content of the open file `fd` (stat `st`, content digest `blob_id`) as a blob.

        The caller is about to replace that file by renaming a new one over it, which leaves the
        old inode untouched: linking it into the store keeps its content without copying a byte.
        The result says how it was kept: when linked, call `seal` after the rename, or
        `unlink_kept` when the rename does not happen (until then the inode has two names). An
        unsynced copy of the same content (see `put`) stays in place until `seal` replaces it by
        the link (made aside meanwhile), so the blob is readable throughout.

        It copies instead (a reflink where the file system offers one) when linking is not possible
        or not safe: the state is on another file system (EXDEV); the file has other hard links
        (the blob would share the in-place writes made through them later); or the kernel refuses
        the link (a file owned by another user under `fs.protected_hardlinks`).
        """
        shard = self._shard(blob_id, create=True)
        name = blob_id[2:]
        try:
            found = self._found(shard, blob_id, st.st_size)
            if found is not None and stat.S_IMODE(found.st_mode) != _UNSYNCED:
                return Kept("stored")
            why = "other hard links to the file would share its later in-place writes"
            if _FORCE_COPY:
                why = "copies are forced (a test)"
            elif st.st_nlink == 1:
                try:
                    # No sync of the old file's data: what its writer left unsynced is at the same
                    # risk in the file itself, and `get` refuses a blob that lost it.
                    if found is None:
                        self._drop_stale(shard, name)  # left sharing an inode, or damaged
                        os.link(f"/proc/self/fd/{fd}", name, dst_dir_fd=shard,
                                follow_symlinks=True)  # fmt: skip
                        os.fsync(shard)
                    elif not self._link_aside(fd, blob_id):
                        return Kept("stored")  # another commit is keeping it: the copy stays
                    return Kept("linked")
                except OSError as exc:
                    if exc.errno not in (*_WHY_LINK_FAILED, errno.ENOENT, errno.EEXIST):
                        raise from_oserror(exc, blob_id, "store blob") from exc
                    why = _WHY_LINK_FAILED.get(exc.errno, "the link could not be made")
            how = self._write(shard, blob_id, lambda tfd: _copy_file(fd, tfd, st.st_size))
            return Kept("cloned") if how == "cloned" else Kept("copied", why, st.st_size)
        finally:
            os.close(shard)

    def _link_aside(self, fd: int, blob_id: str) -> bool:
        """Link the open file `fd` into tmp/ for `seal` to put over the blob's unsynced copy;
        False when another commit in this process has one waiting already."""
        tmp_dir = self._state.subdir("tmp")  # swept after a crash, like `_write`'s files
        tmp = f"{os.getpid()}-{temp_name().lstrip('.')}"
        with self._aside_lock:
            if blob_id in self._aside:
                return False
            os.link(f"/proc/self/fd/{fd}", tmp, dst_dir_fd=tmp_dir, follow_symlinks=True)
            self._aside[blob_id] = tmp
        return True

    def seal(self, blob_id: str) -> None:
        """Make a blob linked by `keep` read-only, now that the store holds its only link (a link
        made aside replaces the unsynced copy first)."""
        shard = self._shard(blob_id, create=False)
        with self._aside_lock:
            tmp = self._aside.pop(blob_id, None)
        if shard < 0:
            return
        try:
            if tmp is not None:
                tmp_dir = self._state.subdir("tmp")
                try:
                    os.rename(tmp, blob_id[2:], src_dir_fd=tmp_dir, dst_dir_fd=shard)
                    os.fsync(shard)
                except OSError:
                    self._drop_stale(tmp_dir, tmp)
                    return  # the unsynced copy stays the snapshot: it is not marked durable
            with contextlib.suppress(OSError):  # another owner's inode: the digest check remains
                os.chmod(blob_id[2:], _SEALED, dir_fd=shard, follow_symlinks=False)
        finally:
            os.close(shard)

    def unlink_kept(self, blob_id: str) -> None:
        """Drop the store's link made by `keep` when the file it shares was not replaced after all."""
        with self._aside_lock:
            tmp = self._aside.pop(blob_id, None)
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=self._state.subdir("tmp"))
            return
        shard = self._shard(blob_id, create=False)
        if shard < 0:
            return
        try:
            with contextlib.suppress(OSError):
                st = os.stat(blob_id[2:], dir_fd=shard, follow_symlinks=False)
                if st.st_nlink > 1:
                    os.unlink(blob_id[2:], dir_fd=shard)
        finally:
            os.close(shard)

    def get(self, blob_id: str) -> bytes:
        """The bytes stored under `blob_id`; raises blob_missing or blob_corrupt."""
        self._check_id(blob_id)
        data = self._read(blob_id)
        if data is None:
            raise _missing(blob_id)
        if digest_of(data) != blob_id:
            # Its content is lost: drop it, so that storing the same bytes again repairs it.
            self._drop_damaged(blob_id)
            raise SandboxError(
                "blob_corrupt",
                f"Blob {blob_id} is damaged on disk (its bytes no longer match its id). The "
                "content it held is lost; do not rely on it.",
                path=blob_id,
            )
        return data

    def _drop_damaged(self, blob_id: str) -> None:
        shard = self._shard(blob_id, create=False)
        if shard >= 0:
            try:
                self._drop_stale(shard, blob_id[2:])
            except OSError:
                pass
            finally:
                os.close(shard)

    def read_range(self, blob_id: str, start: int, stop: int) -> bytes:
        """Bytes `start:stop` of a blob, unchecked: the caller checks what it builds from them
        against the digest it must have (raises blob_missing)."""
        self._check_id(blob_id)
        shard = self._shard(blob_id, create=False)
        if shard < 0:
            raise _missing(blob_id)
        try:
            bfd = open_state_file(shard, blob_id[2:], self._blob_path(blob_id), os.O_RDONLY)
        except FileNotFoundError:
            raise _missing(blob_id) from None
        finally:
            os.close(shard)
        try:
            data = os.pread(bfd, stop - start, start)
        except OSError as exc:
            raise from_oserror(exc, blob_id, "read blob") from exc
        finally:
            os.close(bfd)
        if len(data) != stop - start:
            raise _missing(blob_id)
        return data

    def has(self, blob_id: str) -> bool:
        """Whether a blob with this id is stored (its bytes are not re-hashed)."""
        if not isinstance(blob_id, str) or not _ID.fullmatch(blob_id):
            return False
        fd = self._shard(blob_id, create=False)
        if fd < 0:
            return False
        try:
            return self._present(fd, blob_id, None)
        finally:
            os.close(fd)

    def _present(self, shard: int, blob_id: str, size: int | None) -> bool:
        """A blob is there: a regular file with one link (and the expected size, when given)."""
        return self._found(shard, blob_id, size) is not None

    @staticmethod
    def _found(shard: int, blob_id: str, size: int | None) -> os.stat_result | None:
        """The stat of the blob when `_present` holds, else None."""
        try:
            st = os.stat(blob_id[2:], dir_fd=shard, follow_symlinks=False)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise from_oserror(exc, blob_id, "look up blob") from exc
        # Two links: a `keep` whose rename never happened left the blob sharing a user's file.
        if stat.S_ISREG(st.st_mode) and st.st_nlink == 1 and (size is None or st.st_size == size):
            return st
        return None

    @staticmethod
    def _drop_stale(shard: int, name: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name, dir_fd=shard)

    def _write(
        self, shard: int, blob_id: str, fill: _Fill, *, durable: bool = True
    ) -> Literal["cloned", "copied"]:
        tmp_dir = self._state.subdir("tmp")
        tmp = f"{os.getpid()}-{temp_name().lstrip('.')}"
        try:
            tfd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                          0o600, dir_fd=tmp_dir)  # fmt: skip
            try:
                how = fill(tfd)
                if durable:
                    os.fsync(tfd)
                os.fchmod(tfd, _SEALED if durable else _UNSYNCED)
            finally:
                os.close(tfd)
            os.rename(tmp, blob_id[2:], src_dir_fd=tmp_dir, dst_dir_fd=shard)
            if durable:
                os.fsync(shard)
            return how
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=tmp_dir)
            raise from_oserror(exc, blob_id, "store blob") from exc

    @staticmethod
    def _check_id(blob_id: str) -> None:
        if not isinstance(blob_id, str) or not _ID.fullmatch(blob_id):
            raise _missing(blob_id)

    def _shard(self, blob_id: str, *, create: bool) -> int:
        """A descriptor of the blob's shard directory (caller closes), or -1 when absent."""
        blobs = self._state.subdir("blobs")
        shard = blob_id[:2]
        display = self._state.path / "blobs" / shard
        try:
            return os.open(shard, _SHARD_FLAGS, dir_fd=blobs)
        except FileNotFoundError:
            if not create:
                return -1
        except OSError as exc:
            raise state_error(exc, display, "open the blob folder", "is not a folder") from exc
        # Made on first use only: a shard that exists (the usual case) costs one open, no mkdir.
        try:
            os.mkdir(shard, 0o777, dir_fd=blobs)
        except FileExistsError:
            pass
        except OSError as exc:
            raise from_oserror(exc, shard, "create blob folder") from exc
        try:
            return os.open(shard, _SHARD_FLAGS, dir_fd=blobs)
        except OSError as exc:
            raise state_error(exc, display, "open the blob folder", "is not a folder") from exc

    def _read(self, blob_id: str) -> bytes | None:
        fd = self._shard(blob_id, create=False)
        if fd < 0:
            return None
        try:
            bfd = open_state_file(fd, blob_id[2:], self._blob_path(blob_id), os.O_RDONLY)
        except FileNotFoundError:
            return None
        finally:
            os.close(fd)
        try:
            with open(bfd, "rb", closefd=False) as fh:
                return fh.read()
        except OSError as exc:
            raise from_oserror(exc, blob_id, "read blob") from exc
        finally:
            os.close(bfd)

    def _blob_path(self, blob_id: str) -> pathlib.Path:
        return self._state.path / "blobs" / blob_id[:2] / blob_id[2:]


def _write_all(fd: int, data: bytes | memoryview) -> Literal["copied"]:
    view = memoryview(data).cast("B")
    while view:
        view = view[os.write(fd, view) :]
    return "copied"


def _copy_file(src: int, dst: int, size: int) -> Literal["cloned", "copied"]:
    """Copy the whole file `src` into the empty `dst`: a reflink if offered, else in the kernel."""
    try:
        fcntl.ioctl(dst, _FICLONE, src)
        return "cloned"
    except OSError:
        pass
    copy_range(src, dst, 0, size)
    return "copied"


def _missing(blob_id: object) -> SandboxError:
    return SandboxError(
        "blob_missing",
        f"No blob with id {blob_id!r} is stored. Ids come only from put(); the blob may have been "
        "removed with the state folder.",
        path=str(blob_id),
    )
