"""Resources released, whatever the caller does: a session or sandbox dropped without `close()`
gives back every descriptor and thread (with a ResourceWarning), and running out of
descriptors is reported as what it is — never as damaged state.

The many-session and low-limit runs happen in child processes (`lifetime_child.py`), so a leak or
a lowered limit cannot reach the test run.
"""

from __future__ import annotations

import errno
import gc
import json
import os
import subprocess
import sys
import threading
import warnings
from pathlib import Path
from typing import Any

import pytest

from edittools import Session
from sandbox import Sandbox, SandboxError
from sandbox._state import state_error

CHILD = Path(__file__).with_name("lifetime_child.py")


def descriptors() -> set[str]:
    """The descriptor numbers this process holds (the listing's own one may be among them)."""
    return set(os.listdir("/proc/self/fd"))


def run_child(*args: object, timeout: float = 900) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(CHILD), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    (folder / "a.txt").write_text("v0\n")
    (folder / "keep.txt").write_text("kept\n")
    return folder


def used_session(root: Path) -> Session:
    s = Session(root)
    s.read("a.txt")
    assert not s.edit("a.txt", "v0", "v1").is_error
    return s


# --- dropped without close ----------------------------------------------------------------------


def test_a_dropped_session_gives_back_its_descriptors_with_a_resource_warning(root: Path) -> None:
    Session(root).close()  # the state folder exists: only the session's own descriptors count
    before = descriptors()
    s = used_session(root)
    assert len(descriptors() - before) >= 5  # the root, the state folders, the database
    with pytest.warns(ResourceWarning, match="Session over .* was not closed"):
        del s
        gc.collect()
    assert descriptors() == before


def test_a_closed_session_warns_nothing_and_closes_once(root: Path) -> None:
    Session(root).close()
    before = descriptors()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = used_session(root)
        s.close()
        s.close()
        assert descriptors() == before
        del s
        gc.collect()


def test_a_dropped_sandbox_gives_back_its_descriptors_with_a_resource_warning(root: Path) -> None:
    Sandbox(root).close()
    before = descriptors()
    box = Sandbox(root)
    box.write_bytes("a.txt", b"v1\n")
    assert descriptors() != before
    with pytest.warns(ResourceWarning, match="Sandbox.* was not closed"):
        del box  # no gc: a sandbox is in no reference cycle, it goes when its last name does
    assert descriptors() == before


def test_a_session_on_the_callers_sandbox_leaves_it_open(root: Path) -> None:
    with Sandbox(root) as box:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            s = Session(sandbox=box)
            s.read("a.txt")
            del s
            gc.collect()
        assert not box.closed
        assert box.read_bytes("a.txt")[0] == b"v0\n"


def test_a_session_that_fails_to_open_leaves_nothing_open(root: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_bytes(b"")
    before = descriptors()
    with pytest.raises(SandboxError) as info:
        Session(root, state_dir=blocker / "state")
    assert info.value.code == "state_unavailable"
    del info
    assert descriptors() == before


def watcher_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t is not threading.current_thread()}


def test_closing_a_session_stops_the_watchers_it_started(root: Path) -> None:
    before = watcher_threads()
    with Session(root) as s:
        s.watch()
        assert watcher_threads() - before  # the observer, its emitter, the watcher's worker
    assert not {t for t in watcher_threads() - before if t.is_alive()}


def test_dropping_a_session_stops_the_watchers_it_started(root: Path) -> None:
    before = watcher_threads()
    fds = descriptors()
    s = Session(root)
    s.watch()  # the watcher is not kept: only the session knows of it
    with pytest.warns(ResourceWarning, match="was not closed"):
        del s
        gc.collect()
    assert not {t for t in watcher_threads() - before if t.is_alive()}
    assert descriptors() == fds


@pytest.mark.integration
def test_ten_thousand_sessions_used_and_dropped_give_back_every_descriptor_and_thread(
    root: Path,
) -> None:
    # Under a limit of 256 descriptors: a session that kept even one would fail the run early.
    out = run_child("drop", root, 10_000, 256, 500)
    assert out["fds_after"] == out["fds_before"], out
    assert out["fds_peak"] == out["fds_before"], out  # released at the drop, not at exit
    assert out["threads_after"] == out["threads_before"], out
    assert out["resource_warnings"] == 10_000, out
    assert (root / "a.txt").read_text() == "v0\n"  # 10,000 edits, each undoing the one before


