"""Fixtures of the diagnostics tests: the servers they run, and counts of processes and descriptors.

The TypeScript server is an npm package pinned in `npm/` (package.json and its lock), installed
there with `npm ci` by the first test that needs it, like the MCP conformance suite's. The other
servers come from the project's test dependencies (ruff, basedpyright) and from Debian packages
(clangd, gopls with golang-go), which `.ci/run` installs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from edittools.diagnostics import SERVERS, Checkers, ServerSpec

NPM_FOLDER = Path(__file__).parent / "npm"
NPM_CI_TIMEOUT = 600.0


def spec(name: str) -> ServerSpec:
    """The project's spec of the server `name`."""
    return next(server for server in SERVERS if server.name == name)


def _installed(folder: Path) -> bool:
    """Whether `npm ci` has installed `folder`'s lock since package.json or the lock changed
    (npm writes node_modules/.package-lock.json last)."""
    marker = folder / "node_modules" / ".package-lock.json"
    if not marker.is_file():
        return False
    pinned = max((folder / name).stat().st_mtime for name in ("package.json", "package-lock.json"))
    return marker.stat().st_mtime >= pinned


def _npm_ci(folder: Path) -> None:
    """Install `folder`'s lock exactly, or fail the test saying why."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail(f"npm is not on PATH: the TypeScript diagnostics tests install {folder}")
    command = [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"]
    try:
        done = subprocess.run(
            command,
            cwd=folder,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=NPM_CI_TIMEOUT,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"npm ci in {folder} ran over {NPM_CI_TIMEOUT:.0f} s: {exc}")
    if done.returncode != 0 or not _installed(folder):
        pytest.fail(f"npm ci in {folder} failed (exit {done.returncode}):\n{done.stderr}")


@pytest.fixture(scope="session")
def npm_bin() -> Path:
    """The `.bin` folder of the pinned npm servers, installed when missing or older than the lock."""
    if not _installed(NPM_FOLDER):
        _npm_ci(NPM_FOLDER)
    return NPM_FOLDER / "node_modules" / ".bin"


def require(executable: str, *, where: str) -> None:
    """Fail (not skip) when a server the suite runs is not installed."""
    if shutil.which(executable) is None:
        pytest.fail(f"`{executable}` is not installed: {where}")


def make_checkers(
    sandbox: Path, *, servers: tuple[ServerSpec, ...], search_path: tuple[Path, ...] = ()
) -> Checkers:
    """A `Checkers` over `sandbox` that runs only `servers`."""
    return Checkers(sandbox, search_path=search_path, servers=servers)


@pytest.fixture
def ruff_checkers(tmp_path: Path) -> Iterator[tuple[Checkers, Path]]:
    """A `Checkers` running only ruff over a fresh Python project, and the project's folder."""
    project = python_project(tmp_path)
    with make_checkers(tmp_path, servers=(spec("ruff"),)) as checkers:
        yield checkers, project


def python_project(folder: Path) -> Path:
    """A Python project whose own configuration fixes what ruff and basedpyright check."""
    project = folder / "proj"
    project.mkdir()
    (project / "pyproject.toml").write_text(
        '[project]\nname = "proj"\nversion = "0"\n\n'
        '[tool.ruff.lint]\nselect = ["F"]\n\n'
        '[tool.basedpyright]\ntypeCheckingMode = "standard"\n',
        encoding="utf-8",
    )
    return project


def children_of(pid: int) -> set[int]:
    """The processes whose parent is `pid`, zombies included."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # The command name (field 2) is in parentheses and may hold spaces.
        fields = stat.rpartition(")")[2].split()
        if int(fields[1]) == pid:
            found.add(int(entry))
    return found


def in_group(pgid: int) -> set[int]:
    """The live processes of process group `pgid`."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()
        if int(fields[3]) == pgid and fields[0] != "Z":
            found.add(int(entry))
    return found


def open_fds() -> set[int]:
    """The descriptors this process holds open."""
    return {int(fd) for fd in os.listdir("/proc/self/fd")}
