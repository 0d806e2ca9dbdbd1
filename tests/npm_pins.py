"""The npm packages some tests run, pinned by a folder's package.json and lock, and installed
there with `npm ci` on first use (the conformance suite, the TypeScript server, prettier)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def installed(folder: Path) -> bool:
    """Whether `npm ci` has installed `folder`'s lock since package.json or the lock changed
    (npm writes node_modules/.package-lock.json last)."""
    marker = folder / "node_modules" / ".package-lock.json"
    if not marker.is_file():
        return False
    pinned = max((folder / name).stat().st_mtime for name in ("package.json", "package-lock.json"))
    return marker.stat().st_mtime >= pinned


def npm_ci(folder: Path, *, needed_by: str, timeout: float, engine_strict: bool = True) -> None:
    """Install `folder`'s lock exactly (unless it is installed already), or fail the test
    saying why; `needed_by` names the tests that need it. `engine_strict=False` lets packages
    that name a newer Node than npm's own install (one that brings that Node itself)."""
    if installed(folder):
        return
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail(f"npm is not on PATH: {needed_by} install {folder} with npm ci")
    command = [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"]
    if not engine_strict:
        command.append("--engine-strict=false")
    try:
        done = subprocess.run(command, cwd=folder, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout)  # fmt: skip
    except subprocess.TimeoutExpired as exc:
        pytest.fail(
            f"npm ci in {folder} ran over {timeout:.0f} s (is the npm registry reachable?):\n"
            f"{_text(exc.stdout)}{_text(exc.stderr)}"
        )
    if done.returncode != 0 or not installed(folder):
        pytest.fail(
            f"npm ci in {folder} failed (exit {done.returncode}); {needed_by} need the packages "
            f"its lock pins:\n{done.stdout}{done.stderr}"
        )


def _text(output: str | bytes | None) -> str:
    return output.decode(errors="replace") if isinstance(output, bytes) else output or ""
