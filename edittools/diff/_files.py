"""`diff_files` and `diff_dirs`: diffs of files and folders on disk.

This module is the package's one edge to the file system; every other module of the engine is
pure and takes texts or buffers (`diff_buffers`, `line_diff`, `tree_diff`). Here both paths are
opened, anything but a regular file is refused (without blocking on a FIFO), the files are
mapped read-only and unmapped once the diff is built; folders are walked and their files read
through a reader handed to `tree_diff`, as watchdog's snapshot diff takes its `stat`. The
opening stays beside the engine rather than in `sandbox` because these are a person's paths,
not paths confined to a root. `line_diff_files`/`line_diff_dirs` give the diffs as plain data,
for the command line, which prints them without loading the models.
"""

from __future__ import annotations

import errno
import mmap
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from functools import partial
from typing import TYPE_CHECKING

from edittools.diff._collector import collector_paused
from edittools.diff._defaults import DEFAULT_BUDGET, RENAME_THRESHOLD
from edittools.diff._errors import DiffError

if TYPE_CHECKING:
    from edittools.artifacts import ChangesetPayload, DiffPayload
    from edittools.diff._line_diff import LineDiff
    from edittools.diff._tree import Runner, TreeEntry

# The engine (`line_diff`, `tree_diff` and what they import) is loaded where a diff is made:
# a tree diff loads it while the trees are walked.

PathArg = str | os.PathLike[str]
_READ = 1 << 20
# The first read of a tree's file: most source files fit, and a buffer this size comes from the
# heap without mapping fresh pages (a 1 MiB one, trimmed to a small file, cost a fifth more).
_FIRST_READ = 1 << 16


def diff_files(
    old: PathArg | None,
    new: PathArg | None,
    *,
    path: str | None = None,
    old_path: str | None = None,
    context: int = 3,
    include_texts: bool = False,
    budget: float | None = DEFAULT_BUDGET,
) -> DiffPayload:
    """Diff the files at `old` and `new` as `diff_texts` would diff their bytes, at any size.

    Both files are memory-mapped, so the unchanged bulk stays in the page cache and only the
    changed regions are split into lines: memory grows with the hunks, not with the files.
    None for a side makes the diff a create or a delete. `path` names the file in the payload
    (default: `new` as given, else `old`); `old_path` other than it
    makes the payload a rename. A path that is not a regular file raises `DiffError` with code
    ``not_a_file``; a missing or unreadable one raises the `OSError`.
    """
    from edittools.diff._texts import diff_buffers

    with ExitStack() as stack:
        old_data = stack.enter_context(_mapped(old))
        new_data = stack.enter_context(_mapped(new))
        return diff_buffers(
            old_data,
            new_data,
            path=_name(path, new, old),
            old_path=old_path,
            context=context,
            include_texts=include_texts,
            budget=budget,
        )


def line_diff_files(
    old: PathArg | None,
    new: PathArg | None,
    *,
    context: int = 3,
    budget: float | None = DEFAULT_BUDGET,
    path: str | None = None,
) -> LineDiff:
    """The diff of `diff_files` as plain data (`LineDiff`), without the artifact models.

    `path` names the file for the hunks' function context (default: `new`, else `old`).
    """
    from edittools.diff._line_diff import line_diff

    name = path if path is not None else os.fspath(new if new is not None else old or "")
    with ExitStack() as stack:
        old_data = stack.enter_context(_mapped(old))
        new_data = stack.enter_context(_mapped(new))
        return line_diff(old_data, new_data, context=context, budget=budget, path=name)


def _name(path: str | None, new: PathArg | None, old: PathArg | None) -> str:
    if path is not None:
        return path
    given = new if new is not None else old
    if given is None:
        raise DiffError("no_content", "Give at least one of old and new; both were None.")
    return os.fspath(given)


_MAP_FROM = 16 * 1024 * 1024
"""Files this large are mapped rather than read. A mapped file that another process truncates
raises SIGBUS on the next read of a lost page, which kills the process: only where reading the
whole file would cost its size in memory is that risk taken (docs/native-boundaries.md)."""


@contextmanager
def _mapped(name: PathArg | None) -> Iterator[bytes | mmap.mmap | None]:
    """A regular file's content: read when small, a read-only map from `_MAP_FROM` bytes up
    (``b""`` when empty: an empty file cannot be mapped)."""
    if name is None:
        yield None
        return
    fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise DiffError("not_a_file", f"{os.fspath(name)} is {kind}; give two regular files.")
        if info.st_size < _MAP_FROM:
            with os.fdopen(os.dup(fd), "rb") as file:
                yield file.read()
            return
        with mmap.mmap(fd, 0, access=mmap.ACCESS_READ) as data:
            yield data
    finally:
        os.close(fd)


