"""The watcher's baselines: what each file held when last seen, and reading that through the sandbox.

A `Baseline` is a file's sha256 and, under the size cap, the blob of its bytes in the store (a file
over the cap is known by its hash alone). `BaselineTable` keeps them for the observer and worker
threads, with an optional fallback lookup for paths it has no entry for. `look` reads a file's
current baseline, `scan` lists the regular files of the tree; neither looks at denied paths.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ._errors import SandboxError
from ._sandbox import Sandbox
from ._text import decode

__all__ = ["ABSENT", "SKIP", "Baseline", "BaselineTable", "look", "scan"]

# Codes meaning "no regular file is there (any more)"; other errors leave the baseline alone.
_ABSENT_CODES = frozenset({"not_found", "is_directory", "not_a_file", "denied"})


@dataclass(frozen=True)
class Baseline:
    """What a file held when last seen: its sha256 and, under the size cap, the blob of its bytes."""

    sha256: str
    blob_id: str | None


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
    return Baseline(version.sha256, sandbox.store.put(data))


def _hash_only(sandbox: Sandbox, rel: str) -> object:
    try:
        version = sandbox.version(rel)
    except SandboxError as exc:
        return ABSENT if exc.code in _ABSENT_CODES else SKIP
    return ABSENT if version is None else Baseline(version.sha256, None)


def scan(sandbox: Sandbox) -> Iterator[str]:
    """Root-relative paths of the regular files in the tree, denied folders pruned."""
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
                yield rel
