"""A content-addressed blob store in the state folder.

Blobs live in `<state>/blobs/<first two hex digits>/<rest>`, named by the sha256 of their content.
Ids are opaque to callers: they are only ever handed back to `get` and `has`. Writes go through the
same temp-file-and-rename path as file writes, so a crash never leaves a half blob under a real id;
every `get` re-hashes the bytes, so a blob damaged on disk is reported rather than returned.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat

from ._errors import SandboxError, from_oserror
from ._files import atomic_write, temp_name
from ._state import StateDir

__all__ = ["BlobStore"]

_ID = re.compile(r"[0-9a-f]{64}")
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


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
            tmp = temp_name()
            with self._state.pending(f"{self._state.name}/blobs/{blob_id[:2]}", tmp):
                atomic_write(fd, name, data, f"blob {blob_id}", tmp=tmp, like=None)
        finally:
            os.close(fd)
        return blob_id

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
        return stat.S_ISREG(st.st_mode)

    @staticmethod
    def _check_id(blob_id: str) -> None:
        if not isinstance(blob_id, str) or not _ID.fullmatch(blob_id):
            raise _missing(blob_id)

    def _shard(self, blob_id: str, *, create: bool) -> int:
        """A descriptor of the blob's shard directory (caller closes), or -1 when absent."""
        try:
            blobs = self._state.subdir("blobs", create=create)
        except SandboxError:
            if create:
                raise
            return -1
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
            raise from_oserror(exc, shard, "open blob folder") from exc

    def _read(self, blob_id: str) -> bytes | None:
        fd = self._shard(blob_id, create=False)
        if fd < 0:
            return None
        try:
            bfd = os.open(blob_id[2:], _READ, dir_fd=fd)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise from_oserror(exc, blob_id, "read blob") from exc
        finally:
            os.close(fd)
        try:
            if not stat.S_ISREG(os.fstat(bfd).st_mode):
                return None
            with open(bfd, "rb", closefd=False) as fh:
                return fh.read()
        finally:
            os.close(bfd)

    def _intact(self, fd: int, name: str, blob_id: str) -> bool:
        try:
            bfd = os.open(name, _READ, dir_fd=fd)
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise from_oserror(exc, blob_id, "read blob") from exc
        try:
            if not stat.S_ISREG(os.fstat(bfd).st_mode):
                return False
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
