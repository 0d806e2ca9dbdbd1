"""The servers' lifetime: the budget honoured, missing and crashing servers as notes, restarts,
and `close` leaving no process, no descriptor and no thread behind."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
from diagnostics_harness import children_of, in_group, make_checkers, open_fds, python_project, spec

from edittools.diagnostics import Checkers, ServerSpec, describe_outcome

pytestmark = pytest.mark.integration

BUDGET = 30.0
CLEAN = "def area(w: int, h: int) -> int:\n    return w * h\n"
BROKEN = "import os\n\n\ndef area(w: int, h: int) -> int:\n    return w * h\n"


def wait_until(condition: object, timeout: float = 10.0) -> bool:
    """Poll `condition()` until it holds or `timeout` passes (processes give no event to wait on)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return True
        time.sleep(0.02)
    return False


def codes(items: object) -> set[tuple[str | None, int]]:
    return {(item.code, item.line) for item in items}  # type: ignore[attr-defined]


def test_a_tiny_budget_leaves_the_check_pending_and_collect_reports_it(
    ruff_checkers: tuple[Checkers, Path],
) -> None:
    checkers, project = ruff_checkers
    path = project / "m.py"
    path.write_text(CLEAN, encoding="utf-8")
    started = time.monotonic()
    outcome = checkers.check(path, CLEAN, BROKEN, budget=0.01)
    assert time.monotonic() - started < 0.5, "check waited past its budget"
    assert outcome.pending and outcome.waiting_for == ("ruff",)
    assert outcome.introduced == ()
    assert "Not yet checked by ruff" in describe_outcome(outcome)
    later = checkers.collect(path, budget=BUDGET)
    assert later is not None and not later.pending, later
    assert codes(later.introduced) == {("F401", 1)}
    assert checkers.collect(path) is None, "a collected answer is reported once"


def test_a_missing_server_is_a_note_and_no_checker(tmp_path: Path) -> None:
    project = python_project(tmp_path)
    missing = ServerSpec(
        "nochecker", ("edittools-no-such-server",), frozenset({"python"}), ("pyproject.toml",)
    )
    with Checkers(tmp_path, servers=(missing,), environment=tmp_path / "bin") as checkers:
        path = project / "m.py"
        assert checkers.available(path) == ()
        outcome = checkers.check(path, CLEAN, BROKEN, budget=BUDGET)
        assert not outcome.checked and not outcome.pending
        assert len(outcome.notes) == 1 and "nochecker is not installed" in outcome.notes[0]
        again = checkers.check(path, BROKEN, CLEAN, budget=BUDGET)
        assert again.notes == (), "the missing server is told once per session"


def test_a_file_no_server_checks_has_no_checker(ruff_checkers: tuple[Checkers, Path]) -> None:
    checkers, project = ruff_checkers
    outcome = checkers.check(project / "notes.txt", "a\n", "b\n", budget=BUDGET)
    assert not outcome.checked and not outcome.pending and outcome.notes == ()


def test_a_killed_server_is_restarted_once_and_the_next_check_works(
    ruff_checkers: tuple[Checkers, Path],
) -> None:
    checkers, project = ruff_checkers
    path = project / "m.py"
    path.write_text(CLEAN, encoding="utf-8")
    assert checkers.check(path, None, CLEAN, budget=BUDGET).checked
    (first,) = checkers.running()
    os.kill(first.pid, signal.SIGKILL)
    assert wait_until(lambda: not checkers.running()), "the killed server still counts as running"
    outcome = checkers.check(path, CLEAN, BROKEN, budget=BUDGET)
    assert outcome.checked and codes(outcome.introduced) == {("F401", 1)}, outcome
    assert any("killed by SIGKILL" in note for note in outcome.notes), outcome.notes
    assert any("restarted" in note for note in outcome.notes), outcome.notes
    (second,) = checkers.running()
    assert second.pid != first.pid
    # The restarted server answered, so a later crash is restarted again.
    os.kill(second.pid, signal.SIGKILL)
    assert wait_until(lambda: not checkers.running())
    assert checkers.check(path, BROKEN, CLEAN, budget=BUDGET).checked


