"""The watcher's baselines: what each file held when last seen, and reading that through the sandbox.

A `Baseline` is a file's digest and, under the size cap, the blob of its bytes in the store (a file
over the cap is known by its hash alone), with the size, modification time and inode it had then.
A *stat-only* baseline (no digest) knows just those three: it is what a watch over a whole tree
takes at start, because hashing and keeping every file up front costs a read of the whole tree.
It tells an untouched file from a changed one, and a pure rename (same inode, size and time) from a
rewrite, but not the earlier content of a file rewritten before its content was kept.

`BaselineTable` keeps them for the observer and worker threads, with an optional fallback lookup for
paths it has no entry for. `look` reads a file's current baseline, `scan` lists the regular files of
the tree with their stat; neither looks at denied paths.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from ._errors import SandboxError
from ._files import Version
from ._sandbox import Sandbox
from ._text import decode

__all__ = ["ABSENT", "SKIP", "Baseline", "BaselineTable", "look", "scan"]

# Codes meaning "no regular file is there (any more)"; other errors leave the baseline alone.
_ABSENT_CODES = frozenset({"not_found", "is_directory", "not_a_file", "denied"})


Stat = tuple[int, int, int]
"""A file's size, modification time (ns) and inode."""


@dataclass(frozen=True)
class Baseline:
    """What a file held when last seen: its content digest and, under the size cap, the blob of its bytes.

    `stat` is the file's size, mtime and inode then, when known. A stat-only baseline has no
    `digest` (and no blob): the file was seen but its content was not read.
    """

    digest: str | None
    blob_id: str | None
    stat: Stat | None = None

    @property
    def content_known(self) -> bool:
        """Whether the content was read (a hash at least), not only the file's stat."""
        return self.digest is not None

    def same_file(self, other: Baseline) -> bool:
        """Whether `other` certainly holds the same content as this baseline.

        By hash when both have one; else by stat, which rename keeps and any write changes (a
        write within the file system's time resolution that keeps the size is the blind spot
        every stat-based tool has).
        """
        if self.digest is not None and other.digest is not None:
            return self.digest == other.digest
        return self.stat is not None and self.stat == other.stat


class _Absent:
    """The sentinel for "no regular file at this path"."""


ABSENT = _Absent()
SKIP = object()  # the path could not be looked at (permission, race): keep its baseline


class BaselineTable:
    """The baselines by root-relative path, safe to share between threads.

    `fallback(path)` may supply a baseline for a path the table has no entry for.
    """

    def __init__(self, fallback: Callable[[str], Baseline | None] | None = None) -> None:
        # A key with None means "known to be absent": the fallback lookup is not asked then.
        self._baselines: dict[str, Baseline | None] = {}
        self._lock = threading.Lock()
        self._fallback = fallback

    def get(self, rel: str) -> Baseline | None:
        """The baseline kept for `rel` (the fallback is not asked)."""
        with self._lock:
            return self._baselines.get(rel)

    def known(self, rel: str) -> Baseline | None:
        """The baseline kept for `rel`, else what the fallback knows."""
        with self._lock:
            if rel in self._baselines:
                return self._baselines[rel]
        return self._fallback(rel) if self._fallback is not None else None

    def set(self, rel: str, baseline: Baseline | None) -> None:
        """Keep `baseline` for `rel`; None records that no file is there."""
        with self._lock:
            self._baselines[rel] = baseline

    def add_many(self, entries: Iterable[tuple[str, Baseline]]) -> int:
        """Keep each baseline for a path that has no entry yet; return how many were added."""
        added = 0
        with self._lock:
            for rel, baseline in entries:
                if rel not in self._baselines:
                    self._baselines[rel] = baseline
                    added += 1
        return added

    def replace(self, rel: str, old: Baseline, new: Baseline) -> bool:
        """Keep `new` for `rel` only if the entry is still `old` (a compare-and-set)."""
        with self._lock:
            if self._baselines.get(rel) is not old:
                return False
            self._baselines[rel] = new
            return True

    def stat_only(self) -> list[str]:
        """The paths whose baseline is stat-only."""
        with self._lock:
            return [p for p, b in self._baselines.items() if b is not None and b.digest is None]

    def below(self, folder: str) -> list[str]:
        """The paths under `folder` that have a baseline."""
        prefix = folder.rstrip("/") + "/"
        with self._lock:
            return [p for p, b in self._baselines.items() if b is not None and p.startswith(prefix)]


def look(sandbox: Sandbox, rel: str, *, max_bytes: int, text_only: bool = False) -> object:
    """The current baseline of `rel`, `ABSENT` when no regular file is there, or `SKIP`.

    A file over `max_bytes` gets a hash-only baseline; with `text_only`, a binary file is `ABSENT`.
    """
    try:
        data, version = sandbox.read_bytes(rel, max_bytes=max_bytes)
    except SandboxError as exc:
        if exc.code in _ABSENT_CODES:
            return ABSENT
        if exc.code == "too_large":
            return _hash_only(sandbox, rel)
        return SKIP
    if text_only:
        try:
            decode(data)
        except SandboxError:
            return ABSENT
    return Baseline(version.digest, sandbox.store.put(data), _stat_of(version))


def _hash_only(sandbox: Sandbox, rel: str) -> object:
    try:
        version = sandbox.version(rel)
    except SandboxError as exc:
        return ABSENT if exc.code in _ABSENT_CODES else SKIP
    return ABSENT if version is None else Baseline(version.digest, None, _stat_of(version))


def _stat_of(version: Version) -> Stat:
    return (version.size, version.mtime_ns, version.inode)


def scan(sandbox: Sandbox) -> Iterator[tuple[str, Baseline]]:
    """The regular files of the tree with a stat-only baseline each, denied folders pruned.

    One `lstat` per file, no read: this is what a watch over a large tree can afford at start.
    """
    stack = [""]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(sandbox.root / folder if folder else sandbox.root))
        except OSError:
            continue
        for entry in entries:
            rel = f"{folder}/{entry.name}" if folder else entry.name
            if entry.is_symlink():
                continue
            if entry.is_dir(follow_symlinks=False):
                if not sandbox.is_denied(rel + "/"):
                    stack.append(rel)
            elif entry.is_file(follow_symlinks=False) and not sandbox.is_denied(rel):
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue  # gone meanwhile
                yield rel, Baseline(None, None, (st.st_size, st.st_mtime_ns, st.st_ino))
