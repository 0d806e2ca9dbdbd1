"""The state folder's logs: append and read through descriptors, never through a path string."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sandbox import Sandbox, SandboxError


def test_appended_lines_read_back_in_order(tmp_path: Path) -> None:
    with Sandbox(tmp_path) as sb:
        assert sb.read_log("journal.jsonl") == b""
        sb.append_log("journal.jsonl", b"one\n")
        sb.append_log("journal.jsonl", b"two\n")
        assert sb.read_log("journal.jsonl") == b"one\ntwo\n"
        assert sb.log_path("journal.jsonl").read_bytes() == b"one\ntwo\n"
        assert (tmp_path / ".edittools" / ".gitignore").read_text() == "*\n"


@pytest.mark.parametrize("name", ["", "a/b", "..", ".", "x\0y"])
def test_log_names_are_plain_file_names(tmp_path: Path, name: str) -> None:
    with Sandbox(tmp_path) as sb, pytest.raises(SandboxError) as info:
        sb.append_log(name, b"x")
    assert info.value.code == "invalid_path"


def test_a_state_folder_swapped_for_a_symlink_outside_receives_nothing(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    os.symlink(outside, root / ".edittools")
    with Sandbox(root) as sb, pytest.raises(SandboxError) as info:
        sb.append_log("journal.jsonl", b"secret\n")
    assert info.value.code in {"outside_root", "loop"}
    assert list(outside.iterdir()) == []


def test_a_log_that_is_a_symlink_is_not_followed(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside.txt"
    root.mkdir()
    outside.write_bytes(b"keep")
    with Sandbox(root) as sb:
        sb.append_log("journal.jsonl", b"")
        (root / ".edittools" / "journal.jsonl").unlink()
        os.symlink(outside, root / ".edittools" / "journal.jsonl")
        with pytest.raises(SandboxError):
            sb.append_log("journal.jsonl", b"x")
    assert outside.read_bytes() == b"keep"
