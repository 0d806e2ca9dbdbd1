"""Helpers of the tool tests: the files under a root, error results checked, a file made
unchangeable."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from edittools import ToolResult


def tree(root: Path) -> dict[str, bytes | str]:
    """Every entry under `root` except the state folder: bytes for files, a tag for the rest."""
    out: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".edittools"]
        for name in dirnames:
            out[os.path.relpath(os.path.join(dirpath, name), root)] = "dir"
        for name in filenames:
            full = Path(dirpath, name)
            rel = os.path.relpath(full, root)
            out[rel] = full.read_bytes() if full.is_file() and not full.is_symlink() else "other"
    return out


def check_error(result: ToolResult, code: str, *hints: str) -> str:
    """Assert `result` is an error with `code` whose value carries each hint; return the value."""
    assert isinstance(result, ToolResult)
    assert result.is_error is True
    artifact = result.artifact
    assert artifact is not None and artifact.kind == "error" and artifact.status == "error"
    assert artifact.payload.code == code
    assert result.value.startswith(f"Error ({code}): ")
    for hint in hints:
        assert hint in result.value, (hint, result.value)
    return result.value


@contextmanager
def unchanged(root: Path) -> Iterator[None]:
    """The block must leave every file under `root` as it was."""
    before = tree(root)
    yield
    assert tree(root) == before


@contextmanager
def immutable(path: Path) -> Iterator[None]:
    """Make `path` unchangeable for real (chattr +i as root, a read-only folder otherwise)."""
    if os.geteuid() != 0:
        path.parent.chmod(0o555)
        try:
            yield
        finally:
            path.parent.chmod(0o755)
        return
    if shutil.which("chattr") is None:
        pytest.skip("running as root without chattr: no way to make a file unwritable")
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True)
    if done.returncode != 0:
        pytest.skip("this file system or container does not allow chattr +i")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)
