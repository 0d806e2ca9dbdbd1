"""Opening and hashing an existing regular file through the gate, for the `Sandbox`'s reads.

Both helpers resolve the path, refuse anything but a regular file at once, and resolve again (at
most `RETRIES` times) when the entry turns into a symlink between resolving and opening.
"""

from __future__ import annotations

import os

from ._errors import SandboxError
from ._files import Version, check_regular, hash_file, open_regular
from ._gate import RETRIES, PathArg, PathGate, raced, require_file

__all__ = ["file_version", "open_file"]


def open_file(gate: PathGate, path: PathArg) -> tuple[int, os.stat_result, str]:
    """An open descriptor of an existing regular file, its stat and its relative path."""
    for _ in range(RETRIES):
        with gate.resolve(path) as r:
            require_file(r, path)
            if r.stat is None:
                raise SandboxError(
                    "not_found",
                    f"{r.rel} does not exist. Check the path, or create the file first.",
                    path=r.rel,
                )
            assert r.name is not None
            check_regular(r.stat, r.rel)
            try:
                fd, st = open_regular(r.dir_fd, r.name, r.rel)
            except SandboxError as exc:
                if exc.code == "loop":  # became a symlink after resolution: resolve again
                    continue
                raise
            return fd, st, r.rel
    raise raced(path)


def file_version(gate: PathGate, path: PathArg) -> Version | None:
    """The current version of a regular file, or None when it does not exist."""
    for _ in range(RETRIES):
        try:
            r = gate.resolve(path)
        except SandboxError as exc:
            if exc.code == "not_found":
                return None
            raise
        with r:
            if r.stat is None:
                return None
            require_file(r, path)
            check_regular(r.stat, r.rel)
            assert r.name is not None
            try:
                found = hash_file(r.dir_fd, r.name, r.rel)
            except SandboxError as exc:
                if exc.code == "loop":
                    continue
                raise
            return None if found is None else found[0]
    raise raced(path)
