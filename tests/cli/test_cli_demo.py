"""`edittools demo`, `report`, `schema`, every command's --help, and what start-up loads."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_harness import ESC, child_env, run

from edittools.artifacts import StreamEvent, export_schema
from edittools.cli import _parser, main


@pytest.fixture(scope="module")
def demo_state(tmp_path_factory) -> Path:
    """The state folder of this module's demo run."""
    return tmp_path_factory.mktemp("demo-state")


@pytest.fixture(autouse=True)
def use_demo_state(demo_state, monkeypatch) -> None:
    """The commands these tests run in-process read the demo's state."""
    monkeypatch.setenv("EDITTOOLS_STATE_DIR", str(demo_state))


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory, demo_state) -> tuple[subprocess.CompletedProcess[str], Path]:
    """One `edittools demo --keep DIR` as a child process, shared by the demo tests."""
    root = tmp_path_factory.mktemp("demo") / "sandbox"
    return run("demo", "--keep", root, env={"EDITTOOLS_STATE_DIR": str(demo_state)}), root


@pytest.mark.integration
def test_demo_runs_every_step_and_labels_both_channels(demo_run):
    proc, _ = demo_run
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    steps = ["1/5  read app.py", "2/5  edit", "3/5  edit with an old_string that is not",
             "4/5  apply_patch", "5/5  undo"]  # fmt: skip
    positions = [out.index(step) for step in steps]
    assert positions == sorted(positions)
    assert out.count("model reads (value") == 5 and out.count("UI shows (artifact: ") == 5
    for kind in ("code", "diff", "error", "changeset"):
        assert f"UI shows (artifact: {kind}):" in out
    assert "model reads (value, is_error):\n  │ Error (no_match)" in out
    assert "error no_match:" in out
    assert "changeset: 2 files  +5 -1" in out and "README.md  +3 -0  new file" in out
    assert "Undid the last change to app.py (+1 -2)." in out
    assert ESC not in out and proc.stderr == ""


@pytest.mark.integration
def test_demo_keeps_a_journal_that_log_and_preview_read(demo_run, capsys):
    proc, root = demo_run
    assert f"edittools preview --root {root}" in proc.stdout
    assert main(["log", "--root", str(root)]) == 0
    names = [line.split()[1:3] for line in capsys.readouterr().out.splitlines()]
    assert names == [["edit", "app.py"], ["apply_patch", "app.py"],
                     ["apply_patch", "README.md"], ["undo", "app.py"]]  # fmt: skip
    assert main(["preview", "--json", "--root", str(root)]) == 0
    events = [StreamEvent.model_validate_json(x) for x in capsys.readouterr().out.splitlines()]
    assert [e.name for e in events] == ["read", "edit", "edit", "apply_patch", "undo"]


def test_demo_refuses_a_directory_that_is_not_empty(tmp_path, capsys):
    (tmp_path / "app.py").write_text("mine\n")
    assert main(["demo", "--keep", str(tmp_path)]) == 2
    assert "is not empty" in capsys.readouterr().err
    assert (tmp_path / "app.py").read_text() == "mine\n"


@pytest.mark.integration
def test_demo_without_keep_leaves_nothing_behind(tmp_path):
    proc = run("demo", env={"TMPDIR": str(tmp_path)})
    assert proc.returncode == 0 and "1/5  read app.py" in proc.stdout
    assert list(tmp_path.iterdir()) == []


@pytest.mark.integration
def test_report_writes_one_card_per_result(demo_run, tmp_path, capsys):
    _, root = demo_run
    page = tmp_path / "out.html"
    assert main(["report", "--root", str(root), "-o", str(page)]) == 0
    out = capsys.readouterr().out
    html = page.read_text()
    # The command repeats the page's own summary, word for word.
    summary = re.search(r'<p class="summary">(.*?)</p>', html)
    assert summary is not None
    assert out == f"Wrote {page}: {re.sub(r'<[^>]+>', '', summary.group(1))}.\n"
    assert "5 results" in out
    assert html.startswith("<!DOCTYPE html>") or html.lower().startswith("<!doctype html>")
    assert '<span class="results">5</span>' in html
    # read -> code; edit, the patch's two files, undo -> diff; the failed edit -> error
    assert html.count('<article class="card code"') == 1
    assert html.count('<article class="card diff"') == 4
    assert html.count('<article class="card error"') == 1
    assert html.count('<section class="changeset">') == 1


@pytest.mark.integration
def test_report_from_standard_input_with_a_title(tmp_path):
    page = tmp_path / "r.html"
    event = StreamEvent(id="c1", name="note", value="<script>alert(1)</script>")
    proc = run("report", "-", "-o", page, "--title", "Run <42>", stdin=event.model_dump_json())
    assert proc.returncode == 0
    html = page.read_text()
    assert "<title>Run &lt;42&gt;</title>" in html
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)" in html


def test_schema_is_the_exported_schema(capsys):
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == export_schema()


def _commands() -> list[str]:
    sub = next(a for a in _parser()._actions if a.dest == "command")
    return sorted(sub.choices)


@pytest.mark.parametrize("command", _commands())
def test_every_command_help_has_an_example(command, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    help_text = capsys.readouterr().out
    assert f"usage: edittools {command}" in help_text
    examples = [line for line in help_text.splitlines() if line.strip().startswith("example:")]
    assert examples and all(f"edittools {command}" in line for line in examples)


@pytest.mark.integration
def test_commands_other_than_serve_start_without_the_mcp_sdk(tmp_path):
    (tmp_path / "a.txt").write_text("a\n")
    code = (
        "import sys\nfrom edittools.cli import main\n"
        f"main(['diff', {str(tmp_path / 'a.txt')!r}, {str(tmp_path / 'a.txt')!r}])\n"
        f"main(['read', '--root', {str(tmp_path)!r}, 'a.txt'])\n"
        "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith('mcp.')))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=child_env(), timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "[]"
