"""multi_edit: edits in order on the text in memory, one diff, all or nothing, failures named."""

from __future__ import annotations

from pathlib import Path

import pytest

from edittools import Session


@pytest.fixture
def session(session: Session) -> Session:
    (session.sandbox.root / "f.py").write_bytes(
        b"def a():\n    return 1\n\n\ndef b():\n    return 2\n"
    )
    session.read("f.py")
    return session


def path_of(session: Session) -> Path:
    return session.sandbox.root / "f.py"


def test_edits_apply_in_order_to_the_previous_result(session: Session) -> None:
    edits = [
        {"old_string": "return 1", "new_string": "return 10"},
        {"old_string": "return 10", "new_string": "return 100"},  # sees edit 1's result
        {"old_string": "def b", "new_string": "def bee"},
    ]
    result = session.multi_edit("f.py", edits)
    assert not result.is_error, result.value
    assert path_of(session).read_bytes() == (
        b"def a():\n    return 100\n\n\ndef bee():\n    return 2\n"
    )
    assert result.value.startswith("Applied 3 edits to f.py (+2 -2).")


def test_one_diff_artifact_for_the_whole_change(session: Session) -> None:
    edits = [
        {"old_string": "return 1", "new_string": "return 10"},
        {"old_string": "return 2", "new_string": "return 20"},
    ]
    artifact = session.multi_edit("f.py", edits).artifact
    assert artifact is not None and artifact.kind == "diff"
    payload = artifact.payload
    assert payload.operation == "modify" and payload.path == "f.py"
    assert payload.stats.added == 2 and payload.stats.removed == 2
    assert payload.new == "def a():\n    return 10\n\n\ndef b():\n    return 20\n"
    # One undo step for the whole change.
    assert not session.undo("f.py").is_error
    assert path_of(session).read_bytes() == b"def a():\n    return 1\n\n\ndef b():\n    return 2\n"
    assert session.undo("f.py").artifact.payload.code == "nothing_to_undo"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("failing", "code"),
    [
        ({"old_string": "return 3", "new_string": "x"}, "no_match"),
        ({"old_string": "return", "new_string": "yield"}, "ambiguous_match"),
        ({"old_string": "def a", "new_string": "def a"}, "no_change"),
        ({"old_string": "", "new_string": "x"}, "invalid_arguments"),
    ],
)
def test_a_failing_last_edit_leaves_the_file_unchanged(
    session: Session, failing: dict[str, str], code: str
) -> None:
    before = path_of(session).read_bytes()
    edits = [
        {"old_string": "return 1", "new_string": "return 10"},
        {"old_string": "def b", "new_string": "def bee"},
        failing,
    ]
    result = session.multi_edit("f.py", edits)
    assert result.is_error
    payload = result.artifact.payload  # type: ignore[union-attr]
    assert payload.code == code
    assert payload.detail["edit_index"] == 2
    assert result.value.startswith(f"Error ({code}): Edit 3 of 3 failed")
    assert "f.py is unchanged" in result.value
    assert path_of(session).read_bytes() == before
    assert session.undo("f.py").artifact.payload.code == "nothing_to_undo"  # type: ignore[union-attr]


def test_an_edit_undone_by_a_later_one_is_not_a_failure(session: Session) -> None:
    edits = [
        {"old_string": "return 1", "new_string": "return 10"},
        {"old_string": "return 10", "new_string": "return 1"},
        {"old_string": "return 2", "new_string": "return 3"},
    ]
    assert not session.multi_edit("f.py", edits).is_error
    assert b"return 3" in path_of(session).read_bytes()


def test_the_tolerance_used_is_stated(session: Session) -> None:
    edits = [
        {"old_string": "return 1", "new_string": "return 10"},
        {
            "old_string": "  def b():\n      return 2\n",
            "new_string": "  def b():\n      return 20\n",
        },
    ]
    result = session.multi_edit("f.py", edits)
    assert not result.is_error, result.value
    assert result.artifact.payload.match == "indentation"  # type: ignore[union-attr]
    assert "Matched with tolerance: indentation." in result.value
    assert path_of(session).read_bytes().endswith(b"def b():\n    return 20\n")


def test_replace_all_inside_multi_edit(session: Session) -> None:
    edits = [{"old_string": "return", "new_string": "yield", "replace_all": True}]
    assert not session.multi_edit("f.py", edits).is_error
    assert path_of(session).read_bytes().count(b"yield") == 2
