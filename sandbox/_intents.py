"""Changes to several files that are all-or-nothing, even across a crash: write-ahead intents.

`Committer.commit` takes the locks of every path, checks each file still holds what the caller
expects (compare-and-swap; a file whose inode provably did not change since the caller read it is
not read again), keeps the old content in the blob store (by linking the inode the rename will
replace, see `BlobStore.keep`), and then:

1. writes every new content to a temp file beside its target and syncs it;
2. records the intent — paths, old and new blob ids, temp names — in the state database, in one
   durable transaction together with the caller's own rows (its undo history);
3. renames the temp files over their targets (or unlinks deleted files) and syncs the folders;
4. marks the intent done.

A process killed anywhere in between leaves an open intent. `Committer.recover` (run whenever a
`Sandbox` opens the root) settles it once no live process holds its locks: when every target holds
its old or its new bytes and every missing new content is at hand (its temp file or its blob, both
checked against their ids), the intent is completed; otherwise the files already changed get their
old bytes back and the intent is deleted, taking the caller's rows along. Either way a `recoveries`
row records what happened, for the journal, and the temp files are removed. A target that a tool
call could not write by the rules of now (deny patterns, `.git`, outside the root, a path a commit
never records) is left alone and reported as `refused`: the state folder is outside the root, not
beyond reach, and an intent forged there must not write what a call may not.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sqlite3
import stat
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ._digest import Digester
from ._errors import SandboxError, from_oserror
from ._files import (
    TEMP_SUFFIX,
    Version,
    atomic_write,
    check_expect,
    check_regular,
    hash_file,
    open_regular,
    read_open,
    same_inode_state,
    temp_name,
)
from ._gate import PathGate, raced, require_file
from ._lock import LockTable
from ._metadata import FileMeta, file_meta
from ._paths import Resolved
from ._staging import Staged
from ._state import StateDir
from ._store import BlobStore, Kept
from ._writes import FileWrite, adopt, write_temp
from .state import StateIndex, intents

__all__ = ["Committer", "Recorder"]

Recorder = Callable[[sqlite3.Connection, int, list["Version | None"]], None]
"""Adds the caller's rows to an intent's transaction: (connection, intent id, new versions)."""


@dataclass
class _Prepared:
    write: FileWrite
    rel: str
    target: str  # the entry changed (a written file's real path)
    like: os.stat_result | None  # the replaced file's stat, for its mode on a rollback
    tmp: str | None
    old_sha: str | None
    new_sha: str | None
    version: Version | None
    made: list[str]
    applied: bool = False
    linked: bool = False  # the old inode is linked into the store (see BlobStore.keep)
    kept: Kept | None = None  # how the old content was kept
    meta: FileMeta | None = None  # the replaced file's owner, mode and extended attributes


class Committer:
    """Runs and recovers write-ahead intents for one sandbox."""

    def __init__(
        self,
        gate: PathGate,
        locks: LockTable,
        state: StateDir,
        index: StateIndex,
        store: BlobStore,
        max_bytes: Callable[[], int],
    ) -> None:
        self._gate = gate
        self._locks = locks
        self._state = state
        self._index = index
        self._store = store
        self._max_bytes = max_bytes

    # --- commit -----------------------------------------------------------------------------

    def commit(
        self, writes: Sequence[FileWrite], record: Recorder | None = None
    ) -> list[Version | None]:
        """Apply every write or none; return each file's new version (None for a delete)."""
        rels = [self._gate.rel(w.path, check_deny=True, write=True) for w in writes]
        if len(set(rels)) != len(rels):
            raise SandboxError(
                "invalid_path", "The change names one file twice; give each file once."
            )
        with contextlib.ExitStack() as stack:
            for rel in sorted(rels):
                stack.enter_context(self._locks.hold(rel))
            prepared: list[_Prepared] = []
            try:
                for write, rel in zip(writes, rels, strict=True):
                    prepared.append(self._prepare(write, rel, stack))
                intent = self._record(prepared, record)
            except BaseException:
                self._discard(prepared)
                raise
            try:
                self._apply(prepared)
            except (OSError, SandboxError):
                self._undo_applied(prepared, intent)
                raise
            for item in prepared:
                if item.linked and item.old_sha is not None:
                    self._store.seal(item.old_sha)  # the store now holds the inode's only link
            with self._index.transaction(durable=False) as db:
                intents.close_intent(db, intent, keep=record is not None)
        return [_noting_copy(item.version, item.kept) for item in prepared]

    def _prepare(self, write: FileWrite, rel: str, stack: contextlib.ExitStack) -> _Prepared:
        # No descriptor is kept past this call: a change of thousands of files stays under a low
        # open-file limit; the folders are resolved again (beneath the root) to rename.
        if write.data is None:
            entry = self._gate.resolve(write.path, follow=False, write=True)
            made: list[str] = []
        else:
            made = []
            entry = self._gate.resolve(write.path, make_parents=True, write=True, made=made)
        try:
            require_file(entry, write.path)
            assert entry.name is not None
            if entry.rel != rel and write.data is not None:
                raise raced(write.path)
            item = _Prepared(write, rel, entry.rel, entry.stat, None, None, None, None, made)
            self._keep_current(item, entry)
            if isinstance(write.data, Staged):
                item.tmp = write.data.name  # noted in the state folder by its writer
                item.version = adopt(entry, write.data, rel, item.meta)
                # On record before the rename: without it the intent would read as a delete,
                # and a recovery after a crash there would remove the file.
                item.new_sha = item.version.digest
            elif write.data is not None:
                item.tmp = temp_name()
                stack.enter_context(self._state.pending(entry.rel.rpartition("/")[0], item.tmp))
                item.version = write_temp(entry, item.tmp, write, rel, item.meta)
                item.new_sha = item.version.digest
                if write.digest is not None and write.digest != item.new_sha:
                    raise SandboxError(
                        "blob_corrupt",
                        f"The content rebuilt for {rel!r} does not match its id {write.digest}: "
                        "the saved copy it came from is damaged. Nothing was changed.",
                        path=rel,
                    )
            return item
        except BaseException:
            if "item" in locals():
                if item.linked and item.old_sha is not None:
                    self._store.unlink_kept(item.old_sha)
                if item.tmp is not None:
                    with contextlib.suppress(OSError):
                        os.unlink(item.tmp, dir_fd=entry.dir_fd)
            self._remove_dirs(made)
            raise
        finally:
            entry.close()

    def _parent(self, item: _Prepared) -> Resolved:
        """The folder of the item's target and its name, resolved again (caller closes)."""
        return self._gate.resolve(item.target, follow=False, check_deny=False)

    def _keep_current(self, item: _Prepared, entry: Resolved) -> None:
        """Check the file against `expect` and keep its content as the undo snapshot."""
        write = item.write
        assert entry.name is not None
        if entry.stat is None:
            check_expect(write.expect, None, entry.rel)
            if write.data is None:
                raise SandboxError(
                    "not_found", f"{entry.rel!r} does not exist; nothing to delete.", path=item.rel
                )
            return
        if stat.S_ISLNK(entry.stat.st_mode):
            # Only a delete resolves without following. A rollback or an undo puts bytes back, so
            # a deleted link would come back as a regular file holding its target's bytes.
            raise SandboxError(
                "not_a_file",
                f"{entry.rel!r} is a symbolic link; a change of several files deletes files, not "
                "links. Remove the link on its own (Sandbox.delete) or name its target.",
                path=entry.rel,
            )
        check_regular(entry.stat, entry.rel)
        fd, st = open_regular(entry.dir_fd, entry.name, entry.rel)
        try:
            expect = write.expect
            if isinstance(expect, Version) and same_inode_state(expect, st):
                current = expect  # the inode did not change since the caller read it
            elif st.st_size > self._max_bytes():
                current, st = _hash_open(fd, entry.rel)  # streamed: a file larger than memory
            else:
                try:
                    copy = os.dup(fd)
                except OSError as exc:  # out of descriptors: say so, and what to do
                    raise from_oserror(exc, entry.rel, "read") from exc
                _, current, st = read_open(copy, st, entry.rel, self._max_bytes())
            check_expect(expect, current, entry.rel)
            item.old_sha = current.digest
            item.meta = file_meta(fd, st)
            item.kept = self._store.keep(fd, st, current.digest)
            item.linked = item.kept.linked
        finally:
            os.close(fd)

    def _record(self, prepared: list[_Prepared], record: Recorder | None) -> int:
        with self._index.transaction() as db:
            files = [(p.target, p.tmp, p.old_sha, p.new_sha) for p in prepared]
            intent = intents.open_intent(db, files)
            if record is not None:
                record(db, intent, [p.version for p in prepared])
        return intent

    def _apply(self, prepared: list[_Prepared]) -> None:
        folders: dict[str, str] = {}  # folder -> one of its targets, to sync each folder once
        for item in prepared:
            with self._parent(item) as entry:
                assert entry.name is not None
                try:
                    if item.tmp is not None:
                        os.rename(item.tmp, entry.name, src_dir_fd=entry.dir_fd,
                                  dst_dir_fd=entry.dir_fd)  # fmt: skip
                        item.tmp = None
                    else:
                        os.unlink(entry.name, dir_fd=entry.dir_fd)
                    item.applied = True
                except OSError as exc:
                    raise from_oserror(exc, item.rel, "write") from exc
            folders.setdefault(item.target.rpartition("/")[0], item.target)
        for folder, target in folders.items():
            with self._gate.resolve(folder or ".", check_deny=False) as r:
                fd = r.dir_fd if r.name is None else os.open(
                    r.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                    dir_fd=r.dir_fd)  # fmt: skip
                try:
                    os.fsync(fd)
                except OSError as exc:
                    raise from_oserror(exc, target, "write") from exc
                finally:
                    if fd != r.dir_fd:
                        os.close(fd)

    def _undo_applied(self, prepared: list[_Prepared], intent: int) -> None:
        """Put back the old bytes of the files already changed, then drop the intent."""
        for item in prepared:
            if not item.applied:
                continue
            with contextlib.suppress(OSError, SandboxError), self._parent(item) as entry:
                assert entry.name is not None
                if item.old_sha is None:
                    os.unlink(entry.name, dir_fd=entry.dir_fd)
                else:
                    old = self._store.get(item.old_sha)
                    tmp = temp_name()
                    with self._state.pending(item.target.rpartition("/")[0], tmp):
                        atomic_write(entry.dir_fd, entry.name, old, item.rel, tmp=tmp,
                                     like=item.like, digest=item.old_sha,
                                     meta=item.meta)  # fmt: skip
        self._discard(prepared)
        with contextlib.suppress(SandboxError), self._index.transaction() as db:
            intents.drop_intent(db, intent)

    def _discard(self, prepared: list[_Prepared]) -> None:
        """Remove the temp files not renamed yet and the folders made for new files."""
        for item in prepared:
            if item.tmp is not None:
                with contextlib.suppress(OSError, SandboxError), self._parent(item) as entry:
                    os.unlink(item.tmp, dir_fd=entry.dir_fd)
                item.tmp = None
            if item.linked and not item.applied and item.old_sha is not None:
                self._store.unlink_kept(item.old_sha)  # its file was never replaced
                item.linked = False
        for item in reversed(prepared):
            self._remove_dirs(item.made)

    def _remove_dirs(self, folders: list[str]) -> None:
        # Deepest first; a folder someone else put a file in meanwhile is not ours to remove.
        self._gate.remove_made(folders)

    # --- recovery ---------------------------------------------------------------------------

    def recover(self) -> int:
        """Settle the open intents of writers that died; return how many were settled."""
        settled = 0
        for intent in intents.open_intents(self._index):
            files = intents.intent_files(self._index, intent)
            allowed = [self._allowed(row) for row in files]
            targets = [_Target(*row) for row, ok in zip(files, allowed, strict=True) if ok]
            refused = [_shown(row[0]) for row, ok in zip(files, allowed, strict=True) if not ok]
            with self._locks.try_hold([t.path for t in targets]) as free:
                if not free:
                    continue  # its writer is alive and holds the locks
                if intents.is_open(self._index, intent):
                    try:
                        self._complete_or_roll_back(intent, targets, refused)
                    except (OSError, SandboxError):
                        continue  # could not look at every file: left for a later open
                    settled += 1
        return settled

    def _allowed(self, row: tuple[object, ...]) -> bool:
        """Whether a tool call could write the target of an intent's row, by the rules of now.

        The state folder is outside the root but not beyond reach: a forged or stale intent must
        not write where a call may not (deny patterns, `.git`, outside the root). A path is
        taken only as a commit records it: its own canonical relative form.
        """
        path, tmp, old_sha, new_sha = row
        if not isinstance(path, str) or not path:
            return False
        if not all(value is None or isinstance(value, str) for value in (tmp, old_sha, new_sha)):
            return False
        try:
            return self._gate.rel(path, check_deny=True, write=True) == path
        except (SandboxError, ValueError):
            return False

    def _complete_or_roll_back(
        self, intent: int, targets: list[_Target], refused: list[str]
    ) -> None:
        """Complete or roll back the intent on `targets`; the `refused` ones are left alone."""
        for target in targets:
            target.look(self._gate)  # an unexpected failure leaves the intent for a later open
        forward = all(t.at_old or t.at_new for t in targets) and all(
            t.at_new or t.new_sha is None or t.tmp_ok or self._store.has(t.new_sha) for t in targets
        )
        outcome = "completed"
        if forward and not all(t.at_new or self._put(t, t.new_sha, use_tmp=True) for t in targets):
            for target in targets:  # a new content could not be put in place: go back instead
                target.look(self._gate)
            forward = False
        if not forward:
            outcome = "rolled_back"
            for t in targets:
                if (t.at_new and not t.at_old and not self._put(t, t.old_sha, use_tmp=False)) or (
                    not t.at_new and not t.at_old
                ):
                    outcome = "partial"
        for t in targets:
            t.drop_tmp(self._gate)
        reports = [(outcome, [t.path for t in targets]), ("refused", refused)]
        with self._index.transaction() as db:
            intents.close_recovered(db, intent, done=outcome == "completed" and bool(targets),
                                  reports=[r for r in reports if r[1]])  # fmt: skip

    def claim_recoveries(self) -> list[tuple[str, list[str]]]:
        """The recoveries not yet reported, oldest first, as (outcome, paths); each is claimed
        (marked reported) as it is returned, so of several processes only one reports it."""
        claimed = []
        for rid, outcome, paths in intents.unreported_recoveries(self._index):
            with self._index.transaction() as db:
                if intents.claim_recovery(db, rid):
                    claimed.append((outcome, paths))
        return claimed

    def _put(self, t: _Target, sha: str | None, *, use_tmp: bool) -> bool:
        """Make target `t` hold the blob `sha` (None: no file); False when that is impossible."""
        try:
            with self._gate.resolve(t.path, follow=False, make_parents=sha is not None,
                                    check_deny=False) as entry:  # fmt: skip
                if sha is None:
                    if entry.stat is not None:
                        os.unlink(t.name, dir_fd=entry.dir_fd)
                elif use_tmp and t.tmp_ok and t.tmp is not None:
                    os.rename(t.tmp, t.name, src_dir_fd=entry.dir_fd, dst_dir_fd=entry.dir_fd)
                    t.tmp = None
                else:
                    data = self._store.get(sha)
                    tmp = temp_name()
                    with self._state.pending(t.path.rpartition("/")[0], tmp):
                        atomic_write(entry.dir_fd, t.name, data, t.path, tmp=tmp, like=t.stat)
                os.fsync(entry.dir_fd)
        except SandboxError as exc:
            return exc.code == "not_found" and sha is None  # no folder: no file, as wanted
        except OSError:
            return False
        return True


