"""Helpers of the diagnostics tests: the project's server specs, small projects, and the
processes and descriptors the lifetime tests count."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from edittools.diagnostics import SERVERS, Checkers, ServerSpec


def spec(name: str) -> ServerSpec:
    """The project's spec of the server `name`."""
    return next(server for server in SERVERS if server.name == name)


def require(executable: str, *, where: str) -> None:
    """Fail (not skip) when a server the suite runs is not installed."""
    if shutil.which(executable) is None:
        pytest.fail(f"`{executable}` is not installed: {where}")


def make_checkers(
    sandbox: Path, *, servers: tuple[ServerSpec, ...], search_path: tuple[Path, ...] = ()
) -> Checkers:
    """A `Checkers` over `sandbox` that runs only `servers`."""
    return Checkers(sandbox, search_path=search_path, servers=servers)


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
