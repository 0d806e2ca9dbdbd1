"""On a terminal: colours (unless NO_COLOR) and progress for long work; piped: neither."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cli_harness import ESC, run, run_tty

from edittools import Session
from edittools.cli._views import _BIG_DIFF_BYTES, _MANY_RESULTS

pytestmark = pytest.mark.integration

GREEN, RED = "\x1b[32m", "\x1b[31m"


@pytest.fixture(scope="module")
def pair(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("pair")
    old, new = base / "old.txt", base / "new.txt"
    old.write_text("a\nb\nc\n")
    new.write_text("a\nB\nc\nd\n")
    return old, new


@pytest.fixture(scope="module")
def big_journal(tmp_path_factory) -> Path:
    """A journal of more real events than the progress threshold: a short real session's lines, repeated."""
    root = tmp_path_factory.mktemp("journal")
    (root / "app.py").write_text("a = 1\nb = 2\n")
    with Session(root) as s:
        s.read("app.py")
        s.edit("app.py", "b = 2", "b = 3")
        s.edit("app.py", "missing", "x")
        lines = [event.model_dump_json(by_alias=True) for event in s.journal()]
    big = root / "big.jsonl"
    count = _MANY_RESULTS + 99
    big.write_text("".join(lines[i % len(lines)] + "\n" for i in range(count)))
    return big


def test_diff_on_a_terminal_is_coloured(pair):
    status, out = run_tty("diff", *pair)
    assert status == 1
    assert f"{GREEN}+B" in out and f"{RED}-b" in out


def test_no_color_turns_colour_off_on_a_terminal(pair):
    status, out = run_tty("diff", *pair, env={"NO_COLOR": "1"})
    assert status == 1 and "+B" in out
    assert GREEN not in out and RED not in out


def test_force_color_colours_piped_output(pair):
    proc = run("diff", *pair, env={"FORCE_COLOR": "1"})
    assert proc.returncode == 1 and f"{GREEN}+B" in proc.stdout
    assert ESC not in run("diff", *pair).stdout


def test_preview_of_a_large_journal_shows_progress_on_a_terminal_only(big_journal):
    status, out = run_tty("preview", big_journal)
    assert status == 0 and "Rendering" in out and "100%" in out
    proc = run("preview", big_journal)
    assert proc.returncode == 0
    assert "Rendering" not in proc.stdout and "Rendering" not in proc.stderr
    assert ESC not in proc.stdout and proc.stderr == ""
    assert proc.stdout.count("● ") == _MANY_RESULTS + 99


def test_preview_of_a_few_results_shows_no_progress_bar(pair, tmp_path):
    small = tmp_path / "small.json"
    small.write_text('{"value": "one result", "artifact": null, "is_error": false}')
    status, out = run_tty("preview", small)
    assert status == 0 and "one result" in out and "Rendering" not in out


def test_diff_of_huge_files_shows_a_spinner_on_a_terminal_only(tmp_path):
    rng = random.Random(7)
    lines = [f"row {i} {rng.random():.12f}\n" for i in range(200_000)]
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text("".join(lines))
    lines[100_000] = "changed\n"
    new.write_text("".join(lines))
    assert old.stat().st_size + new.stat().st_size > _BIG_DIFF_BYTES
    status, out = run_tty("diff", "--stat", old, new)
    assert status == 1 and "Diffing" in out and "1 insertion(+), 1 deletion(-)" in out
    proc = run("diff", "--stat", old, new)
    assert proc.returncode == 1 and "Diffing" not in proc.stdout + proc.stderr
    assert proc.stdout.endswith(" 1 file changed, 1 insertion(+), 1 deletion(-)\n")
