"""The gate every `Sandbox` path passes: resolution beneath the root, then the deny checks.

A `PathGate` resolves a user path with the `PathResolver` and refuses it when a deny pattern or the
in-root `.edittools/` folder covers any entry met on the way (the path itself and each symlink
hop). A missing folder inside a denied area is reported as denied, not as not_found, and folders that
`make_parents` would create are refused when a pattern covers them.

Writes meet one more rule unless it was lifted: nothing under a `.git` folder (any depth, so
submodules and nested repositories too) and no `.git` file may be written, created or removed,
because git runs hooks and reads its config as code (protected). Reads stay allowed. A name counts
as `.git` in any letter case and with the code points HFS+ ignores, since on a case-insensitive or
HFS+ volume those spell the same folder. A folder git would take for a repository by its contents
alone (a bare repository: `HEAD` beside `objects/` and `refs/`, or beside `commondir`) is protected
the same way, and so is a write that would complete one, since git finds such a folder while
searching upwards from any folder below it. And an existing file the caller could not write in
place is not replaced, removed or renamed over (permission) unless that rule was lifted too: a temp
file renamed over it needs only the folder's write permission. The small checks and errors that every file operation
shares after resolving live here too.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from typing import TYPE_CHECKING

from ._errors import SandboxError
from ._paths import Guard, PathResolver, Resolved

if TYPE_CHECKING:
    import pathspec

__all__ = [
    "RETRIES",
    "PathArg",
    "PathGate",
    "check_root",
    "in_git",
    "raced",
    "require_file",
]

PathArg = str | os.PathLike[str]
RETRIES = 3  # re-resolutions when an entry turns into a symlink between resolving and opening
_WAY = os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC

# Code points HFS+ drops when it compares names (git's own list for its ".git" check).
_HFS_IGNORED = dict.fromkeys([*range(0x200C, 0x2010), *range(0x202A, 0x202F),
                              *range(0x206A, 0x2070), 0xFEFF])  # fmt: skip


def _is_git_dir(exists: Callable[[str], bool], adding: str | None) -> bool:
    """Whether a folder is a git directory, or becomes one once the entry `adding` exists.

    Git takes a folder holding `HEAD` beside `objects/` and `refs/` (a bare repository), or beside
    `commondir` (a linked worktree's), for a repository whatever its name. `exists` says whether a
    name exists in the folder (links not followed: git's own test is looser, and a false refusal
    costs less than a planted hook). `adding` is compared case-blind, as a case-insensitive volume
    would. `HEAD` is asked first, so a folder without one costs a single lookup.
    """
    added = adding.casefold() if adding else None
    if added != "head" and not exists("HEAD"):
        return False
    present = {name for name in ("objects", "refs", "commondir") if name == added or exists(name)}
    return "commondir" in present or {"objects", "refs"} <= present


def _in_bare_git(root: str) -> bool:
    """Whether a host folder or one of its ancestors is a git directory by its contents."""
    folder = os.path.abspath(root)
    while True:

        def exists(name: str, folder: str = folder) -> bool:
            return os.path.lexists(os.path.join(folder, name))

        if _is_git_dir(exists, None):
            return True
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent


def in_git(rel: str) -> bool:
    """Whether a relative path names a `.git` entry or lies beneath one (any case, HFS+ spelling)."""
    return any(part.translate(_HFS_IGNORED).casefold() == ".git" for part in rel.split("/"))


class PathGate:
    """Resolves paths beneath the root and refuses those a deny pattern or `.edittools/` covers.

    `state_name` is a folder name always refused (`.edittools`, where state was once kept in the
    root); `deny` takes gitignore-style patterns matched on the resolved relative path.
    """

    def __init__(
        self,
        paths: PathResolver,
        *,
        state_name: str,
        deny: list[str],
        allow_git_writes: bool = False,
        allow_readonly_writes: bool = False,
    ) -> None:
        self._paths = paths
        self._state_name = state_name
        self._spec = _deny_spec(deny) if deny else None
        # A root that is itself inside a .git folder is all git's: every write there is protected.
        self._protect_git = not allow_git_writes
        self._protect_readonly = not allow_readonly_writes
        self._root_in_git = in_git("/".join(paths.root_parts)) or _in_bare_git(paths.root)

    def is_denied(self, relpath: str) -> bool:
        """Whether a resolved relative path matches a deny pattern or lies in `.edittools/`."""
        # A trailing "/" is kept: it asks whether the folder itself is denied ("secret/").
        rel = relpath.lstrip("/")
        if rel in ("", ".", "/", "./"):
            return False
        state = self._state_name
        if rel == state or rel.startswith(state + "/"):
            return True
        return self._spec is not None and bool(self._spec.match_file(rel))

    def is_protected(self, relpath: str) -> bool:
        """Whether a write to a resolved relative path is refused by the `.git` rule."""
        if not self._protect_git:
            return False
        rel = relpath.strip("/")
        return self._root_in_git or in_git(rel) or self._in_git_dir(rel)

    def _in_git_dir(self, rel: str) -> bool:
        """Whether a folder on the way to `rel` is (or with `rel`'s entry becomes) a git dir.

        The way is walked folder by folder on descriptors: a lookup from the root per folder
        would cost the square of the depth.
        """
        parts = [p for p in rel.split("/") if p not in ("", ".")]
        fd = self._paths.root_fd
        try:
            for depth, adding in enumerate(parts):
                if _is_git_dir(_exists_in(fd), adding):
                    return True
                if depth + 1 == len(parts):
                    break
                try:
                    inner = os.open(adding, _WAY, dir_fd=fd)
                except (FileNotFoundError, NotADirectoryError):
                    return False  # nothing exists beneath a missing folder or a file
                except OSError:
                    # Not a plain folder (a symlink swapped in since the path was resolved):
                    # judge the rest by path, following it.
                    return self._in_git_dir_by_path(parts, depth + 1)
                if fd != self._paths.root_fd:
                    os.close(fd)
                fd = inner
        finally:
            if fd != self._paths.root_fd:
                os.close(fd)
        return False

    def _in_git_dir_by_path(self, parts: list[str], start: int) -> bool:
        """`_in_git_dir` from depth `start` on, each folder looked up by its path from the root."""
        root_fd = self._paths.root_fd
        for depth in range(start, len(parts)):
            folder = "/".join(parts[:depth])

            def exists(name: str, folder: str = folder) -> bool:
                try:
                    os.stat(f"{folder}/{name}" if folder else name, dir_fd=root_fd,
                            follow_symlinks=False)  # fmt: skip
                except OSError:
                    return False
                return True

            if _is_git_dir(exists, parts[depth]):
                return True
        return False

    def rel(
        self, path: PathArg, *, check_deny: bool, write: bool = False, follow: bool = True
    ) -> str:
        """The resolved relative path, or the name a missing path would get.

        With `write`, a path the `.git` rule protects is refused (protected). Without `follow`, a
        final symlink is not followed: the path of the link itself.
        """
        try:
            with self.resolve(path, check_deny=check_deny, write=write, follow=follow) as r:
                return r.rel
        except SandboxError as exc:
            if exc.code != "not_found":
                raise
            rel = self._missing_rel(path)
            if rel is None:
                raise
            if write and self.is_protected(rel):
                raise _protected(rel) from None
            return rel

    def resolve(
        self,
        path: PathArg,
        *,
        follow: bool = True,
        make_parents: bool = False,
        check_deny: bool = True,
        write: bool = False,
        made: list[str] | None = None,
    ) -> Resolved:
        """Resolve `path`; with `check_deny`, refuse it when any entry on the way is denied.

        With `write` (the caller is about to write, create or remove the entry), the `.git` rule
        applies too, to the entry, each symlink hop and every folder `make_parents` would make.
        `made` receives the folders `make_parents` made (see `PathResolver.ensure_dir`).
        """
        if self._paths.root_fd < 0:
            raise SandboxError("io_error", "This sandbox is closed; open a new Sandbox.")
        guard = self._folder_guard(write)
        try:
            r = self._paths.resolve(
                path, follow=follow, make_parents=make_parents, guard=guard, made=made
            )
        except SandboxError as exc:
            # A missing folder inside a denied area is reported as denied, not as not_found.
            if exc.code == "not_found":
                rel = self._missing_rel(path)
                if rel is not None and self.is_denied(rel):
                    raise _denied(rel) from None
                if write and rel is not None and self.is_protected(rel):
                    raise _protected(rel) from None
            raise
        if check_deny:
            is_dir = r.stat is not None and stat.S_ISDIR(r.stat.st_mode)
            for rel in r.visited:
                if self.is_denied(rel) or (is_dir and rel == r.rel and self.is_denied(rel + "/")):
                    r.close()
                    raise _denied(rel)
        if write:
            for rel in (*r.visited, r.rel):
                if self.is_protected(rel):
                    r.close()
                    raise _protected(rel)
            if self._protect_readonly and not _may_write(r):
                r.close()
                raise _read_only(r)
        return r

    def remove_made(self, folders: list[str]) -> None:
        """Remove the folders `resolve` made (`made`) while they are empty; see
        `PathResolver.remove_made`."""
        self._paths.remove_made(folders)

    def _missing_rel(self, path: PathArg) -> str | None:
        """The would-be relative path of a path whose folders are partly missing (None if unknown).

        A way that leaves the root raises outside_root here, even through folders not made yet.
        """
        try:
            return self._paths.would_be(path)
        except SandboxError as exc:
            if exc.code == "outside_root":
                raise
            return None

    def _folder_guard(self, write: bool) -> Guard:
        """The check of each folder `make_parents` would make, for one resolution (see `Guard`).

        A deny pattern refuses it; with `write`, so does the `.git` rule. The first folder asked
        about is judged on its whole way; one made in the folder asked about just before, only by
        its own name and that parent (the rest of the way was judged already): a chain of new
        folders costs a few lookups each, whatever its depth.
        """
        last: list[str] = []

        def guard(rel: str, parent_fd: int) -> None:
            if self.is_denied(rel) or self.is_denied(rel + "/"):
                raise _denied(rel)
            if not write or not self._protect_git:
                return
            parent, _, name = rel.rpartition("/")
            if last and parent == last[0]:
                made_in = parent_fd >= 0 and _is_git_dir(_exists_in(parent_fd), name)
                protected = self._root_in_git or in_git(name) or made_in
            else:
                protected = self.is_protected(rel)
            if protected:
                raise _protected(rel)
            last[:] = [rel]

        return guard


def _exists_in(fd: int) -> Callable[[str], bool]:
    """Whether a name exists in the folder `fd` (a link is not followed)."""

    def exists(name: str) -> bool:
        try:
            os.stat(name, dir_fd=fd, follow_symlinks=False)
        except OSError:
            return False
        return True

    return exists


def _may_write(r: Resolved) -> bool:
    """Whether the caller could write the existing regular file `r` names in place (anything
    else passes: a new name, a folder, a link being removed).

    The kernel answers for the caller's user and groups (mode bits, owner, ACLs, an immutable
    file, a read-only mount). A temp file renamed over the file needs only the folder's write
    permission, so without this a file the caller may not write would be replaced all the same.
    The kernel lets a privileged caller (root) write any file: for it, a file with no write bit
    at all is read-only on purpose, as editors take it.
    """
    if r.name is None or r.stat is None or not stat.S_ISREG(r.stat.st_mode):
        return True
    if not r.stat.st_mode & 0o222:
        return False
    return os.access(r.name, os.W_OK, dir_fd=r.dir_fd, effective_ids=True, follow_symlinks=False)


def check_root(root: PathArg) -> str:
    """The root path as text; invalid_path when it is not a path, holds a NUL or cannot be encoded."""
    try:
        text = os.fspath(root)
    except TypeError:
        raise SandboxError(
            "invalid_path", f"The sandbox root {root!r} is not a path; pass a string.", path=None
        ) from None
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if "\0" in text:
        raise SandboxError(
            "invalid_path",
            "The sandbox root path contains a NUL byte; give the directory's real path.",
            path=text.replace("\0", ""),
        )
    if not text:
        raise SandboxError("invalid_path", "The sandbox root path is empty; give a directory.")
    return text


def require_file(r: Resolved, path: PathArg) -> None:
    """Refuse the root itself where a file path is needed (is_directory)."""
    if r.name is None:
        raise SandboxError(
            "is_directory", f"{os.fspath(path)!r} is the sandbox root; give a file path.", path="."
        )


def raced(path: PathArg) -> SandboxError:
    """The error for an entry that kept turning into a symlink through every retry."""
    return SandboxError(
        "loop",
        f"{os.fspath(path)!r} kept turning into a symlink while being opened; retry later.",
        path=os.fspath(path) if isinstance(os.fspath(path), str) else None,
    )


def _denied(rel: str) -> SandboxError:
    return SandboxError(
        "denied",
        f"{rel!r} is protected (a deny pattern covers it); the tools may not "
        "touch it. Choose another path.",
        path=rel,
    )


def _protected(rel: str) -> SandboxError:
    return SandboxError(
        "protected",
        f"{rel!r} is inside a git repository's own folder (a .git folder, or a folder holding "
        "HEAD, objects/ and refs/ that git takes for a bare repository), or would make one: "
        "writes there are refused by default, "
        "because git runs hooks and reads its config as code. Reading it is allowed. Change the "
        "files of the work tree instead; if this write is really intended, lift the rule "
        "explicitly (allow_git_writes=True, or --allow-git-writes on the command line).",
        path=rel,
    )


def _read_only(r: Resolved) -> SandboxError:
    assert r.stat is not None
    mode, owner = stat.S_IMODE(r.stat.st_mode), r.stat.st_uid
    why = (
        f"{r.rel!r} is read-only (mode {mode:04o}: no one may write it)"
        if not mode & 0o222
        else f"The system refused this process write access to {r.rel!r} (mode {mode:04o}, "
        f"owner uid {owner}; this process runs as uid {os.geteuid()})"
    )
    return SandboxError(
        "permission",
        f"{why}: the tools do not replace a file that could not be written in place. Leave it "
        "as it is, or make it writable first (chmod u+w); if replacing it is really intended, "
        "lift the rule explicitly (allow_readonly_writes=True, or --allow-readonly-writes on "
        "the command line).",
        path=r.rel,
    )


def _deny_spec(patterns: list[str]) -> pathspec.GitIgnoreSpec:
    """The matcher of gitignore-style deny patterns (pathspec is imported only when there are
    some: most sessions give none)."""
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(patterns)
