"""Fixtures for the whole suite: state never goes into the user's home."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def session_state_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[pathlib.Path]:
    """A state directory for fixtures wider than one test (the per-test one below wins inside)."""
    folder = tmp_path_factory.mktemp("session-state")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EDITTOOLS_STATE_DIR", str(folder))
        # A child started without EDITTOOLS_STATE_DIR still keeps out of the user's home.
        patch.setenv("XDG_STATE_HOME", str(folder / "xdg"))
        yield folder


@pytest.fixture(autouse=True)
def state_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> pathlib.Path:
    """Point the state directory at a fresh temporary folder (outside every test's root).

    Set in the environment, so child processes the test starts inherit it.
    """
    folder = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("EDITTOOLS_STATE_DIR", str(folder))
    return folder
