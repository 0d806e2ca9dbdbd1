"""Listing a folder beneath the root: descriptors all the way down, deny-aware, bounded.

The folder is resolved like any path (an in-root symlink to it is followed, one leading out is
refused) and opened by name on its parent's descriptor without following; each subfolder is opened
relative to its parent the same way. Symlinks met inside are listed as links and never followed.
Denied entries and the state folder are left out, as are hidden ones unless asked for.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ._errors import SandboxError, from_oserror

__all__ = ["DirEntry", "DirListing", "EntryKind", "open_listed_dir", "walk_listing"]

EntryKind = Literal["file", "dir", "link", "other"]

OPEN_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class DirEntry:
    """One listed entry: its root-relative path, its kind, and its size (None for a folder)."""

    path: str
    kind: EntryKind
    size: int | None


@dataclass(frozen=True)
class DirListing:
    """The entries under a folder in walk order (sorted by name, each folder before its contents).

    `truncated` says the listing stopped at its entry bound; `depth` is the levels it covers.
    """

    path: str
    depth: int
    entries: list[DirEntry]
    truncated: bool


def open_listed_dir(dir_fd: int, name: str, expected: os.stat_result, rel: str) -> int:
    """Open the resolved folder `name` in `dir_fd`, refusing a swap since it was resolved."""
    try:
        fd = os.open(name, OPEN_DIR, dir_fd=dir_fd)
    except OSError as exc:
        raise from_oserror(exc, rel, "open the folder") from exc
    st = os.fstat(fd)
    if (st.st_dev, st.st_ino) != (expected.st_dev, expected.st_ino):
        os.close(fd)
        raise SandboxError(
            "loop", f"{rel!r} changed while it was being opened; list it again.", path=rel
        )
    return fd


def walk_listing(
    fd: int,
    prefix: str,
    depth: int,
    *,
    is_denied: Callable[[str], bool],
    max_entries: int,
    hidden: bool,
) -> tuple[list[DirEntry], bool]:
    """The entries of the folder open at `fd` (the caller closes it), and whether the bound cut them."""
    entries: list[DirEntry] = []
    truncated = _walk(fd, prefix, depth, entries, is_denied, max_entries, hidden)
    return entries, truncated


def _walk(
    fd: int,
    prefix: str,
    depth: int,
    out: list[DirEntry],
    is_denied: Callable[[str], bool],
    max_entries: int,
    hidden: bool,
) -> bool:
    """Append the entries of the folder open at `fd`; return whether the bound cut the walk."""
    for name in sorted(os.listdir(fd)):
        if name.startswith(".") and not hidden:
            continue
        rel = prefix + name
        try:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except OSError:
            continue  # gone since it was listed
        is_dir = stat.S_ISDIR(st.st_mode)
        if is_denied(rel) or (is_dir and is_denied(rel + "/")):
            continue
        if len(out) >= max_entries:
            return True
        out.append(DirEntry(rel, _kind(st.st_mode), None if is_dir else st.st_size))
        if not is_dir or depth <= 1:
            continue
        try:
            child = open_listed_dir(fd, name, st, rel)
        except SandboxError:
            continue  # swapped for a symlink or removed since: not followed, not listed deeper
        try:
            if _walk(child, rel + "/", depth - 1, out, is_denied, max_entries, hidden):
                return True
        finally:
            os.close(child)
    return False


def _kind(mode: int) -> EntryKind:
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISLNK(mode):
        return "link"
    return "file" if stat.S_ISREG(mode) else "other"