class _Target:
    """One file of an open intent, as found on disk when recovering (no descriptor kept)."""

    def __init__(self, path: str, tmp: str | None, old_sha: str | None, new_sha: str | None):
        self.path, self.tmp, self.old_sha, self.new_sha = path, tmp, old_sha, new_sha
        self.name = path.rpartition("/")[2]
        self.stat: os.stat_result | None = None
        self.at_old = self.at_new = self.tmp_ok = False

    def look(self, gate: PathGate) -> None:
        """Find what the target holds; raises (leaving the intent open) on unexpected failures."""
        try:
            entry = gate.resolve(self.path, follow=False, check_deny=False)
        except SandboxError as exc:
            if exc.code != "not_found":
                raise
            current: str | bool | None = None  # its folder is gone: no file there
        else:
            with entry:
                current = self._sha(entry.dir_fd)
                self.tmp_ok = self._tmp_holds_new(entry.dir_fd)
        self.at_old = current == self.old_sha
        self.at_new = current == self.new_sha

    def _sha(self, dir_fd: int) -> str | bool | None:
        """The file's digest, None when absent, False when something else stands there."""
        try:
            st = os.stat(self.name, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        if not stat.S_ISREG(st.st_mode):
            return False
        self.stat = st
        found = hash_file(dir_fd, self.name, self.path)
        return None if found is None else found[0].digest

    def _tmp_holds_new(self, dir_fd: int) -> bool:
        if self.tmp is None or not self.tmp.endswith(TEMP_SUFFIX) or "/" in self.tmp:
            return False
        try:
            found = hash_file(dir_fd, self.tmp, self.tmp)
        except SandboxError:
            return False  # not a regular file: not ours
        return found is not None and found[0].digest == self.new_sha

    def drop_tmp(self, gate: PathGate) -> None:
        if self.tmp is None or not self.tmp.endswith(TEMP_SUFFIX) or "/" in self.tmp:
            return
        with (
            contextlib.suppress(OSError, SandboxError),
            gate.resolve(self.path, follow=False, check_deny=False) as entry,
        ):
            if stat.S_ISREG(os.stat(self.tmp, dir_fd=entry.dir_fd, follow_symlinks=False).st_mode):
                os.unlink(self.tmp, dir_fd=entry.dir_fd)


def _shown(path: object) -> str:
    """A refused target's path as a report names it (a forged row may hold anything)."""
    return path if isinstance(path, str) else repr(path)


def _hash_open(fd: int, rel: str) -> tuple[Version, os.stat_result]:
    """The version of the open file `fd`, hashed a chunk at a time from its start."""
    digest = Digester()
    size = 0
    try:
        while chunk := os.pread(fd, _HASH_CHUNK, size):
            digest.update(chunk)
            size += len(chunk)
        st = os.fstat(fd)
    except OSError as exc:
        raise from_oserror(exc, rel, "read") from exc
    return Version(digest.hexdigest(), size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns,
                   time.time_ns()), st  # fmt: skip


_HASH_CHUNK = 8 << 20


def _noting_copy(version: Version | None, kept: Kept | None) -> Version | None:
    """The version, noting in `unkept` an undo snapshot that had to be a copy (the state grew by
    the whole old file, not by the change)."""
    if version is None or kept is None or kept.how != "copied":
        return version
    note = (
        f"the old content as a link (the undo snapshot is a copy of {kept.size:,} bytes in the "
        f"state folder: {kept.why})"
    )
    return dataclasses.replace(version, unkept=(*version.unkept, note))
