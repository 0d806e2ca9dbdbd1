"""Helpers of the formatting tests: a formatter that must be installed, a small project."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


def need(program: str) -> str:
    """`program` on PATH, or the test fails saying what installs it."""
    found = shutil.which(program)
    if found is None:
        pytest.fail(f"{program} is not on PATH: .ci/run installs it for the formatting tests")
    return found


def project(root: Path, files: dict[str, str]) -> Path:
    """`root` holding `files` (relative names, text), folders made as needed."""
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="")
    return root
