"""`format="project"`: a change is run through the formatter the project configures (ruff here,
from the project's pyproject.toml), as part of the same change, and the result says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from edittools import Session

SOURCE = 'def f():\n    return "a"\n'


@pytest.fixture
def project(root: Path) -> Path:
    (root / "pyproject.toml").write_text('[project]\nname = "p"\n\n[tool.ruff]\nline-length = 88\n')
    (root / "m.py").write_text(SOURCE)
    return root


@pytest.fixture
def session_options() -> dict[str, object]:
    return {"format": "project"}


def test_an_edit_is_formatted_in_the_same_change(project: Path, session: Session) -> None:
    session.read("m.py")
    result = session.edit("m.py", 'return "a"', "return {'b':1}")
    assert not result.is_error, result.value
    assert (project / "m.py").read_text() == 'def f():\n    return {"b": 1}\n'
    assert "Formatted by ruff" in result.value
    # The diff is the whole change, formatter included, and so is the undo entry.
    assert result.artifact.payload.new == 'def f():\n    return {"b": 1}\n'  # type: ignore[union-attr]
    assert not session.undo("m.py").is_error
    assert (project / "m.py").read_text() == SOURCE


def test_the_next_edit_sees_the_formatted_file(project: Path, session: Session) -> None:
    session.read("m.py")
    assert not session.edit("m.py", 'return "a"', "return {'b':1}").is_error
    # The model read nothing since; the formatter's change is its own, not another's.
    result = session.edit("m.py", 'return {"b": 1}', 'return {"b": 2}')
    assert not result.is_error, result.value


def test_write_and_apply_patch_are_formatted(project: Path, session: Session) -> None:
    assert not session.write("n.py", "x = {'a':1}\n").is_error
    assert (project / "n.py").read_text() == 'x = {"a": 1}\n'
    patch = "--- /dev/null\n+++ b/o.py\n@@ -0,0 +1 @@\n+y = [1,2]\n"
    result = session.apply_patch(patch)
    assert not result.is_error, result.value
    assert (project / "o.py").read_text() == "y = [1, 2]\n"
    assert "Formatted by ruff" in result.value


def test_a_formatter_that_fails_leaves_the_change_as_sent(project: Path, session: Session) -> None:
    session.read("m.py")
    result = session.edit("m.py", 'return "a"', "return (")
    assert not result.is_error, result.value
    assert (project / "m.py").read_text() == "def f():\n    return (\n"
    assert "Not formatted (ruff)" in result.value


def test_a_project_without_a_formatter_is_left_alone(root: Path, session: Session) -> None:
    (root / "m.py").write_text(SOURCE)
    session.read("m.py")
    result = session.edit("m.py", 'return "a"', "return {'b':1}")
    assert (root / "m.py").read_text() == "def f():\n    return {'b':1}\n"
    assert "ormatted" not in result.value


@pytest.mark.parametrize("session_options", [{}])
def test_formatting_is_off_by_default(project: Path, session: Session) -> None:
    session.read("m.py")
    assert not session.edit("m.py", 'return "a"', "return {'b':1}").is_error
    assert (project / "m.py").read_text() == "def f():\n    return {'b':1}\n"


def test_a_patch_adding_over_an_existing_file_is_formatted_and_diagnosed(
    project: Path, session: Session
) -> None:
    patch = "*** Begin Patch\n*** Add File: m.py\n+import os\n+x = {'a':1}\n*** End Patch\n"
    result = session.apply_patch(patch, overwrite=True)
    assert not result.is_error, result.value
    assert (project / "m.py").read_text() == 'import os\n\nx = {"a": 1}\n'
    assert "Formatted by ruff" in result.value
    assert "F401 `os` imported but unused [ruff]" in result.value
