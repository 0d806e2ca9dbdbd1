"""Counting the work a call does, to pin how it grows with its input without timing anything.

`OpCounter` wraps the `os` functions the sandbox calls (and its openat2) with counters that call
the real function: `calls` counts them, `components` adds up the path components they were given
(a lookup of a path N folders long costs the kernel N steps, so a walk from the root at every
level shows here as the square of the depth). `grows_linearly` compares the counts at sizes N,
2N and 4N.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from sandbox import _openat2

_WRAPPED = ("open", "stat", "lstat", "mkdir", "rmdir", "fsync", "readlink", "rename", "unlink",
            "link", "listdir", "scandir")  # fmt: skip


@dataclass
class OpCounter:
    """Calls of the wrapped functions and the path components they were given, while active."""

    calls: int = 0
    components: int = 0
    by_name: dict[str, int] = field(default_factory=dict)
    active: bool = False

    def note(self, name: str, path: object) -> None:
        if not self.active:
            return
        self.calls += 1
        self.by_name[name] = self.by_name.get(name, 0) + 1
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if isinstance(path, str):
            self.components += len([p for p in path.split("/") if p])

    @contextmanager
    def counting(self) -> Iterator[OpCounter]:
        """Count within the block only (from zero)."""
        self.calls = self.components = 0
        self.by_name = {}
        self.active = True
        try:
            yield self
        finally:
            self.active = False


def install(monkeypatch: pytest.MonkeyPatch) -> OpCounter:
    """Wrap the functions (for the rest of the test) and return the counter."""
    counter = OpCounter()

    def wrap(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            counter.note(name, args[0] if args else kwargs.get("path"))
            return real(*args, **kwargs)

        return counted

    for name in _WRAPPED:
        monkeypatch.setattr(os, name, wrap(name, getattr(os, name)))
    real_openat2 = _openat2.openat2

    def openat2(dir_fd: int, path: str, *args: Any, **kwargs: Any) -> Any:
        counter.note("openat2", path)
        return real_openat2(dir_fd, path, *args, **kwargs)

    monkeypatch.setattr(_openat2, "openat2", openat2)
    return counter


def grows_linearly(counts: list[int], slack: float = 0.1, spare: int = 4) -> bool:
    """Whether counts at sizes N, 2N, 4N grow at most by a constant amount per unit.

    Linear work adds the same amount from 2N to 4N as twice that from N to 2N; quadratic work
    adds four times as much. Work that does not grow passes; `spare` allows a few calls made
    once (a folder of the state created on first use).
    """
    first, second = counts[1] - counts[0], counts[2] - counts[1]
    return second <= 2 * max(first, 0) * (1 + slack) + spare


DEPTHS = (24, 48, 96)
"""Folder depths N, 2N and 4N for `grows_linearly`."""


def folder_chain(depth: int) -> str:
    """A file's path under `depth` nested folders."""
    return "a/" * depth + "f.txt"
