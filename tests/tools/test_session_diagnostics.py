"""A change reports what the project's own checker (ruff's language server, configured by the
project's pyproject.toml) says it introduced and resolved, never the file's old problems."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from edittools import Session

pytestmark = pytest.mark.integration

SOURCE = "import sys\n\n\ndef f():\n    return 1\n"  # `sys` unused: the file's own problem


@pytest.fixture
def project(root: Path) -> Path:
    (root / "pyproject.toml").write_text('[project]\nname = "p"\n\n[tool.ruff]\n')
    (root / "m.py").write_text(SOURCE)
    return root


@pytest.fixture
def session_options() -> dict[str, object]:
    return {"diagnostics_budget": 20.0}  # a cold server on a loaded machine; warm is milliseconds


def _servers(session: Session) -> list[int]:
    checkers = session._owned.checkers
    return [] if checkers is None else [s.pid for s in checkers.running() if s.pid]


def test_an_introduced_problem_is_reported_and_an_old_one_is_not(
    project: Path, session: Session
) -> None:
    session.read("m.py")
    result = session.edit("m.py", "    return 1\n", "    import os\n    return 1\n")
    assert not result.is_error, result.value
    assert "F401 `os` imported but unused [ruff]" in result.value
    assert "`sys`" not in result.value  # there before the change
    found = result.artifact.payload.diagnostics  # type: ignore[union-attr]
    assert [(d.line, d.source) for d in found if d.message.startswith("F401")] == [(5, "ruff")]


def test_a_fix_is_reported_as_resolved(project: Path, session: Session) -> None:
    session.read("m.py")
    result = session.edit("m.py", "import sys\n", "")
    assert not result.is_error, result.value
    assert "Resolved 1: L1 F401 [ruff]" in result.value


def test_lines_moved_above_an_old_problem_make_it_no_new_one(
    project: Path, session: Session
) -> None:
    (project / "m.py").write_text("x = 1\n\n\ndef f():\n    import os\n    return 1\n")
    session.read("m.py")
    result = session.edit("m.py", "x = 1\n", "x = 1\ny = 2\nz = 3\n")
    assert not result.is_error, result.value
    assert "F401" not in result.value


def test_refuse_keeps_the_file(project: Path, root: Path) -> None:
    with Session(root, diagnostics="refuse", diagnostics_budget=20.0) as session:
        session.read("m.py")
        result = session.edit("m.py", "return 1", "return undefined_name")
        assert result.is_error and result.artifact.payload.code == "diagnostics_error"  # type: ignore[union-attr]
        assert "F821" in result.value
        assert (project / "m.py").read_text() == SOURCE
        # A warning is not an error: reported, the change made.
        assert not session.edit("m.py", "    return 1\n", "    import os\n    return 1\n").is_error


def test_an_undo_reports_what_it_brings_back(project: Path, session: Session) -> None:
    session.read("m.py")
    assert not session.edit("m.py", "import sys\n", "").is_error
    result = session.undo("m.py")
    assert "F401 `sys` imported but unused [ruff]" in result.value


def test_a_project_without_the_checker_starts_no_server(root: Path, session: Session) -> None:
    (root / "m.py").write_text(SOURCE)
    session.read("m.py")
    result = session.edit("m.py", "    return 1\n", "    import os\n    return 1\n")
    assert not result.is_error and "F401" not in result.value
    assert _servers(session) == []


def test_close_stops_the_servers(project: Path, root: Path) -> None:
    session = Session(root, diagnostics_budget=20.0)
    session.read("m.py")
    session.edit("m.py", "return 1", "return 2")
    pids = _servers(session)
    assert pids, "ruff's server should be running"
    session.close()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


@pytest.mark.parametrize("session_options", [{"diagnostics": "off"}])
def test_off_asks_nothing(project: Path, session: Session) -> None:
    session.read("m.py")
    result = session.edit("m.py", "    return 1\n", "    import os\n    return 1\n")
    assert "F401" not in result.value and _servers(session) == []


def test_a_check_past_its_budget_is_reported_by_the_next_change(project: Path, root: Path) -> None:
    with Session(root, diagnostics_budget=0.0) as session:
        session.read("m.py")
        first = session.edit("m.py", "    return 1\n", "    import os\n    return 1\n")
        assert not first.is_error and "Not yet checked by ruff" in first.value, first.value
        time.sleep(5)  # ruff's server starts and answers in well under a second
        second = session.edit("m.py", "def f():", "def g():")
        assert "The earlier change of m.py, checked since:" in second.value, second.value
        assert "F401 `os` imported but unused [ruff]" in second.value


def test_a_server_killed_between_calls_is_a_note_and_the_next_call_works(
    project: Path, session: Session
) -> None:
    session.read("m.py")
    assert not session.edit("m.py", "return 1", "return 2").is_error
    (pid,) = _servers(session)
    os.kill(pid, signal.SIGKILL)
    result = session.edit("m.py", "    return 2\n", "    import os\n    return 2\n")
    assert not result.is_error, result.value
    assert "import os" in (project / "m.py").read_text()
    assert "ruff was killed by SIGKILL" in result.value and "restarted" in result.value
    again = session.edit("m.py", "    return 2\n", "    import re\n    return 2\n")
    assert "F401 `re` imported but unused [ruff]" in again.value, again.value
