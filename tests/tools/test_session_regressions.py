"""Regression tests for reported tool bugs, each named after what broke."""

from __future__ import annotations

from pathlib import Path

from edittools import Session


def test_read_numbers_a_cr_only_file_line_by_line_like_edit_and_patch(tmp_path: Path) -> None:
    (tmp_path / "cr.txt").write_bytes(b"one\rtwo\rthree\r")
    with Session(tmp_path) as s:
        read = s.read("cr.txt")
        assert read.value.splitlines()[:3] == ["     1\tone", "     2\ttwo", "     3\tthree"]
        edit = s.edit("cr.txt", "two", "TWO")
        assert "     2\tTWO" in edit.value.splitlines()
    assert (tmp_path / "cr.txt").read_bytes() == b"one\rTWO\rthree\r"