def line_diff_dirs(
    old: PathArg,
    new: PathArg,
    *,
    context: int = 3,
    rename_threshold: float | None = RENAME_THRESHOLD,
    budget: float | None = DEFAULT_BUDGET,
    hunks: bool = True,
    run: Runner | None = None,
) -> list[TreeEntry]:
    """The files that differ between folders `old` and `new`, as plain data.

    Regular files are compared by content and symbolic links by their target (as git does);
    other entries are left out. Names are relative to each folder, ``/``-separated. `hunks`
    False counts lines without building hunks (as `tree_diff`). `run`, when given, runs the walks
    and the diffs as independent tasks (the command line's shares them with a forked child; a
    library call never forks on its own); the result is the same either way.
    """
    old_root, new_root = os.fspath(old), os.fspath(new)
    # Walking, reading and diffing thousands of files makes hundreds of thousands of lists
    # and tuples, none in a cycle: the collector's passes over them would free nothing.
    with collector_paused():
        if run is not None:
            old_names, new_names = run([partial(_walk, old_root), partial(_walk, new_root)])
        else:
            old_names, new_names = _walk(old_root), _walk(new_root)
        from edittools.diff._tree import tree_diff

        with _reader(old_root) as read_old, _reader(new_root) as read_new:
            return tree_diff(
                old_names,
                new_names,
                read_old,
                read_new,
                rename_threshold=rename_threshold,
                context=context,
                budget=budget,
                hunks=hunks,
                run=run,
            )


def diff_dirs(
    old: PathArg,
    new: PathArg,
    *,
    context: int = 3,
    rename_threshold: float | None = RENAME_THRESHOLD,
    budget: float | None = DEFAULT_BUDGET,
    run: Runner | None = None,
) -> ChangesetPayload:
    """The changeset payload of two folders: one diff payload per file that differs.

    Added, deleted, modified and renamed files (a deleted and an added file at least
    `rename_threshold` similar, as git's ``-M``); binary files are reported, not diffed.
    `run` is as in `line_diff_dirs`.
    """
    from edittools.artifacts import ChangesetPayload, DiffStats
    from edittools.diff._payload import payload_of

    files = [
        payload_of(
            entry.result, path=entry.path, old_path=entry.old_path, similarity=entry.similarity
        )
        for entry in line_diff_dirs(
            old,
            new,
            context=context,
            rename_threshold=rename_threshold,
            budget=budget,
            run=run,
        )
    ]
    stats = DiffStats(
        added=sum(f.stats.added for f in files), removed=sum(f.stats.removed for f in files)
    )
    return ChangesetPayload(files=files, stats=stats)


def _walk(root: PathArg) -> list[str]:
    """Every regular file and symbolic link under `root`, by relative name."""
    if not os.path.isdir(root):
        raise DiffError("not_a_directory", f"{os.fspath(root)} is not a folder; give two folders.")
    found: list[str] = []
    pending = [("", os.fspath(root))]
    while pending:
        prefix, folder = pending.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                # The entry's type comes with the listing: no stat call per file.
                if entry.is_dir(follow_symlinks=False):
                    pending.append((prefix + entry.name + "/", entry.path))
                elif entry.is_file(follow_symlinks=False) or entry.is_symlink():
                    found.append(prefix + entry.name)
    return found


@contextmanager
def _reader(root: PathArg) -> Iterator[Callable[[str], bytes]]:
    """A function that reads a file of the tree by its relative name (a link: its target).

    Names are opened relative to one descriptor of the root, held for the reader's life. The
    kernel's walk down a cached path costs less than opening and closing each folder on the way
    (measured on a release tree of ~3,000 folders: a fifth of the reading time).
    """
    flags = os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK
    at = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)

    def read(name: str) -> bytes:
        try:
            fd = os.open(name, flags, dir_fd=at)
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # a symbolic link: its target is its content
                return os.fsencode(os.readlink(name, dir_fd=at))
            raise
        try:
            # A regular file reads short only at its end: most files take one call.
            first = os.read(fd, _FIRST_READ)
            if len(first) < _FIRST_READ:
                return first
            chunks = [first]
            while chunk := os.read(fd, _READ):
                chunks.append(chunk)
            return b"".join(chunks)
        finally:
            os.close(fd)

    try:
        yield read
    finally:
        os.close(at)
