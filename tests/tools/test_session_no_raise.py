"""Every tool call returns a ToolResult, whatever the input or the state on disk."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from edittools import Session, ToolResult
from sandbox import Sandbox, SandboxError

DEEP = "deep/" + "d/" * 1000 + "x.txt"


@pytest.fixture
def root(tmp_path: Path, remove_chain: Callable[[Path, str], None]) -> Iterator[Path]:
    (tmp_path / "a.txt").write_text("alpha\n")
    (tmp_path / "deep").mkdir()
    yield tmp_path
    remove_chain(tmp_path / "deep", "d")


def test_a_thousand_new_nested_folders_are_a_result_not_a_recursion_error(root: Path) -> None:
    with Session(root) as s:
        result = s.write(DEEP, "deep\n")
        assert isinstance(result, ToolResult) and not result.is_error, result.value
        assert (root / DEEP).read_text() == "deep\n"
        patch = f"*** Begin Patch\n*** Add File: {DEEP[:-5]}y.txt\n+why\n*** End Patch\n"
        result = s.apply_patch(patch)
        assert not result.is_error, result.value
        assert (root / DEEP[:-5] / "y.txt").read_text() == "why\n"


def break_table(s: Session, table: str) -> None:
    """Replace a table of the state index by a view of it: every write to it then fails."""
    db = sqlite3.connect(s.sandbox.index.path)
    with db:
        db.execute(f"ALTER TABLE {table} RENAME TO {table}_kept")
        db.execute(f"CREATE VIEW {table} AS SELECT * FROM {table}_kept")
    db.close()


def test_a_journal_that_cannot_be_written_is_an_error_result_that_keeps_the_result(
    root: Path,
) -> None:
    with Session(root) as s:
        break_table(s, "journal")
        read = s.read("a.txt")
        edit = s.edit("a.txt", "alpha", "ALPHA")
        miss = s.edit("a.txt", "nothing like it", "x")
    for result in (read, edit, miss):
        assert isinstance(result, ToolResult) and result.is_error
        assert result.artifact is not None and result.artifact.kind == "error"
        assert result.artifact.payload.code == "io_error"
        assert "could not be written to the journal" in result.value
    assert "succeeded and its change was made" in edit.value
    assert "Edited a.txt" in edit.value  # the tool's own result follows
    assert edit.artifact.payload.detail["result"]["artifact"]["kind"] == "diff"
    assert "The call failed" in miss.value
    assert (root / "a.txt").read_text() == "ALPHA\n"


def test_an_undo_history_that_cannot_be_written_is_an_error_result(root: Path) -> None:
    with Session(root) as s:
        s.read("a.txt")
        break_table(s, "changes")
        result = s.edit("a.txt", "alpha", "ALPHA")
    assert isinstance(result, ToolResult) and result.is_error
    assert result.artifact is not None and result.artifact.kind == "error"
    assert (root / "a.txt").read_text() == "alpha\n"  # history and write are one transaction
    assert not [p for p in root.iterdir() if p.name.endswith(".edittools-tmp")]


def test_an_exception_no_tool_expected_is_an_internal_error_result(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> object:
        raise RecursionError("maximum recursion depth exceeded")

    with Session(root) as s:
        monkeypatch.setattr(s.sandbox, "read_file", broken)
        result = s.read("a.txt")
    assert isinstance(result, ToolResult) and result.is_error
    assert result.artifact is not None and result.artifact.kind == "error"
    assert result.artifact.payload.code == "internal_error"
    assert "RecursionError" in result.value


@pytest.mark.parametrize("spelling", ["dir\0name", b"dir\0name"])
def test_a_nul_in_the_root_path_is_invalid_path(spelling: str | bytes) -> None:
    for opener in (Sandbox, Session):
        with pytest.raises(SandboxError) as info:
            opener(spelling)  # type: ignore[operator]
        assert info.value.code == "invalid_path"
        assert "NUL" in info.value.message
