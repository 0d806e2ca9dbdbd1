"""One file's write, from the tool that located it down to the commit, and its temp file.

`FileWrite` is the one record of a file's change. The committer (`_intents`) writes each new
content to a temp file beside its target here — whole bytes or pieces by `writev`, a splice of
the file as it is (its unchanged ranges copied by the kernel), or a staged splice adopted as it
is — with the replaced file's metadata, synced, and hashed while it is written.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ._digest import Digester, PendingDigest, Prefix
from ._errors import SandboxError, from_oserror
from ._files import AbsentType, Version, check_regular, open_regular
from ._gate import raced
from ._metadata import FileMeta, file_meta, take_meta, take_mode
from ._paths import Resolved
from ._splice import Splice, write_splice
from ._staging import Staged

__all__ = ["FileWrite", "adopt", "write_splice_temp", "write_temp", "writev_all"]


@dataclass(frozen=True)
class FileWrite:
    """One file of an all-or-nothing change: `data` None deletes the file. The one record of a
    file's change, from the tool that located it down to the commit.

    `expect` is what the file must hold now: a `Version` (its content), or `ABSENT` (must not exist).
    `data` may be a list of pieces (views of larger buffers), written in order without joining,
    or a `Splice` of the file as it is now (its unchanged ranges copied by the kernel, never read
    into memory: the way to change a file of any size), or a `Staged` splice already written
    while the caller read the file (its temp file is renamed into place).
    `digest`, when given, is what the new content must hash to (e.g. content rebuilt to match a
    kept blob): a mismatch is refused as blob_corrupt before anything is replaced.
    """

    path: str
    data: bytes | Sequence[bytes | memoryview] | Splice | Staged | None
    expect: Version | AbsentType
    digest: str | None = None
    prefix: Prefix | None = None
    """The digest state of the new content's first bytes — `(count, state)` — when the caller
    has it (a state of the old content they share, see `PendingDigest`): only the rest is hashed
    while it is written. The caller vouches that the state is that of those bytes."""
    on_step: Callable[[tuple[int, Digester]], object] | None = None
    """Receives the digest states of the new content as it is hashed (see `PendingDigest`)."""
    base: bytes | None = None
    """The bytes `expect` names, when the caller holds them. Not read here: they and `span` let
    the commit's recorder keep the new content as a recipe on the old one."""
    span: tuple[int, int, bytes] | None = None
    """The one span of `base` the change replaced (`base[start:stop]` became the bytes), when
    the caller knows it."""

    @property
    def expect_digest(self) -> str | None:
        """The digest the file must hold now; None when it must not exist."""
        return self.expect.digest if isinstance(self.expect, Version) else None


def write_splice_temp(
    entry: Resolved, tmp: str, splice: Splice, rel: str, meta: FileMeta | None
) -> Version:
    """Write `splice` of the target to the temp file `tmp` with the target's metadata; sync it.

    The target must still have the size the splice was made on (a file that changed since is
    stale); its content was checked against the expected version just before.
    """
    assert entry.name is not None and entry.stat is not None
    src, st = open_regular(entry.dir_fd, entry.name, rel)
    try:
        if st.st_size != splice.size:
            raise SandboxError(
                "stale", f"{rel!r} changed since the expected version; read it again and redo "
                "the change.", path=rel)  # fmt: skip
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                         0o666, dir_fd=entry.dir_fd)  # fmt: skip
        except OSError as exc:
            raise from_oserror(exc, rel, "create a temp file for") from exc
        try:
            take_mode(fd, st)
            size = write_splice(src, fd, splice)
            unkept = take_meta(fd, meta or file_meta(src, st))
            os.fsync(fd)
            out = os.fstat(fd)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=entry.dir_fd)
            raise from_oserror(exc, rel, "write") from exc
        finally:
            os.close(fd)
    finally:
        os.close(src)
    return Version(splice.digest, size, out.st_mtime_ns, out.st_ino, unkept=unkept)


