"""The real formatters the formatting tests run, and small projects that configure them.

Python's come from the `test` extra, gofmt and clang-format from the packages `.ci/run`
installs, rustfmt with Rust (or those packages), and prettier from `node/`, whose lock pins it:
the first test that needs it runs `npm ci` there when `node_modules` is missing or older.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from formatting_helpers import need

NODE = Path(__file__).parent / "node"
NPM_CI_TIMEOUT = 300.0


def _installed(folder: Path) -> bool:
    """Whether `npm ci` installed `folder`'s lock since it last changed (npm writes
    node_modules/.package-lock.json last)."""
    marker = folder / "node_modules" / ".package-lock.json"
    if not marker.is_file():
        return False
    pinned = max((folder / name).stat().st_mtime for name in ("package.json", "package-lock.json"))
    return marker.stat().st_mtime >= pinned


@pytest.fixture(scope="session")
def prettier_modules() -> Path:
    """The `node_modules` folder holding the pinned prettier, installed on first use."""
    if not _installed(NODE):
        need("node")
        command = [need("npm"), "ci", "--ignore-scripts", "--no-audit", "--no-fund"]
        try:
            done = subprocess.run(
                command,
                cwd=NODE,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=NPM_CI_TIMEOUT,
            )
        except subprocess.TimeoutExpired:
            pytest.fail(f"npm ci in {NODE} ran over {NPM_CI_TIMEOUT:.0f} s")
        if done.returncode != 0 or not _installed(NODE):
            pytest.fail(f"npm ci in {NODE} failed (exit {done.returncode}):\n{done.stderr}")
    return NODE / "node_modules"
