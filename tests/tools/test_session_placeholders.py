"""A change whose new text holds an omission placeholder is refused, and the file is untouched;
a placeholder the file or the replaced text already holds is the model's to keep."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_session_anchors import anchors_of

from edittools import Session, ToolResult

SOURCE = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
LAZY = "def f():\n    # ... existing code ...\n    return 3\n"


@pytest.fixture
def source(root: Path, session: Session) -> Path:
    path = root / "m.py"
    path.write_text(SOURCE)
    session.read("m.py")
    return path


def _refused(result: ToolResult, path: Path, line: int) -> None:
    assert result.is_error, result.value
    error = result.artifact.payload  # type: ignore[union-attr]
    assert error.code == "invalid_arguments", result.value  # type: ignore[union-attr]
    assert error.detail["reason"] == "placeholder"  # type: ignore[union-attr]
    assert line in error.detail["lines"]  # type: ignore[union-attr]
    assert "placeholder" in result.value and "Nothing was written" in result.value
    assert path.read_text() == SOURCE


def test_edit_refuses_a_placeholder(session: Session, source: Path) -> None:
    _refused(session.edit("m.py", "def f():\n    return 1\n", LAZY), source, 2)


def test_multi_edit_refuses_a_placeholder(session: Session, source: Path) -> None:
    edits = [{"old_string": "return 2", "new_string": "return 4"},
             {"old_string": "def f():\n    return 1\n", "new_string": LAZY}]  # fmt: skip
    _refused(session.multi_edit("m.py", edits), source, 2)


def test_write_refuses_a_placeholder(session: Session, source: Path) -> None:
    _refused(session.write("m.py", LAZY + "\n\n# rest of the file unchanged\n"), source, 2)


def test_insert_refuses_a_placeholder(session: Session, source: Path) -> None:
    _refused(session.insert("m.py", 3, "# ... rest of code ...\n"), source, 4)


def test_edit_symbol_refuses_a_placeholder(session: Session, source: Path) -> None:
    result = session.edit_symbol("m.py", "g", "def g():\n    # ... (unchanged)\n    return 5\n")
    _refused(result, source, 6)


def test_edit_lines_refuses_a_placeholder(root: Path, session: Session, source: Path) -> None:
    anchors = anchors_of(session.read("m.py", anchors=True).value)
    result = session.edit_lines("m.py", anchors[1], anchors[2], LAZY)
    _refused(result, source, 2)


def test_a_placeholder_the_file_already_holds_is_kept(root: Path, session: Session) -> None:
    text = "def f():\n    # ... existing code ...\n    return 1\n"
    (root / "m.py").write_text(text)
    session.read("m.py")
    result = session.edit("m.py", "return 1", "# ... existing code ...\n    return 2")
    assert not result.is_error, result.value


def test_a_placeholder_old_string_holds_is_kept(root: Path, session: Session) -> None:
    (root / "m.py").write_text("x = 1\n# ...\ny = 2\n")
    session.read("m.py")
    result = session.edit("m.py", "x = 1\n# ...\n", "x = 3\n# ...\n")
    assert not result.is_error, result.value


def test_real_ellipses_are_not_placeholders(session: Session, source: Path) -> None:
    stub = "def f(*args: int) -> None: ...\n\n\nclass P:\n    x: tuple[int, ...]\n    ...\n"
    assert not session.write("m.py", stub).is_error


def test_an_undo_puts_back_a_placeholder_it_took_away(root: Path, session: Session) -> None:
    (root / "m.py").write_text("def f():\n    # ... existing code ...\n    return 1\n")
    session.read("m.py")
    assert not session.edit("m.py", "    # ... existing code ...\n", "").is_error
    assert not session.undo("m.py").is_error
    assert "existing code" in (root / "m.py").read_text()


@pytest.mark.parametrize("session_options", [{"refuse_placeholders": False}])
def test_the_guard_can_be_turned_off(session: Session, source: Path) -> None:
    assert not session.edit("m.py", "def f():\n    return 1\n", LAZY).is_error
    assert "existing code" in source.read_text()
