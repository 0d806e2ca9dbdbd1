"""Fixtures for the whole suite: state never goes into the user's home, no test leaves a thread
running, and what a test opens with `closing` is closed when it ends."""

from __future__ import annotations

import contextlib
import os
import pathlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, Protocol, TypeVar

import pytest
from op_counter import OpCounter, install

from edittools import Session

# How long a thread that is finishing (a hash worker, a watcher draining its queue) may take.
_THREAD_GRACE = 10.0


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


def _remove_chain(top: pathlib.Path, name: str) -> None:
    """Remove top/name/name/... bottom-up (recursive removers, pytest's too, overflow the stack)."""
    fds = [os.open(top, os.O_RDONLY | os.O_DIRECTORY)]
    try:
        while True:
            try:
                fds.append(os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fds[-1]))
            except (FileNotFoundError, NotADirectoryError):
                break
        for entry in os.listdir(fds[-1]):
            os.unlink(entry, dir_fd=fds[-1])
        while len(fds) > 1:
            os.close(fds.pop())
            os.rmdir(name, dir_fd=fds[-1])
    finally:
        for fd in fds:
            os.close(fd)


@pytest.fixture
def remove_chain() -> Callable[[pathlib.Path, str], None]:
    """Removes a folder chain thousands deep, for tests that make one."""
    return _remove_chain


@pytest.fixture(autouse=True)
def no_leaked_threads() -> Iterator[None]:
    """Every thread a test starts (watchers, workers, pools) must be gone when it ends."""
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + _THREAD_GRACE
    while True:
        leaked = [t for t in threading.enumerate() if t not in before and t.is_alive()]
        if not leaked or time.monotonic() >= deadline:
            break
        leaked[0].join(deadline - time.monotonic())
    assert not leaked, f"threads left running: {[t.name for t in leaked]}"


class _Closable(Protocol):
    def close(self) -> None: ...


_C = TypeVar("_C", bound=_Closable)


@pytest.fixture
def closing() -> Iterator[Callable[[_C], _C]]:
    """`closing(x)` returns `x` (a session, a sandbox) and closes it when the test ends, passed or
    failed: no test leaves one for the garbage collector."""
    with contextlib.ExitStack() as stack:

        def close_later(thing: _C) -> _C:
            stack.callback(thing.close)
            return thing

        yield close_later


@pytest.fixture
def counter(monkeypatch: pytest.MonkeyPatch) -> OpCounter:
    """Counts the file-system calls the sandbox makes inside `counter.counting()`."""
    return install(monkeypatch)


@pytest.fixture
def root(tmp_path: pathlib.Path) -> pathlib.Path:
    """The folder a test works in: a fresh temporary one. A module seeds its own by overriding
    this fixture; `session` opens whichever it gives."""
    return tmp_path


@pytest.fixture
def session_options() -> dict[str, Any]:
    """The options `session` opens with; a module overrides this fixture to change them."""
    return {}


@pytest.fixture
def session(root: pathlib.Path, session_options: dict[str, Any]) -> Iterator[Session]:
    """A session over `root` with `session_options`, closed when the test ends. A module that
    needs more (files read first) overrides it, asking for this one by the same name."""
    with Session(root, **session_options) as opened:
        yield opened