def adopt(entry: Resolved, staged: Staged, rel: str, meta: FileMeta | None) -> Version:
    """The version of the `staged` temp file, checked to be the writer's file beside the target
    and to have been made from the target's current inode (a file replaced since is stale); it
    takes the target's metadata as it is now (`meta`)."""
    assert entry.stat is not None
    try:
        here = os.stat(staged.name, dir_fd=entry.dir_fd, follow_symlinks=False)
        ours = os.fstat(staged.fd)
    except OSError as exc:
        raise from_oserror(exc, rel, "write") from exc
    if (here.st_dev, here.st_ino) != (ours.st_dev, ours.st_ino) or not stat.S_ISREG(here.st_mode):
        raise raced(rel)
    was = staged.source
    if (entry.stat.st_dev, entry.stat.st_ino, entry.stat.st_size) != (
        was.st_dev, was.st_ino, was.st_size):  # fmt: skip
        raise SandboxError(
            "stale", f"{rel!r} changed since the expected version; read it again and redo "
            "the change.", path=rel)  # fmt: skip
    unkept = take_meta(staged.fd, meta or FileMeta.of_stat(entry.stat))
    try:
        os.fsync(staged.fd)  # the content was synced by the writer; this is the metadata
    except OSError as exc:
        raise from_oserror(exc, rel, "write") from exc
    return Version(staged.digest, staged.size, ours.st_mtime_ns, ours.st_ino, unkept=unkept)


def write_temp(
    entry: Resolved, tmp: str, write: FileWrite, rel: str, meta: FileMeta | None
) -> Version:
    """Write `data` to the temp file `tmp` beside the target, with the target's metadata (`meta`,
    read when the target was checked); sync it.

    The content is hashed once, on another thread while the kernel writes it back (the hash
    releases the interpreter lock), so the digest costs no time of its own on a large file; with
    `write.prefix` only the bytes after the prefix are hashed.
    """
    assert entry.name is not None and write.data is not None
    data = write.data
    assert not isinstance(data, Staged)  # adopted, never written here
    like = None
    if entry.stat is not None:
        check_regular(entry.stat, rel)
        like = entry.stat
    if isinstance(data, Splice):
        if like is None:
            raise SandboxError("not_found", f"{rel!r} does not exist; nothing to splice.", path=rel)
        return write_splice_temp(entry, tmp, data, rel, meta)
    pieces = (
        [memoryview(data).cast("B")]
        if isinstance(data, bytes)
        else [memoryview(piece).cast("B") for piece in data]
    )
    size = sum(len(piece) for piece in pieces)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o666, dir_fd=entry.dir_fd)  # fmt: skip
    except OSError as exc:
        raise from_oserror(exc, rel, "create a temp file for") from exc
    pending: PendingDigest | None = None
    try:
        if like is not None:
            take_mode(fd, like)
        if write.prefix is None:
            pending = PendingDigest(pieces, on_step=write.on_step)
        else:
            count, state = write.prefix
            pending = PendingDigest(
                _after(pieces, count), start=(count, state.copy()), on_step=write.on_step
            )
        writev_all(fd, pieces)
        unkept = take_meta(fd, meta or FileMeta.of_stat(like)) if like is not None else ()
        os.fsync(fd)
        st = os.fstat(fd)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=entry.dir_fd)
        if pending is not None:
            with contextlib.suppress(Exception):
                pending.result()  # no worker thread outlives the call
        raise from_oserror(exc, rel, "write") from exc
    finally:
        os.close(fd)
    assert pending is not None
    # Versions of not-yet-renamed files carry no inode state: the rename changes their ctime.
    return Version(pending.result(), size, st.st_mtime_ns, st.st_ino, unkept=unkept)


_IOV_MAX = 1024


def _after(pieces: list[memoryview], count: int) -> list[memoryview]:
    """The pieces without their first `count` bytes."""
    rest = []
    for piece in pieces:
        if count >= len(piece):
            count -= len(piece)
        else:
            rest.append(piece[count:])
            count = 0
    if count:
        raise ValueError("the hashed prefix is longer than the content")
    return rest


def writev_all(fd: int, pieces: list[memoryview]) -> None:
    """Write every piece in order (short writes resumed), without joining them."""
    pending = [p for p in pieces if len(p)]
    first = 0  # index of the first piece not yet wholly written (no list shifting: linear)
    while first < len(pending):
        written = os.writev(fd, pending[first : first + _IOV_MAX])
        while written and first < len(pending):
            if written >= len(pending[first]):
                written -= len(pending[first])
                first += 1
            else:
                pending[first] = pending[first][written:]
                written = 0
