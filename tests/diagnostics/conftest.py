"""Fixtures of the diagnostics tests: the servers they run, and counts of processes and descriptors.

The TypeScript server is an npm package pinned in `npm/` (package.json and its lock), installed
there with `npm ci` by the first test that needs it, like the MCP conformance suite's. The other
servers come from the project's test dependencies (ruff, basedpyright) and from Debian packages
(clangd, gopls with golang-go), which `.ci/run` installs.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from diagnostics_harness import (
    make_checkers,
    python_project,
    spec,
)
from npm_pins import npm_ci

from edittools.diagnostics import Checkers

NPM_FOLDER = Path(__file__).parent / "npm"
NPM_CI_TIMEOUT = 600.0


@pytest.fixture(scope="session")
def npm_bin() -> Path:
    """The `.bin` folder of the pinned npm servers, installed when missing or older than the lock."""
    npm_ci(NPM_FOLDER, needed_by="the TypeScript diagnostics tests", timeout=NPM_CI_TIMEOUT)
    return NPM_FOLDER / "node_modules" / ".bin"


@pytest.fixture
def ruff_checkers(tmp_path: Path) -> Iterator[tuple[Checkers, Path]]:
    """A `Checkers` running only ruff over a fresh Python project, and the project's folder."""
    project = python_project(tmp_path)
    with make_checkers(tmp_path, servers=(spec("ruff"),)) as checkers:
        yield checkers, project
