"""`git apply` and GNU `patch` reproduce the new bytes exactly from every emitted diff."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from diff_corpus import Case, corpus
from hunk_apply import apply_hunks

from edittools.diff import diff_texts

CASES = corpus()
NAME = "src/f.txt"


def _run(tool: str, unified: str, cwd: Path) -> None:
    if tool == "git":
        command = ["git", "apply", "--unsafe-paths", "-"]
    else:
        command = ["patch", "-p1", "--quiet", "--force", "--no-backup-if-mismatch"]
    result = subprocess.run(command, input=unified.encode(), cwd=cwd, capture_output=True)
    assert result.returncode == 0, result.stderr.decode(errors="replace") + unified


def _check(case: Case, tool: str, tmp_path: Path) -> None:
    target = tmp_path / NAME
    target.parent.mkdir(parents=True)
    if case.old is not None:
        target.write_bytes(case.old)
    payload = diff_texts(case.old, case.new, path=NAME)
    if payload.unified:
        _run(tool, payload.unified, tmp_path)
    if case.new is None:
        assert not target.exists()
    else:
        assert target.read_bytes() == case.new


def test_structured_hunks_apply_to_old_and_give_new() -> None:
    for case in CASES:
        payload = diff_texts(case.old, case.new, path=NAME)
        assert apply_hunks(case.old or b"", payload.hunks) == (case.new or b""), case.name


@pytest.mark.integration
@pytest.mark.parametrize("tool", ["git", "patch"])
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_tool_reproduces_new_bytes(case: Case, tool: str, tmp_path: Path) -> None:
    _check(case, tool, tmp_path)


@pytest.mark.integration
@pytest.mark.parametrize("tool", ["git", "patch"])
def test_tool_applies_rename_with_change(tool: str, tmp_path: Path) -> None:
    (tmp_path / "old.txt").write_bytes(b"keep\nchange\n")
    payload = diff_texts(b"keep\nchange\n", b"keep\nchanged\n", path="new.txt", old_path="old.txt")
    _run(tool, payload.unified, tmp_path)
    assert (tmp_path / "new.txt").read_bytes() == b"keep\nchanged\n"
    assert not (tmp_path / "old.txt").exists()


@pytest.mark.integration
@pytest.mark.parametrize("tool", ["git", "patch"])
def test_tool_applies_to_paths_with_spaces_and_unicode(tool: str, tmp_path: Path) -> None:
    for name in ["dir x/a b.txt", "dir x/tést.txt"]:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes(b"one\ntwo\n")
        _run(tool, diff_texts(b"one\ntwo\n", b"one\n2\n", path=name).unified, tmp_path)
        assert (tmp_path / name).read_bytes() == b"one\n2\n"


@pytest.mark.integration
@pytest.mark.parametrize("tool", ["git", "patch"])
def test_tool_applies_pure_rename(tool: str, tmp_path: Path) -> None:
    (tmp_path / "old.txt").write_bytes(b"same\n")
    payload = diff_texts(b"same\n", b"same\n", path="new.txt", old_path="old.txt")
    assert payload.hunks == []
    _run(tool, payload.unified, tmp_path)
    assert (tmp_path / "new.txt").read_bytes() == b"same\n"
    assert not (tmp_path / "old.txt").exists()
