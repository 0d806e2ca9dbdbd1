"""The views over payloads from the real diff engine, with git as the oracle for `--stat`."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from render_pages import elements
from render_samples import diff_result
from rich.console import Console

from edittools.diff import diff_texts
from edittools.render import render_report, render_result, render_stat

CHANGES = {
    "a.py": ("a\nb\nc\n", "a\nB\nc\nd\n"),
    "gone.txt": ("keep\n", "keep\nkeep\n"),
    "pkg/long_name.txt": ("x\ny\nz\n", "x\n"),
}


def test_terminal_shows_the_engine_unified_text_line_for_line() -> None:
    payload = diff_texts("a\nb\nc\n", "a\nB\nc\nd", path="pkg/a.py")
    console = Console(file=io.StringIO(), width=120)
    render_result(diff_result(payload), console)
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert lines[0] == "pkg/a.py  +2 -1"
    assert lines[1:] == payload.unified.splitlines()


@pytest.mark.integration
def test_stat_matches_git_diff_stat(tmp_path: Path) -> None:
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
            cwd=tmp_path,
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    git("init", "-q")
    for name, (old, _) in CHANGES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(old)
    git("add", ".")
    git("commit", "-qm", "old")
    for name, (_, new) in CHANGES.items():
        (tmp_path / name).write_text(new)
    console = Console(file=io.StringIO(), width=80)
    render_stat([diff_texts(old, new, path=name) for name, (old, new) in CHANGES.items()], console)
    assert console.file.getvalue() == git("diff", "--stat")  # type: ignore[attr-defined]


lines = st.lists(st.sampled_from(["a", "b", "c", "if x:", "'s'", ""]), max_size=12)


@settings(max_examples=40, deadline=None)
@given(old=lines, new=lines)
def test_split_view_shows_each_side_of_every_hunk(old: list[str], new: list[str]) -> None:
    old_text = "".join(f"{line}\n" for line in old)
    new_text = "".join(f"{line}\n" for line in new)
    payload = diff_texts(old_text, new_text, path="m.py")
    page = render_report([diff_result(payload)], title="t")
    if not payload.hunks:
        assert "No line changes." in page
        return
    split = page[page.index('<table class="lines split">') :]
    cells = [e for e in elements(split) if e.tag == "td"]
    left: list[str] = []
    right: list[str] = []
    # Rows of four cells: old number, old code, new number, new code; hunk headers span all.
    index = 0
    while index < len(cells):
        if cells[index].attrs.get("colspan"):
            index += 1
            continue
        if cells[index].text:
            left.append(cells[index + 1].text)
        if cells[index + 2].text:
            right.append(cells[index + 3].text)
        index += 4
    expected_left = [line for h in payload.hunks for line in _side(h.lines, "-")]
    expected_right = [line for h in payload.hunks for line in _side(h.lines, "+")]
    assert left == expected_left
    assert right == expected_right


def _side(hunk_lines: list[str], marker: str) -> list[str]:
    return [line[1:] for line in hunk_lines if line[:1] in (" ", marker)]
