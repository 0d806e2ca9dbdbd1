"""The `Sandbox` facade: confined, deny-checked, atomic file access beneath one root.

Symlinks: reads, writes, `version`, `lock` and `delete`'s content check follow a symlink while its
target stays inside the root; a write through an in-root link replaces the *target's* content (the
link stays a link). A final symlink pointing outside, dangling or not, is refused with outside_root
and nothing is created outside. `delete` removes the named entry itself (a link, not its target).

Hard links: a write renames a new file into place, so it breaks the hard link; other names of the
old file keep the old bytes.

Resolving a path and the deny checks live in `_gate`, opening a file for reading in `_reading`,
all-or-nothing changes of several files in `_intents`; this module ties them to the locks, the state
folder (outside the root, see `_state`) and the atomic writes.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import pathlib
import stat
import threading
import warnings
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import TracebackType

from ._digest import Digester
from ._errors import SandboxError, from_oserror
from ._files import (
    ABSENT,
    PRESENT,
    AbsentType,
    FileReader,
    PendingVersion,
    Version,
    atomic_write,
    check_expect,
    check_regular,
    hash_file,
    lstat_regular,
    open_regular,
    read_open,
    read_open_deferred,
    remove_dir,
    same_inode_state,
)
from ._files import temp_name as _temp_name
from ._gate import RETRIES, PathArg, PathGate, check_root, raced, require_file
from ._intents import Committer, Recorder
from ._listing import DirListing, open_listed_dir, walk_listing
from ._lock import DEFAULT_TIMEOUT, LockTable
from ._paths import PathResolver, Resolved, ResolverName
from ._reading import file_version, open_file
from ._staging import SpliceWriter, open_splice_writer
from ._state import StateDir, open_state_file, state_base
from ._store import BlobStore
from ._writes import FileWrite
from .state import StateIndex

__all__ = ["Sandbox"]

_IN_ROOT_STATE = ".edittools"  # where older versions kept state in the root: denied, never read


class Sandbox:
    """File access confined to `root`, with deny patterns, version tokens and atomic writes.

    The root directory is opened once; every path (relative, or absolute inside the root) is
    resolved beneath that descriptor. `deny` takes gitignore-style patterns matched on the resolved
    relative path; a `.edittools/` folder in the root (where older versions kept state) is always
    denied, and never read as state. Writes under `.git` folders are refused (protected) unless
    `allow_git_writes` lifts that rule; reads there stay allowed. A file the caller could not
    write in place (its mode, owner or ACL say so, or root's file with no write bit) is not
    replaced or removed either (permission), since the temp file renamed over it needs only the
    folder's permission; `allow_readonly_writes` lifts that rule. `resolver` picks "openat2",
    "walker" or "auto" (openat2 where the kernel offers it). A file's lock held by another
    process is waited for `lock_timeout` seconds at most, then the call fails with `busy`.

    State lives outside the root: in `state_dir` when given, else `$EDITTOOLS_STATE_DIR`, else
    `$XDG_STATE_HOME/edittools`, else `~/.local/state/edittools`, one folder per root
    (`state_path`). Opening settles what crashed writers left: unfinished multi-file changes are
    completed or rolled back, temp files removed.

    A sandbox holds descriptors (the root, the state folders) and the state database open until
    `close()`; use it as a context manager. One dropped unclosed releases them when it is
    collected, with a `ResourceWarning`, as an unclosed file does.
    """

    root: pathlib.Path
    state_path: pathlib.Path
    store: BlobStore
    index: StateIndex

    def __init__(
        self,
        root: PathArg,
        *,
        deny: Iterable[str] = (),
        state_dir: PathArg | None = None,
        max_read_bytes: int = 64 * 1024 * 1024,
        resolver: ResolverName = "auto",
        allow_git_writes: bool = False,
        allow_readonly_writes: bool = False,
        lock_timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        spelled = os.path.abspath(check_root(root))
        real = os.path.realpath(spelled)
        try:
            fd = os.open(real, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as exc:
            if exc.errno == errno.ENOENT:  # the generic advice would say to create a file
                raise SandboxError(
                    "not_found",
                    f"The sandbox root {spelled!r} does not exist. Check the path, or create the "
                    "folder first.",
                    path=spelled,
                ) from exc
            raise from_oserror(exc, spelled, "open the sandbox root") from exc
        self._held = held = _Held(fd)
        # Holds `held`, never the sandbox: it runs once the sandbox is unreachable.
        self._finalizer = weakref.finalize(self, _dropped, held, f"Sandbox({real!r})")
        # At exit the process releases everything (while daemon threads may still use it).
        self._finalizer.atexit = False  # type: ignore[misc]  # typeshed gives finalize no slots
        self.root = pathlib.Path(real)
        self._max_read_bytes = [max_read_bytes]
        self._allow_git_writes = allow_git_writes
        self._allow_readonly_writes = allow_readonly_writes
        try:
            self._paths = held.paths = PathResolver(real, fd, resolver=resolver)
            self._paths.add_alias(spelled)
            self._gate = PathGate(
                self._paths,
                state_name=_IN_ROOT_STATE,
                deny=list(deny),
                allow_git_writes=allow_git_writes,
                allow_readonly_writes=allow_readonly_writes,
            )
            self._state = held.state = StateDir(self._paths, real, state_base(state_dir))
            self.state_path = self._state.path
            # No callable here refers to the sandbox itself: with no cycle through it, a dropped
            # sandbox is released at once, not at the next garbage collection.
            self._locks = LockTable(
                functools.partial(self._state.subdir, "locks"),
                functools.partial(_open_lock, self.state_path),
                timeout=lock_timeout,
            )
            self.store = BlobStore(self._state)
            self.index = held.index = StateIndex(self._state)
            self._committer = Committer(
                self._gate, self._locks, self._state, self.index, self.store,
                functools.partial(_first, self._max_read_bytes),
            )  # fmt: skip
            self._committer.recover()
            self._state.sweep()
        except BaseException:
            self.close()
            raise

    @property
    def max_read_bytes(self) -> int:
        """The cap of `read_bytes` when the call gives none."""
        return self._max_read_bytes[0]

    @max_read_bytes.setter
    def max_read_bytes(self, value: int) -> None:
        self._max_read_bytes[0] = value

    @property
    def resolver(self) -> str:
        """Which resolver is in use: "openat2" or "walker"."""
        return self._paths.name

    def name_of(self, path: PathArg) -> str:
        """The root-relative name `path` spells, with nothing resolved: `.` and empty parts
        dropped, an absolute path inside the root made relative, `..` and symlinks kept as
        written. What a caller called a file, where `relpath` says what it leads to; raises
        invalid_path and outside_root as a resolution would."""
        return "/".join(self._paths.parse(path)) or "."

    def relpath(self, path: PathArg, *, follow: bool = True) -> str:
        """The normalised, '/'-separated root-relative path after resolving in-root symlinks.

        Works when the final component, or folders on the way, do not exist yet (the name they
        would get); "." names the root. Raises outside_root and the other path errors. Without
        `follow`, a final symlink is not resolved: the path names the link itself.
        """
        return self._gate.rel(path, check_deny=False, follow=follow)

    @property
    def lock_timeout(self) -> float:
        """Seconds a call waits for a file's lock held elsewhere before it fails with `busy`."""
        return self._locks.timeout

    @lock_timeout.setter
    def lock_timeout(self, value: float) -> None:
        self._locks.timeout = value

    @property
    def allow_git_writes(self) -> bool:
        """Whether the rule refusing writes under `.git` was lifted for this sandbox."""
        return self._allow_git_writes

    @property
    def allow_readonly_writes(self) -> bool:
        """Whether the rule refusing to replace files the caller could not write was lifted."""
        return self._allow_readonly_writes

    def is_denied(self, relpath: str) -> bool:
        """Whether a resolved relative path matches a deny pattern or lies in `.edittools/`."""
        return self._gate.is_denied(relpath)

    def check_write(self, path: PathArg) -> str:
        """The resolved relative path of a file about to be written; nothing is written.

        Raises what a write of `path` would meet from the rules before touching the disk: denied,
        protected (`.git`), outside_root and the other path errors. A missing file, or missing
        folders on the way, are fine.
        """
        return self._gate.rel(path, check_deny=True, write=True)

    def read_bytes(self, path: PathArg, *, max_bytes: int | None = None) -> tuple[bytes, Version]:
        """The bytes of a regular file and its version; non-regular files are refused at once.

        A file over the cap (`max_bytes`, else the sandbox's `max_read_bytes`) is refused with
        too_large; `open_reader` streams such a file.
        """
        _, data, version = self.read_file(path, max_bytes=max_bytes)
        return data, version

    def read_file(
        self, path: PathArg, *, max_bytes: int | None = None
    ) -> tuple[str, bytes, Version]:
        """`read_bytes` with the file's resolved relative path (`relpath`) first, from the same
        resolution."""
        cap = self.max_read_bytes if max_bytes is None else max_bytes
        fd, st, rel = open_file(self._gate, path)
        data, version, _ = read_open(fd, st, rel, cap)
        return rel, data, version

    def read_bytes_deferred(
        self,
        path: PathArg,
        *,
        max_bytes: int | None = None,
        known: Callable[[bytes], str | None] | None = None,
        on_step: Callable[[tuple[int, Digester]], object] | None = None,
    ) -> tuple[bytes, PendingVersion]:
        """`read_bytes` whose version is computed while the caller works on the bytes.

        The digest of a large file is computed on a worker thread (the hash releases the
        interpreter lock): search the bytes meanwhile, then call `result()` on the second item
        for the version, before anything compares it. `on_step` receives the digest states along
        the way (see `PendingDigest`), for a new content that starts with the same bytes
        (`FileWrite.prefix`). `known`, given the bytes read, may return their digest when the
        caller can prove it without hashing (e.g. they equal, byte for byte, a content whose
        digest it knows); nothing is hashed then. The caller vouches for that digest.
        """
        cap = self.max_read_bytes if max_bytes is None else max_bytes
        fd, st, rel = open_file(self._gate, path)
        return read_open_deferred(fd, st, rel, cap, known=known, on_step=on_step)

    def open_reader(self, path: PathArg) -> FileReader:
        """Open a regular file for a streamed, forward-only read of any size.

        Confined and checked like `read_bytes` (denied paths, symlinks out of the root, FIFOs,
        sockets, devices and directories are refused at once); the returned reader is a context
        manager whose `version` is known once it was read to the end.
        """
        fd, st, rel = open_file(self._gate, path)
        return FileReader(fd, st, rel)

    def splice_writer(self, path: PathArg) -> SpliceWriter:
        """Open a regular file to change it by a pass over its bytes, writing as the pass goes.

        Confined, deny- and write-checked like a write of `path`. Read the file through the
        writer's `fileno()`, tell it what to keep and replace, and commit what `finish` returns
        (see `SpliceWriter`); a writer closed without a commit leaves no trace.
        """
        for _ in range(RETRIES):
            entry = self._gate.resolve(path, write=True)
            try:
                require_file(entry, path)
                if entry.stat is None:
                    raise SandboxError(
                        "not_found", f"{entry.rel} does not exist; nothing to change.",
                        path=entry.rel)  # fmt: skip
                assert entry.name is not None
                check_regular(entry.stat, entry.rel)
                src, st = open_regular(entry.dir_fd, entry.name, entry.rel)
            except SandboxError as exc:
                entry.close()
                if exc.code == "loop":  # became a symlink after resolution: resolve again
                    continue
                raise
            except BaseException:
                entry.close()
                raise
            return open_splice_writer(entry, src, st, self._state)
        raise raced(path)

    def version(self, path: PathArg) -> Version | None:
        """The current version of a regular file, or None when it does not exist."""
        return file_version(self._gate, path)

    def exists(self, path: PathArg) -> bool:
        """Whether the path names an existing entry (file, directory or other) inside the root."""
        try:
            r = self._gate.resolve(path)
        except SandboxError as exc:
            if exc.code == "not_found":
                return False
            raise
        with r:
            return r.stat is not None

    def write_bytes(
        self,
        path: PathArg,
        data: bytes,
        *,
        expect: Version | AbsentType | None = None,
        make_parents: bool = False,
    ) -> Version:
        """Replace the file's bytes atomically and durably; return the new version.

        `expect=version` makes it a compare-and-swap (code "stale" when the content differs or the
        file is gone); `expect=ABSENT` creates only (code "exists" when the file is there).
        Permission bits are kept. Writing through an in-root symlink replaces the target's content.
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(
                "write_bytes() takes bytes; encode text first (see TextDocument.encode)"
            )
        for _ in range(RETRIES):
            with self._gate.resolve(path, make_parents=make_parents, write=True) as r:
                require_file(r, path)
                assert r.name is not None
                if r.stat is not None:
                    check_regular(r.stat, r.rel)
                with self._locks.hold(r.rel):
                    try:
                        like = lstat_regular(r.dir_fd, r.name, r.rel)
                    except SandboxError as exc:
                        if exc.code == "loop":  # became a symlink after resolution
                            continue
                        raise
                    current = None
                    if (
                        isinstance(expect, Version)
                        and like is not None
                        and same_inode_state(expect, like)
                    ):
                        current = expect  # the inode provably did not change since it was read
                    elif like is not None and expect is not None:
                        # Only a compare-and-swap needs the content hash; it is read under the lock.
                        found = hash_file(r.dir_fd, r.name, r.rel) if expect is not ABSENT else None
                        current = found[0] if found else PRESENT
                        like = found[1] if found else like
                    check_expect(expect, current, r.rel)
                    tmp = _temp_name()
                    with self._state.pending(r.rel.rpartition("/")[0], tmp):
                        return atomic_write(
                            r.dir_fd, r.name, bytes(data), r.rel, tmp=tmp, like=like
                        )
        raise raced(path)

    def delete(self, path: PathArg, *, expect: Version | None = None) -> None:
        """Remove a file (or the symlink itself, when the path names one); CAS with `expect`.

        A symlink is removed only if its target stays inside the root; `expect` is compared with the
        target's content.
        """
        with self._gate.resolve(path, follow=False, write=True) as entry:
            require_file(entry, path)
            assert entry.name is not None
            if entry.stat is None:
                raise SandboxError(
                    "not_found", f"{entry.rel!r} does not exist; nothing to delete.", path=entry.rel
                )
            if stat.S_ISLNK(entry.stat.st_mode):
                with self._gate.resolve(path) as target:
                    self._delete_checked(entry, target.rel, target, expect)
            else:
                check_regular(entry.stat, entry.rel)
                self._delete_checked(entry, entry.rel, entry, expect)

    def _delete_checked(
        self, entry: Resolved, lock_rel: str, target: Resolved, expect: Version | None
    ) -> None:
        assert entry.name is not None
        with self._locks.hold(lock_rel):
            if expect is not None:
                current = None
                if target.name is not None and target.stat is not None:
                    check_regular(target.stat, target.rel)
                    found = hash_file(target.dir_fd, target.name, target.rel)
                    current = found[0] if found else None
                check_expect(expect, current, entry.rel)
            try:
                os.unlink(entry.name, dir_fd=entry.dir_fd)
                os.fsync(entry.dir_fd)
            except OSError as exc:
                raise from_oserror(exc, entry.rel, "delete") from exc

    def remove_empty_dir(self, path: PathArg) -> None:
        """Remove an empty directory; never the root, a denied one, a symlink or a non-empty one.

        The directory is removed by name through its parent's descriptor (a final symlink is not
        followed but refused), so nothing outside the root can be touched. A folder with entries
        is refused with not_empty; a file, symlink or other non-folder with not_a_directory.
        """
        with self._gate.resolve(path, follow=False, write=True) as r:
            if r.name is None:
                raise SandboxError(
                    "denied", "The sandbox root itself cannot be removed; name a folder.", path="."
                )
            if r.stat is None:
                raise SandboxError(
                    "not_found", f"{r.rel!r} does not exist; nothing to remove.", path=r.rel
                )
            remove_dir(r.dir_fd, r.name, r.stat, r.rel)

    def list_dir(
        self,
        path: PathArg = ".",
        *,
        depth: int = 1,
        max_entries: int = 1000,
        hidden: bool = False,
    ) -> DirListing:
        """The entries under a folder, `depth` levels deep, at most `max_entries` of them.

        The folder is resolved like any path (a denied one is refused, a symlink leading out is
        refused with outside_root) and walked on descriptors: symlinks inside are listed, never
        followed; denied entries and the state folder are left out, and hidden (dot) entries too
        unless `hidden`. A path that is not a folder is refused with not_a_directory.
        """
        if depth < 1 or max_entries < 0:
            raise ValueError("a listing needs depth >= 1 and max_entries >= 0")
        with self._gate.resolve(path) as r:
            if r.stat is None:
                raise SandboxError(
                    "not_found", f"{r.rel!r} does not exist; nothing to list.", path=r.rel
                )
            if not stat.S_ISDIR(r.stat.st_mode):
                raise SandboxError(
                    "not_a_directory",
                    f"{r.rel!r} is not a folder; give a folder to list.",
                    path=r.rel,
                )
            if r.name is None:
                try:
                    fd = os.dup(r.dir_fd)
                except OSError as exc:
                    raise from_oserror(exc, r.rel, "list") from exc
            else:
                fd = open_listed_dir(r.dir_fd, r.name, r.stat, r.rel)
        try:
            entries, truncated = walk_listing(
                fd,
                "" if r.rel == "." else r.rel + "/",
                depth,
                is_denied=self._gate.is_denied,
                max_entries=max_entries,
                hidden=hidden,
            )
        finally:
            os.close(fd)
        return DirListing(r.rel, depth, entries, truncated)

    @contextlib.contextmanager
    def lock(self, path: PathArg) -> Iterator[None]:
        """Hold the cross-process lock of one file (re-entrant within a thread)."""
        with self._locks.hold(self._gate.rel(path, check_deny=True)):
            yield

    def commit_files(
        self, writes: Sequence[FileWrite], *, record: Recorder | None = None
    ) -> list[Version | None]:
        """Change several files all or nothing, even across a crash; return the new versions.

        Each `FileWrite` is a compare-and-swap (`expect`); a delete has `data` None and removes a
        file, never a symbolic link (not_a_file: a rollback would put a regular file in its place;
        `delete` removes a link). Folders for new files are made (and removed again on failure).
        `record(connection, intent_id)` adds the caller's rows to the state index in the same
        transaction that records the change, so they exist exactly when the change does. See `_intents` for the protocol and its recovery.
        """
        return self._committer.commit(writes, record)

    def recover(self) -> int:
        """Settle unfinished changes of writers that died (done on opening); return how many."""
        return self._committer.recover()

    def claim_recoveries(self) -> list[tuple[str, list[str]]]:
        """The settled recoveries no process has reported yet, as (outcome, paths), oldest
        first: `completed` (every file holds the new content), `rolled_back`, `partial`, or
        `refused` (paths a recovery would not touch). Each is returned to one caller only."""
        return self._committer.claim_recoveries()

    def close(self) -> None:
        """Release the root and state-folder descriptors and the state database; the object is
        unusable afterwards. Closing again does nothing."""
        self._finalizer.detach()
        self._held.release()

    @property
    def closed(self) -> bool:
        """Whether `close` was called (or the sandbox failed to open)."""
        return self._held.closed

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Sandbox({str(self.root)!r}, resolver={self.resolver!r})"


class _Held:
    """What a sandbox holds open, released once: by `close`, or by the finalizer of a sandbox
    dropped unclosed (so it must not refer to the sandbox)."""

    def __init__(self, root_fd: int) -> None:
        self.root_fd = root_fd
        self.paths: PathResolver | None = None
        self.state: StateDir | None = None
        self.index: StateIndex | None = None
        self._lock = threading.Lock()

    @property
    def closed(self) -> bool:
        """Whether everything was released."""
        return self.root_fd < 0

    def release(self) -> bool:
        """Close the database, the state folders and the root; False when already done."""
        with self._lock:
            fd, self.root_fd = self.root_fd, -1
            index, self.index = self.index, None
            state, self.state = self.state, None
        if fd < 0:
            return False
        try:
            if index is not None:
                index.close()
            if state is not None:
                state.close()
        finally:
            if self.paths is not None:
                self.paths.root_fd = -1  # the number may be reused by an unrelated file
            os.close(fd)
        return True


def _dropped(held: _Held, name: str) -> None:
    """The finalizer of a sandbox collected without `close`: release, then say so."""
    if held.release():
        warnings.warn(
            f"{name} was not closed; use it as a context manager or call close()",
            ResourceWarning,
            stacklevel=2,
        )


def _open_lock(state_path: pathlib.Path, locks_fd: int, name: str) -> int:
    return open_state_file(locks_fd, name, state_path / "locks" / name, os.O_RDWR | os.O_CREAT)


def _first(holder: list[int]) -> int:
    return holder[0]