# --- out of descriptors -------------------------------------------------------------------------

TOO_MANY = "Too many open files"


def says_what_to_do(message: str) -> bool:
    return TOO_MANY in message and "ulimit -n" in message and "Nothing is damaged" in message


@pytest.mark.integration
def test_every_step_short_of_descriptors_says_so_and_keeps_the_state(root: Path) -> None:
    """Opening a session and each tool, run with 0, 1, 2, ... descriptors to spare: every open
    that fails is `io_error` saying the process has too many files open and what to do, and
    leaves no descriptor behind; no call answers `state_corrupt`; the undo history survives."""
    out = run_child("exhaust", root, 16)
    assert out["opens"], "the open never ran short: the limit did not apply"
    assert out["opens"][0]["spare"] == 0
    for failed in out["opens"]:
        assert failed["code"] == "io_error", failed
        assert says_what_to_do(failed["message"]), failed
    assert out["opens"][-1]["spare"] < 16  # and with enough to spare it opens
    assert out["leaks"] == []
    short = [c for c in out["calls"] if c["code"] == "io_error"]
    assert {c["tool"] for c in short} >= {"read", "edit", "write", "apply_patch"}
    for call in out["calls"]:
        assert call["code"] in ("io_error", "no_match", "nothing_to_undo"), call
        if call["code"] == "io_error":
            assert says_what_to_do(call["message"]), call
    assert out["undo_after"] is None  # a change made before the crunch is still undone
    assert out["keep_after_undo"] == "kept\n"


@pytest.mark.integration
def test_sessions_held_open_under_1024_descriptors_end_in_too_many_open_files(root: Path) -> None:
    """The reported case: one session per task, kept open, under `ulimit -n 1024`."""
    out = run_child("crowd", root, 1024)
    assert 100 < out["opened"] < 1024, out
    assert out["failure"]["code"] == "io_error", out
    assert says_what_to_do(out["failure"]["message"]), out
    assert "Move the state folder aside" not in out["failure"]["message"]
    assert out["undo_after"] is False  # the history is intact once sessions are closed


@pytest.mark.parametrize("err", [errno.EMFILE, errno.ENFILE, errno.ENOMEM])
def test_a_state_entry_the_system_cannot_open_now_is_not_corrupt(err: int, tmp_path: Path) -> None:
    error = state_error(OSError(err, os.strerror(err)), tmp_path / "pending", "open", "is odd")
    assert error.code == "io_error"
    assert os.strerror(err) in error.message and "retry" in error.message
    assert "Move the state folder" not in error.message


@pytest.mark.parametrize("err", [errno.ELOOP, errno.ENOTDIR, errno.EISDIR, errno.ENXIO])
def test_another_kind_of_entry_in_the_state_folder_is_corrupt(err: int, tmp_path: Path) -> None:
    error = state_error(OSError(err, os.strerror(err)), tmp_path / "pending", "open", "is odd")
    assert error.code == "state_corrupt"
    assert "is odd" in error.message


@pytest.mark.parametrize("err", [errno.EACCES, errno.EROFS, errno.ENOSPC])
def test_a_state_folder_the_system_refuses_is_unavailable(err: int, tmp_path: Path) -> None:
    error = state_error(OSError(err, os.strerror(err)), tmp_path / "pending", "open", "is odd")
    assert error.code == "state_unavailable"
    assert "state_dir=" in error.message


def test_the_warning_of_a_dropped_session_points_at_the_line_that_made_it(root: Path) -> None:
    # Found: the ResourceWarning pointed at weakref.py (the finalizer runs from the collector),
    # not at the caller's line that made the session and never closed it.
    made_at = sys._getframe().f_lineno + 1
    s = Session(root)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        del s
        gc.collect()
    (warning,) = [w for w in caught if issubclass(w.category, ResourceWarning)]
    assert (warning.filename, warning.lineno) == (__file__, made_at)
    assert f"made at {__file__}:{made_at}" in str(warning.message)
