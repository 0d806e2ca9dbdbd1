"""A content-addressed blob store in the state folder.

Blobs live in `<state>/blobs/<first two hex digits>/<rest>`, named by the sha256 of their content.
Ids are opaque to callers: they are only ever handed back to `get` and `has`. A blob is written to
`<state>/tmp/<pid>-...`, synced and renamed into place, so a crash never leaves a half blob under a
real id; every `get` re-hashes the bytes, so a blob damaged on disk is reported rather than
returned. Blobs are opened like user files: no symlinks, no blocking, one hard link.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pathlib
import re
import stat

from ._errors import SandboxError, from_oserror
from ._files import temp_name
from ._state import StateDir, corrupt, open_state_file

__all__ = ["BlobStore"]

_ID = re.compile(r"[0-9a-f]{64}")


class BlobStore:
    """Content-addressed bytes: `put` returns an opaque id, `get` returns the bytes, `has` checks.

    Obtain it from `Sandbox.store`; it reads and writes the state folder directly, which the public
    file API refuses to touch.
    """

    def __init__(self, state: StateDir) -> None:
        self._state = state

    def put(self, data: bytes) -> str:
        """Store `data` atomically and durably; return its id.

        Storing the same bytes again writes nothing: the stored copy is read back and checked
        against the id (the cost of one read and one hash), and only a missing or damaged copy
        is written anew.
        """
        blob_id = hashlib.sha256(data).hexdigest()
        fd = self._shard(blob_id, create=True)
        name = blob_id[2:]
        try:
            if self._intact(fd, name, blob_id):
                return blob_id
            self._write(fd, name, data, blob_id)
        finally:
            os.close(fd)
        return blob_id

    def _write(self, shard: int, name: str, data: bytes, blob_id: str) -> None:
        tmp_dir = self._state.subdir("tmp")
        tmp = f"{os.getpid()}-{temp_name().lstrip('.')}"
        try:
            tfd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                          0o600, dir_fd=tmp_dir)  # fmt: skip
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(tfd, view) :]
                os.fsync(tfd)
            finally:
                os.close(tfd)
            os.rename(tmp, name, src_dir_fd=tmp_dir, dst_dir_fd=shard)
            os.fsync(shard)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=tmp_dir)
            raise from_oserror(exc, blob_id, "store blob") from exc

    def get(self, blob_id: str) -> bytes:
        """The bytes stored under `blob_id`; raises blob_missing or blob_corrupt."""
        self._check_id(blob_id)
        data = self._read(blob_id)
        if data is None:
            raise _missing(blob_id)
        if hashlib.sha256(data).hexdigest() != blob_id:
            raise SandboxError(
                "blob_corrupt",
                f"Blob {blob_id} is damaged on disk (its bytes no longer match its id). The "
                "content it held is lost; do not rely on it.",
                path=blob_id,
            )
        return data

    def has(self, blob_id: str) -> bool:
        """Whether a blob with this id is stored (its bytes are not re-hashed)."""
        if not isinstance(blob_id, str) or not _ID.fullmatch(blob_id):
            return False
        fd = self._shard(blob_id, create=False)
        if fd < 0:
            return False
        try:
            st = os.stat(blob_id[2:], dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise from_oserror(exc, blob_id, "look up blob") from exc
        finally:
            os.close(fd)
        return stat.S_ISREG(st.st_mode) and st.st_nlink == 1

    @staticmethod
    def _check_id(blob_id: str) -> None:
        if not isinstance(blob_id, str) or not _ID.fullmatch(blob_id):
            raise _missing(blob_id)

    def _shard(self, blob_id: str, *, create: bool) -> int:
        """A descriptor of the blob's shard directory (caller closes), or -1 when absent."""
        blobs = self._state.subdir("blobs")
        shard = blob_id[:2]
        if create:
            try:
                os.mkdir(shard, 0o777, dir_fd=blobs)
            except FileExistsError:
                pass
            except OSError as exc:
                raise from_oserror(exc, shard, "create blob folder") from exc
        try:
            return os.open(shard, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=blobs)
        except FileNotFoundError:
            return -1
        except OSError as exc:
            raise corrupt(self._state.path / "blobs" / shard, "is not a folder") from exc

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

    def _intact(self, fd: int, name: str, blob_id: str) -> bool:
        try:
            bfd = open_state_file(fd, name, self._blob_path(blob_id), os.O_RDONLY)
        except FileNotFoundError:
            return False
        try:
            digest = hashlib.sha256()
            while chunk := os.read(bfd, 1 << 20):
                digest.update(chunk)
            return digest.hexdigest() == blob_id
        finally:
            os.close(bfd)


def _missing(blob_id: object) -> SandboxError:
    return SandboxError(
        "blob_missing",
        f"No blob with id {blob_id!r} is stored. Ids come only from put(); the blob may have been "
        "removed with the state folder.",
        path=str(blob_id),
    )
