"""Confinement: every path is resolved beneath one long-lived root directory descriptor.

Directories on the way are opened by a resolver — `openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)`
where the kernel offers it, else the descriptor walker — and the final component is handled here, on
the parent's descriptor: `fstatat` without following, and a symlink is read and resolved again from
its canonical location (at most MAX_HOPS times). So a final symlink that points outside, dangling or
not, is refused before anything is opened or created, and an in-root one is followed to its target.

Path strings are never checked and then opened: what is checked (the canonical relative path) is
computed from the descriptors that are then used.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from . import _openat2
from ._errors import SandboxError, from_oserror
from ._walker import MAX_HOPS, outside, strip_root, too_many_links, walk_dir

__all__ = ["Guard", "PathResolver", "Resolved", "ResolverName"]

ResolverName = Literal["auto", "openat2", "walker"]
Guard = Callable[[str, int], None]
"""Asked before a folder is made: its canonical relative path, and a descriptor of the folder it
goes in, or -1 when that folder is the one asked about just before (itself still to be made)."""

_PATH_MAX = 4096
_OPENAT2_DIR = os.O_RDONLY | os.O_DIRECTORY
_RESOLVE = _openat2.RESOLVE_BENEATH | _openat2.RESOLVE_NO_MAGICLINKS
_CHILD_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_WAY = os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass
class Resolved:
    """Where a path leads: an open parent directory and a name in it (None for the root itself).

    The caller closes `dir_fd` (or uses the object as a context manager). `stat` describes the entry
    without following a final symlink; it is None when the entry does not exist. `visited` lists the
    canonical relative path of every entry met on the way (the path itself, then each symlink hop).
    """

    dir_fd: int
    name: str | None
    rel: str
    stat: os.stat_result | None
    visited: list[str] = field(default_factory=list)

    def close(self) -> None:
        """Close the parent directory descriptor."""
        if self.dir_fd >= 0:
            os.close(self.dir_fd)
            self.dir_fd = -1

    def __enter__(self) -> Resolved:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _cancel_dotdots(parts: tuple[str, ...], have: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Apply each `..` after the first `have` (existing) components of `parts` by name.

    A missing folder is one this resolver would create as a plain folder, so `new/..` is where
    `new` would be made: the pair cancels. A `..` with no missing folder left to cancel goes up
    from the existing part and stays there for the resolver to judge. Returns that existing part
    and the names that follow it.
    """
    base = list(parts[:have])
    names: list[str] = []
    for comp in parts[have:]:
        if comp != "..":
            names.append(comp)
        elif names:
            names.pop()
        else:
            base.append("..")
    return tuple(base), tuple(names)


