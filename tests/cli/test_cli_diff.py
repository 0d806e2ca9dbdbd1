"""`edittools diff OLD NEW`: exit status like diff, the diff payload as JSON, --stat, --context."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from cli_harness import ESC, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from edittools.artifacts import DiffPayload
from edittools.cli import main

OLD = "".join(f"line {i}\n" for i in range(1, 31))
NEW = OLD.replace("line 5\n", "line five\n").replace("line 14\n", "line 14\nline 14b\n")


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text(OLD)
    new.write_text(NEW)
    return old, new


def _numstat(old: Path, new: Path) -> tuple[int, int]:
    out = subprocess.run(
        ["git", "diff", "--no-index", "--numstat", str(old), str(new)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    if not out:
        return 0, 0
    added, removed = out.split("\t")[:2]
    return int(added), int(removed)


def _hunk_headers(unified: str) -> list[str]:
    return [line.split(" @@")[0] + " @@" for line in unified.splitlines() if line.startswith("@@")]


def test_same_files_exit_0_and_print_nothing(pair, capsys):
    old, _ = pair
    copy = old.with_name("copy.txt")
    copy.write_bytes(old.read_bytes())
    assert main(["diff", str(old), str(copy)]) == 0
    assert capsys.readouterr().out == ""


def test_different_files_exit_1_with_header_and_hunks(pair, capsys):
    old, new = pair
    assert main(["diff", str(old), str(new)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"{new}  +2 -1"
    assert "-line 5\n+line five\n" in out
    assert "+line 14b\n" in out


@pytest.mark.integration
def test_missing_file_exits_2_with_one_line_and_no_traceback(pair):
    old, _ = pair
    proc = run("diff", old, old.with_name("absent.txt"))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        f"edittools: cannot open {old.with_name('absent.txt')}: No such file or directory."
    ]


@pytest.mark.integration
def test_a_directory_is_trouble_not_a_difference(pair):
    old, _ = pair
    proc = run("diff", old, old.parent)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and proc.stderr.startswith("edittools: ")


def test_negative_context_is_refused(pair, capsys):
    old, new = pair
    assert main(["diff", str(old), str(new), "--context", "-1"]) == 2
    assert "--context" in capsys.readouterr().err


@pytest.mark.integration
def test_piped_output_has_no_escape_sequences(pair):
    old, new = pair
    proc = run("diff", old, new)
    assert proc.returncode == 1
    assert "@@ -2,7 +2,7 @@" in proc.stdout
    assert ESC not in proc.stdout and ESC not in proc.stderr


def test_json_is_the_diff_payload_with_git_numstat_counts(pair, capsys):
    old, new = pair
    assert main(["diff", str(old), str(new), "--json"]) == 1
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    payload = DiffPayload.model_validate(json.loads(out))
    assert payload.path == str(new) and payload.granularity == "file"
    assert (payload.stats.added, payload.stats.removed) == _numstat(old, new) == (2, 1)
    assert payload.old is None and payload.new is None  # the texts are the files themselves


def test_json_of_the_same_file_has_no_hunks(pair, capsys):
    old, _ = pair
    assert main(["diff", str(old), str(old), "--json"]) == 0
    payload = DiffPayload.model_validate_json(capsys.readouterr().out)
    assert payload.hunks == [] and (payload.stats.added, payload.stats.removed) == (0, 0)


_LINES = st.lists(st.sampled_from(["a", "b", "c", "", "  x", "d\r"]), max_size=12)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(old=_LINES, new=_LINES, final_newline=st.booleans())
def test_json_stats_agree_with_git_numstat(tmp_path, capsys, old, new, final_newline):
    end = "\n" if final_newline else ""
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("\n".join(old) + ("\n" if old else ""), newline="")
    b.write_text("\n".join(new) + (end if new else ""), newline="")
    status = main(["diff", str(a), str(b), "--json"])
    payload = DiffPayload.model_validate_json(capsys.readouterr().out)
    assert status == (0 if a.read_bytes() == b.read_bytes() else 1)
    assert (payload.stats.added, payload.stats.removed) == _numstat(a, b)


def test_stat_prints_the_count_bar_and_summary(pair, capsys):
    old, new = pair
    assert main(["diff", str(old), str(new), "--stat"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f" {new} | 3 ++-",
        " 1 file changed, 2 insertions(+), 1 deletion(-)",
    ]


@pytest.mark.parametrize("context", [0, 1, 3, 5, 10])
@pytest.mark.integration
def test_context_changes_the_hunks_as_gnu_diff_does(pair, capsys, context):
    old, new = pair
    main(["diff", str(old), str(new), "--json", "--context", str(context)])
    payload = DiffPayload.model_validate_json(capsys.readouterr().out)
    gnu = subprocess.run(
        ["diff", f"-U{context}", str(old), str(new)], capture_output=True, text=True, check=False
    ).stdout
    assert _hunk_headers(payload.unified) == _hunk_headers(gnu)
    assert len(payload.hunks) == (1 if context >= 5 else 2)


def test_context_reaches_the_terminal_view(pair, capsys):
    old, new = pair
    main(["diff", str(old), str(new), "--context", "0"])
    headers = re.findall(r"^@@ .* @@", capsys.readouterr().out, flags=re.M)
    assert headers == ["@@ -5 +5 @@", "@@ -14,0 +15 @@"]


def test_binary_files_differ_without_hunks(tmp_path, capsys):
    a, b = tmp_path / "a.bin", tmp_path / "b.bin"
    a.write_bytes(b"\x00\x01abc")
    b.write_bytes(b"\x00\x02abc")
    assert main(["diff", str(a), str(b)]) == 1
    out = capsys.readouterr().out
    assert "binary" in out.splitlines()[0] and "@@" not in out
