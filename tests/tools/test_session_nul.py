"""New text holding a NUL character is refused by the text tools: the file would turn binary and
no edit could change it again. The file on disk stays as it was."""

from __future__ import annotations

from pathlib import Path

from edittools import Session


def _session(tmp_path: Path) -> tuple[Session, Path]:
    path = tmp_path / "a.py"
    path.write_text("x = 1\ny = 2\n")
    s = Session(tmp_path)
    s.read("a.py")
    return s, path


def test_an_edit_with_a_nul_is_refused_and_the_file_stays_text(tmp_path: Path) -> None:
    s, path = _session(tmp_path)
    with s:
        result = s.edit("a.py", "x = 1", "x = 1\x00")
        assert result.is_error
        assert result.artifact.payload.code == "invalid_arguments"
        assert "NUL" in result.value and "new_string" in result.value
        assert path.read_bytes() == b"x = 1\ny = 2\n"
        assert not s.edit("a.py", "y = 2", "y = 3").is_error  # still editable as text


def test_multi_edit_and_insert_with_a_nul_are_refused(tmp_path: Path) -> None:
    s, path = _session(tmp_path)
    with s:
        multi = s.multi_edit(
            "a.py",
            [{"old_string": "x = 1", "new_string": "x = 9"},
             {"old_string": "y = 2", "new_string": "y = \x00"}],
        )  # fmt: skip
        assert multi.is_error and "edits[2].new_string" in multi.value
        insert = s.insert("a.py", 1, "z\x00\n")
        assert insert.is_error and insert.artifact.payload.code == "invalid_arguments"
        assert path.read_bytes() == b"x = 1\ny = 2\n"


def test_a_new_file_by_edit_with_a_nul_is_not_made(tmp_path: Path) -> None:
    with Session(tmp_path) as s:
        result = s.edit("new.txt", "", "a\x00b")
        assert result.is_error
        assert not (tmp_path / "new.txt").exists()