def test_a_server_killed_mid_check_is_restarted_and_the_pending_check_answers(
    ruff_checkers: tuple[Checkers, Path],
) -> None:
    checkers, project = ruff_checkers
    path = project / "m.py"
    assert checkers.check(path, None, CLEAN, budget=BUDGET).checked
    (server,) = checkers.running()
    pending = checkers.check(path, CLEAN, BROKEN, budget=0.0)
    os.kill(server.pid, signal.SIGKILL)
    outcome = pending if not pending.pending else checkers.collect(path, budget=BUDGET)
    assert outcome is not None and outcome.checked, outcome
    assert codes(outcome.introduced) == {("F401", 1)}
    assert checkers.check(path, BROKEN, CLEAN, budget=BUDGET).checked


def test_a_server_that_keeps_dying_is_given_up_after_one_restart(tmp_path: Path) -> None:
    project = python_project(tmp_path)
    dying = ServerSpec(
        "dying",
        (Path(sys.executable).name, "-c", "raise SystemExit(3)"),
        frozenset({"python"}),
        ("pyproject.toml",),
    )
    with Checkers(tmp_path, servers=(dying,), environment=Path(sys.executable).parent) as checkers:
        path = project / "m.py"
        outcome = checkers.check(path, CLEAN, BROKEN, budget=BUDGET)
        assert not outcome.checked and not outcome.pending
        assert sum("exited with code 3" in note for note in outcome.notes) == 2, outcome.notes
        assert any("not checked for the rest of the session" in note for note in outcome.notes)
        before = children_of(os.getpid())
        again = checkers.check(path, BROKEN, CLEAN, budget=BUDGET)
        assert not again.checked and again.notes == ()
        assert children_of(os.getpid()) == before, "a given-up server is not started again"


def test_close_leaves_no_process_no_descriptor_and_no_thread(tmp_path: Path) -> None:
    project = python_project(tmp_path)
    path = project / "m.py"
    path.write_text(CLEAN, encoding="utf-8")
    children = children_of(os.getpid())
    fds = open_fds()
    threads = set(threading.enumerate())
    checkers = make_checkers(tmp_path, servers=(spec("ruff"), spec("basedpyright")))
    outcome = checkers.check(path, None, CLEAN, budget=60.0)
    assert set(outcome.checkers) == {"ruff", "basedpyright"}, outcome
    assert checkers.check(path, CLEAN, BROKEN, budget=BUDGET).checked
    servers = checkers.running()
    assert len(servers) == 2
    groups = {server.pid: in_group(server.pid) for server in servers}
    # basedpyright's entry point runs node as its child: a group of two.
    assert any(len(members) >= 2 for members in groups.values()), groups
    assert children_of(os.getpid()) - children == {server.pid for server in servers}
    checkers.close()
    assert children_of(os.getpid()) == children, "a server outlived close()"
    for pgid in groups:
        assert in_group(pgid) == set(), f"process group {pgid} outlived close()"
    assert open_fds() == fds, "close() left descriptors open"
    assert wait_until(lambda: set(threading.enumerate()) <= threads), "a thread outlived close()"
    assert checkers.check(path, CLEAN, BROKEN, budget=BUDGET).checkers == ()


def test_a_server_that_never_answers_is_stopped_after_the_hang_timeout(tmp_path: Path) -> None:
    project = python_project(tmp_path)
    script = Path(__file__).parent / "silent_server.py"
    silent = ServerSpec(
        "silent",
        (Path(sys.executable).name, str(script)),
        frozenset({"python"}),
        ("pyproject.toml",),
    )
    with Checkers(
        tmp_path, servers=(silent,), environment=Path(sys.executable).parent, hang_timeout=1.0
    ) as checkers:
        path = project / "m.py"
        outcome = checkers.check(path, CLEAN, BROKEN, budget=0.2)
        assert outcome.pending and outcome.waiting_for == ("silent",)
        later = checkers.collect(path, budget=BUDGET)
        assert later is not None and not later.pending and not later.checked, later
        assert any("did not answer within 1 s" in note for note in later.notes), later.notes
        assert checkers.running() == ()
        again = checkers.check(path, BROKEN, CLEAN, budget=0.0)
        final = checkers.collect(path, budget=BUDGET) if again.pending else again
        assert final is not None
        assert any("was killed; it was restarted" in note for note in final.notes), final.notes
