"""The real formatters the formatting tests run, and small projects that configure them.

Python's come from the `test` extra, gofmt and clang-format from the packages `.ci/run`
installs, rustfmt with Rust (or those packages), and prettier from `node/`, whose lock pins it:
the first test that needs it runs `npm ci` there when `node_modules` is missing or older.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from formatting_helpers import need
from npm_pins import npm_ci

NODE = Path(__file__).parent / "node"
NPM_CI_TIMEOUT = 300.0


@pytest.fixture(scope="session")
def prettier_modules() -> Path:
    """The `node_modules` folder holding the pinned prettier, installed on first use."""
    need("node")
    npm_ci(NODE, needed_by="the prettier formatting tests", timeout=NPM_CI_TIMEOUT)
    return NODE / "node_modules"
