"""Helpers for the watcher tests: child processes that change files, bounded waits, git's counts."""

from __future__ import annotations

import pathlib
import subprocess
import sys
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def run_child(code: str, cwd: pathlib.Path) -> None:
    """Run `code` in a separate Python process with `cwd` as its working directory."""
    subprocess.run([sys.executable, "-c", code], cwd=cwd, check=True, timeout=60)


def collect(
    get: Callable[[float], T | None], until: Callable[[list[T]], bool], *, timeout: float = 15.0
) -> list[T]:
    """Take items from `get` until `until(items)` holds or `timeout` seconds pass."""
    items: list[T] = []
    deadline = time.monotonic() + timeout
    while not until(items):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        item = get(min(remaining, 0.5))
        if item is not None:
            items.append(item)
    return items


def drain(get: Callable[[float], T | None]) -> list[T]:
    """Everything already queued (call after the watcher stopped)."""
    items: list[T] = []
    while (item := get(0)) is not None:
        items.append(item)
    return items


def numstat(old: bytes, new: bytes, scratch: pathlib.Path) -> tuple[int, int]:
    """Lines added and removed between two texts, as `git diff --numstat` counts them."""
    scratch.mkdir(parents=True, exist_ok=True)
    (scratch / "old").write_bytes(old)
    (scratch / "new").write_bytes(new)
    out = subprocess.run(
        ["git", "diff", "--no-index", "--numstat", "old", "new"],
        cwd=scratch,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    return (int(out[0]), int(out[1])) if out else (0, 0)