def _require_missing(fd: int, name: str, display: str) -> None:
    """Refuse when `name` exists in `fd` although the way through it did not open as a folder."""
    try:
        os.stat(name, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise from_oserror(exc, display, "inspect") from exc
    raise SandboxError(
        "not_found",
        f"{name!r} on the way to {display!r} is not a folder (a file, or a link to a missing "
        "folder); check the path.",
        path=display,
    )


def _sync(fd: int, display: str) -> None:
    """Sync a folder whose new entry must survive a crash with the file under it."""
    try:
        os.fsync(fd)
    except OSError as exc:
        raise from_oserror(exc, display, "create directory") from exc


def _sync_parents(fd: int, levels: int, display: str) -> None:
    """Sync the `levels` folders above the open folder `fd`, nearest first (`fd` stays open)."""
    at = fd
    try:
        for _ in range(levels):
            try:
                up = os.open("..", _CHILD_DIR, dir_fd=at)
            except OSError as exc:
                raise from_oserror(exc, display, "create directory") from exc
            if at != fd:
                os.close(at)
            at = up
            _sync(at, display)
    finally:
        if at != fd:
            os.close(at)


def _identity(st: os.stat_result) -> tuple[int, int]:
    return st.st_dev, st.st_ino


def _display(path: str | os.PathLike[str] | bytes) -> str:
    """The path as text for messages (NUL bytes cannot occur: `parse` refused them)."""
    return os.fsdecode(os.fspath(path))


class PathResolver:
    """Resolves user paths beneath the root descriptor with the chosen resolver."""

    def __init__(self, root: str, root_fd: int, *, resolver: ResolverName = "auto") -> None:
        self.root = root
        self.root_fd = root_fd
        self.root_parts = tuple(p for p in root.split("/") if p)
        if resolver == "auto":
            resolver = "openat2" if _openat2.available(root_fd) else "walker"
        elif resolver == "openat2" and not _openat2.available(root_fd):
            raise SandboxError("io_error", "openat2 is not available on this system; use 'auto'.")
        self.name: ResolverName = resolver
        self.roots: list[tuple[str, ...]] = [self.root_parts]

    def add_alias(self, spelled: str) -> None:
        """Also accept absolute paths that spell the root another way (unresolved symlinks)."""
        parts = tuple(p for p in os.path.abspath(spelled).split("/") if p)
        if parts not in self.roots:
            self.roots.append(parts)

    def parse(self, path: str | os.PathLike[str] | bytes) -> tuple[str, ...]:
        """Split a relative path, or an absolute one inside the root, into root-relative parts."""
        try:
            raw = os.fspath(path)
        except TypeError:
            raise SandboxError(
                "invalid_path", f"{path!r} is not a path; pass a string.", path=None
            ) from None
        text = os.fsdecode(raw) if isinstance(raw, bytes) else raw
        if not text:
            raise SandboxError("invalid_path", "The path is empty; give a file path.", path=text)
        if "\x00" in text:
            raise SandboxError(
                "invalid_path",
                "The path contains a NUL byte; remove it.",
                path=text.replace("\0", ""),
            )
        try:
            size = len(os.fsencode(text))
        except UnicodeEncodeError:
            raise SandboxError(
                "invalid_path", "The path cannot be encoded for the file system.", path=text
            ) from None
        if size >= _PATH_MAX:
            raise SandboxError(
                "invalid_path",
                f"The path is {size} bytes long; the limit is {_PATH_MAX - 1}.",
                path=text,
            )
        if text.startswith("/"):
            inner = strip_root(text, self.roots)
            if inner is None:
                raise outside(text)
            return tuple(inner)  # "." and "" dropped, ".." kept for the resolver
        return tuple(p for p in text.split("/") if p not in ("", "."))

    def open_dir(self, parts: Sequence[str], display: str) -> tuple[int, tuple[str, ...]]:
        """Open the directory `parts` beneath the root; return the fd and its canonical parts."""
        if not parts:
            try:
                return os.dup(self.root_fd), ()
            except OSError as exc:  # out of descriptors: say so, and what to do
                raise from_oserror(exc, display, "open") from exc
        if self.name == "walker":
            return walk_dir(self.root_fd, self.roots, parts, display)
        try:
            fd = _openat2.openat2(self.root_fd, "/".join(parts), _OPENAT2_DIR, _RESOLVE)
        except OSError as exc:
            if exc.errno in (errno.EXDEV, errno.ELOOP, errno.EAGAIN):
                # The kernel refuses absolute symlinks even into the root, and does not say which of
                # "loop", "magic link" or "escape" it saw: the walker decides, just as safely.
                return walk_dir(self.root_fd, self.roots, parts, display)
            raise from_oserror(exc, display, "open directory") from exc
        try:
            return fd, self._canonical(fd, display)
        except BaseException:
            os.close(fd)
            raise

    def _canonical(self, fd: int, display: str) -> tuple[str, ...]:
        """The root-relative parts of an open directory, as the kernel names it now."""
        where = os.readlink(f"/proc/self/fd/{fd}")
        inner = strip_root(where, self.roots[:1]) if where.startswith("/") else None
        if inner is None or os.fstat(fd).st_nlink == 0:
            # Moved out of the root or deleted between the open and now.
            raise SandboxError(
                "not_found",
                f"A directory on the way to {display!r} was moved or deleted meanwhile; retry.",
                path=display,
            )
        return tuple(inner)

    def ensure_dir(
        self,
        parts: Sequence[str],
        display: str,
        guard: Guard | None = None,
        made: list[str] | None = None,
    ) -> tuple[int, tuple[str, ...]]:
        """Like `open_dir`, creating missing directories on the way (each beneath its parent's fd).

        Nothing is created until the whole way is known to stay inside the root: the deepest
        existing folder is opened first (a `..` or symlink that leaves the root raises outside_root
        there), `..` after a missing folder cancels that folder, and `guard` is asked about every
        folder to create (see `Guard`) before the first one is made (it may raise to forbid it).
        The folders are then made one by one in a loop, each on its parent's descriptor, so the
        work grows with the depth, never with its square; then each parent is synced, deepest
        first (the first sync commits the whole chain, the others find little left to write).
        `made` receives the canonical relative path of each folder this call made, as it is made
        (not one someone else made meanwhile).
        """
        try:
            return self.open_dir(parts, display)
        except SandboxError as exc:
            if exc.code != "not_found" or not parts:
                raise
        fd, canon, names = self._plan(tuple(parts), display)
        try:
            if guard is not None:
                rel = "/".join(canon)
                for k, name in enumerate(names):
                    rel = f"{rel}/{name}" if rel else name
                    guard(rel, fd if k == 0 else -1)
            chain = 0  # folders opened in the one made just before, whose entries are not synced
            for name in names:
                fd, canon, direct = self._make_child(fd, canon, name, display, guard, made)
                chain = chain + 1 if direct else 0
            _sync_parents(fd, chain, display)
        except BaseException:
            os.close(fd)
            raise
        return fd, canon

    def would_be(self, path: str | os.PathLike[str] | bytes) -> str:
        """The canonical relative path `path` would name once its missing folders were made.

        Raises outside_root when the way leaves the root (a `..` or a symlink in the existing part,
        or more `..` than missing folders), and not_found when a file or a dangling link stands
        where a folder is needed.
        """
        parts = self.parse(path)
        fd, canon, names = self._plan(parts, _display(path))
        os.close(fd)
        return "/".join((*canon, *names)) or "."

    def _plan(
        self, parts: tuple[str, ...], display: str
    ) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
        """Open the deepest existing folder on the way of `parts`; return it and what is missing.

        The result is the folder's descriptor (the caller closes it), its canonical parts and the
        names of the folders still missing beneath it, with every `..` after a missing folder
        applied: a missing folder is one this resolver would create as a plain folder, so
        `new/..` cancels, and a `..` past the missing ones climbs the existing part, where the
        resolver judges it (outside_root when it leaves the root).
        """
        known = 0
        while True:
            have = self._existing_prefix(parts, display, known)
            fd, canon = self.open_dir(parts[:have], display)
            try:
                if have < len(parts):
                    _require_missing(fd, parts[have], display)
            except BaseException:
                os.close(fd)
                raise
            if ".." not in parts[have:]:
                return fd, canon, parts[have:]
            os.close(fd)
            base, names = _cancel_dotdots(parts, have)
            parts, known = (*base, *names), have

    def _existing_prefix(self, parts: tuple[str, ...], display: str, known: int) -> int:
        """How many leading components of `parts` open as a directory (`parts[:known]` does).

        Once a component is missing every longer prefix is missing too, so a binary search finds
        the boundary; any error other than not_found (outside_root, loop, ...) is raised.
        """
        lo, hi = known, len(parts) + 1  # parts[:lo] opens, parts[:hi] does not
        while hi - lo > 1:
            mid = (lo + hi) // 2
            try:
                fd, _ = self.open_dir(parts[:mid], display)
            except SandboxError as exc:
                if exc.code != "not_found":
                    raise
                hi = mid
                continue
            os.close(fd)
            lo = mid
        return lo

    def _make_child(
        self,
        fd: int,
        canon: tuple[str, ...],
        name: str,
        display: str,
        guard: Guard | None,
        made: list[str] | None,
    ) -> tuple[int, tuple[str, ...], bool]:
        """Create folder `name` in the open folder `fd` (closed here) and open it.

        The third value says whether the new folder was opened in `fd` itself (`fd` not synced:
        `ensure_dir` syncs the chain), rather than found again by the resolver (`fd` synced here).
        """
        rel = (*canon, name)
        try:
            if guard is not None:
                guard("/".join(rel), fd)  # again: the tree may have changed since the plan
            try:
                os.mkdir(name, 0o777, dir_fd=fd)
                if made is not None:
                    made.append("/".join(rel))
            except FileExistsError:
                pass
            except OSError as exc:
                raise from_oserror(exc, display, "create directory") from exc
            try:
                return os.open(name, _CHILD_DIR, dir_fd=fd), rel, True
            except OSError:
                # Not a plain folder (made by someone else meanwhile, or a file or symlink that
                # was there): the resolver decides, following an in-root link or refusing.
                _sync(fd, display)
                return (*self.open_dir(rel, display), False)
        finally:
            os.close(fd)

    def remove_made(self, folders: Sequence[str]) -> None:
        """Remove the empty folders among `folders` (canonical relative paths), deepest first.

        A folder that is not empty (someone put a file in it meanwhile) stays, and so do the
        folders above it. Folders that nest one in the next are taken as a chain: walked down on
        descriptors from the parent of the first, then back up through `..` into the folders met
        on the way down (checked by identity), removing each, so a chain of any depth costs a few
        calls per folder and holds two descriptors at a time.
        """
        chains: list[tuple[str, list[str]]] = []
        last = None
        for folder in folders:
            parent, _, name = folder.rpartition("/")
            if chains and parent == last:
                chains[-1][1].append(name)
            else:
                chains.append((parent, [name]))
            last = folder
        for parent, names in reversed(chains):
            try:
                self._remove_chain(parent, names)
            except (OSError, SandboxError):
                continue

    def _remove_chain(self, parent: str, names: list[str]) -> None:
        """Remove `parent/names[0]/names[1]/...` bottom up while each folder is empty."""
        display = f"{parent}/{names[0]}" if parent else names[0]
        fd, _ = self.open_dir(tuple(p for p in parent.split("/") if p), display)
        try:
            ids = [_identity(os.fstat(fd))]
            for name in names:  # down, as far as the chain still goes
                try:
                    inner = os.open(name, _WAY, dir_fd=fd)
                except OSError:
                    break
                os.close(fd)
                fd = inner
                ids.append(_identity(os.fstat(fd)))
            # Back up: remove names[depth] from its parent.
            for depth in range(len(ids) - 2, -1, -1):
                up = os.open("..", _WAY, dir_fd=fd)
                os.close(fd)
                fd = up
                if _identity(os.fstat(fd)) != ids[depth]:
                    return  # moved meanwhile: not the folder walked down through
                name = names[depth]
                if _identity(os.stat(name, dir_fd=fd, follow_symlinks=False)) != ids[depth + 1]:
                    return
                try:
                    os.rmdir(name, dir_fd=fd)
                except OSError as exc:
                    if exc.errno in (errno.ENOTEMPTY, errno.EEXIST):
                        return
                    raise
        finally:
            os.close(fd)

    def resolve(
        self,
        path: str | os.PathLike[str] | bytes,
        *,
        follow: bool = True,
        make_parents: bool = False,
        guard: Guard | None = None,
        made: list[str] | None = None,
    ) -> Resolved:
        """Resolve `path` to its parent directory descriptor and final name.

        With `follow`, a final symlink is followed while it stays inside the root; one that leads
        outside (dangling or not) raises outside_root. With `make_parents`, missing directories on
        the way are created (and listed in `made`, see `ensure_dir`).
        """
        parts = self.parse(path)
        display = _display(path)
        hops = 0
        visited: list[str] = []
        while True:
            if not parts or parts[-1] == "..":
                if make_parents:
                    fd, canon = self.ensure_dir(parts, display, guard, made)
                else:
                    fd, canon = self.open_dir(parts, display)
                if not canon:
                    return Resolved(fd, None, ".", os.fstat(fd), visited)
                os.close(fd)
                parts = canon
                continue
            if make_parents:
                fd, canon = self.ensure_dir(parts[:-1], display, guard, made)
            else:
                fd, canon = self.open_dir(parts[:-1], display)
            name = parts[-1]
            rel = "/".join((*canon, name))
            visited.append(rel)
            try:
                st: os.stat_result | None = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                st = None
            except OSError as exc:
                os.close(fd)
                raise from_oserror(exc, display, "inspect") from exc
            if st is None or not follow or not stat.S_ISLNK(st.st_mode):
                return Resolved(fd, name, rel, st, visited)
            try:
                target = os.readlink(name, dir_fd=fd)
            except OSError as exc:
                raise from_oserror(exc, display, "read symlink") from exc
            finally:
                os.close(fd)
            hops += 1
            if hops > MAX_HOPS:
                raise too_many_links(display)
            if target.startswith("/"):
                inner = strip_root(target, self.roots)
                if inner is None:
                    raise outside(display)
                parts = tuple(inner)
            else:
                parts = (*canon, *(p for p in target.split("/") if p not in ("", ".")))
