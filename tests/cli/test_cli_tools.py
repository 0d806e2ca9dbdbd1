"""The tools from a shell: read, write, edit, apply-patch, undo and log against a real directory."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cli_harness import run

from edittools.artifacts import ToolResult
from edittools.cli import main

APP = "def greet(name):\n    return 'Hello, ' + name\n\n\nprint(greet('world'))\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "app.py").write_text(APP)
    return tmp_path


def _cli(capsys, root: Path, *args: str) -> tuple[int, str]:
    status = main([args[0], "--root", str(root), *args[1:]])
    return status, capsys.readouterr().out


def _json(capsys, root: Path, *args: str) -> tuple[int, ToolResult]:
    status, out = _cli(capsys, root, *args, "--json")
    assert out.count("\n") == 1
    return status, ToolResult.model_validate_json(out)


def test_read_prints_numbered_lines(root, capsys):
    status, out = _cli(capsys, root, "read", "app.py", "--offset", "2", "--limit", "1")
    assert status == 0
    assert out.startswith("     2\t    return 'Hello, ' + name\n")


def test_read_json_is_the_tool_result_with_a_code_artifact(root, capsys):
    status, result = _json(capsys, root, "read", "app.py")
    assert status == 0 and not result.is_error
    assert result.artifact.kind == "code" and result.artifact.payload.text == APP


@pytest.mark.integration
def test_write_from_an_argument_and_from_standard_input(root):
    proc = run("write", "--root", root, "notes.txt", "first\n")
    assert proc.returncode == 0 and (root / "notes.txt").read_text() == "first\n"
    assert "notes.txt  +1 -0  new file" in proc.stdout
    proc = run("write", "--root", root, "notes.txt", stdin="first\nsecond\n")
    assert proc.returncode == 0 and (root / "notes.txt").read_text() == "first\nsecond\n"
    assert "notes.txt  +1 -0\n" in proc.stdout and "+second\n" in proc.stdout


def test_edit_changes_the_file_and_shows_the_diff(root, capsys):
    status, out = _cli(capsys, root, "edit", "app.py", "'Hello, ' + name", "f'Hi {name}'")
    assert status == 0
    assert out.splitlines()[:2] == ["Edited app.py (+1 -1).", "app.py  +1 -1"]
    assert "-    return 'Hello, ' + name\n+    return f'Hi {name}'\n" in out
    assert (root / "app.py").read_text() == APP.replace("'Hello, ' + name", "f'Hi {name}'")


def test_a_read_only_file_is_refused_unless_the_rule_is_lifted(root, capsys):
    (root / "app.py").chmod(0o444)
    status, out = _cli(capsys, root, "edit", "app.py", "'Hello, ' + name", "f'Hi {name}'")
    assert status == 1 and "Error (permission)" in out and "--allow-readonly-writes" in out
    assert (root / "app.py").read_text() == APP
    args = ("edit", "app.py", "'Hello, ' + name", "f'Hi {name}'", "--allow-readonly-writes")
    assert _cli(capsys, root, *args)[0] == 0
    assert (root / "app.py").read_text() == APP.replace("'Hello, ' + name", "f'Hi {name}'")


def test_edit_json_carries_the_diff_artifact(root, capsys):
    status, result = _json(capsys, root, "edit", "app.py", "world", "there")
    assert status == 0 and result.artifact.kind == "diff"
    payload = result.artifact.payload
    assert (payload.path, payload.stats.added, payload.stats.removed) == ("app.py", 1, 1)


@pytest.mark.integration
def test_a_failed_edit_exits_1_with_the_message_and_leaves_the_file(root):
    before = (root / "app.py").read_bytes()
    proc = run("edit", "--root", root, "app.py", "def greet(person):", "x")
    assert proc.returncode == 1
    assert proc.stdout.startswith("Error (no_match): old_string was not found")
    assert "     1\tdef greet(name):" in proc.stdout  # the closest line, to copy from
    assert (root / "app.py").read_bytes() == before


def test_an_ambiguous_edit_lists_the_lines(root, capsys):
    (root / "twice.txt").write_text("x\ny\nx\n")
    status, result = _json(capsys, root, "edit", "twice.txt", "x", "z")
    assert status == 1 and result.is_error
    assert result.artifact.payload.code == "ambiguous_match"
    assert "1" in result.value and "3" in result.value


@pytest.mark.parametrize(
    "args",
    [
        ("edit", "app.py", "world", "there"),
        ("write", "app.py", "replaced\n"),
        ("apply-patch", "PATCH"),
    ],
)
def test_dry_run_shows_the_diff_and_writes_nothing(root, capsys, args):
    patch = root.parent / "change.patch"
    patch.write_text("--- a/app.py\n+++ b/app.py\n@@ -5 +5 @@\n-print(greet('world'))\n"
                     "+print(greet('there'))\n")  # fmt: skip
    args = tuple(str(patch) if a == "PATCH" else a for a in args)
    stat = (root / "app.py").stat()
    status, out = _cli(capsys, root, *args, "--dry-run")
    assert status == 0
    assert out.startswith("[dry run: nothing was written]")
    assert "app.py  +1 -" in out and "\n-print(greet('world'))\n" in out
    assert (root / "app.py").read_text() == APP
    assert (root / "app.py").stat().st_mtime_ns == stat.st_mtime_ns
    assert _cli(capsys, root, "log")[1] == f"No changes journaled in {root}.\n"


@pytest.mark.integration
def test_apply_patch_from_git_diff_on_standard_input(root, tmp_path_factory):
    other = tmp_path_factory.mktemp("other")
    (other / "app.py").write_text(APP.replace("world", "everyone") + "print('bye')\n")
    git = subprocess.run(
        ["git", "diff", "--no-index", "app.py", str(other / "app.py")],
        cwd=root, capture_output=True, text=True, check=False,
    ).stdout  # fmt: skip
    # git names the new side by its full path; this patch is for the same file in another tree.
    git = git.replace(f"b{other}/app.py", "b/app.py")
    proc = run("apply-patch", "--root", root, "-", stdin=git)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (root / "app.py").read_bytes() == (other / "app.py").read_bytes()
    assert "\napp.py  +2 -1\n" in proc.stdout


@pytest.mark.integration
def test_a_conflicting_patch_exits_1_and_changes_nothing(root):
    patch = "--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-def other():\n+def x():\n"
    proc = run("apply-patch", "--root", root, "-", stdin=patch)
    assert proc.returncode == 1 and proc.stdout.startswith("Error (")
    assert (root / "app.py").read_text() == APP


def test_undo_restores_the_bytes(root, capsys):
    crlf = b"a = 1\r\nb = 2\r\n"
    (root / "win.txt").write_bytes(crlf)
    assert _cli(capsys, root, "edit", "win.txt", "b = 2", "b = 3")[0] == 0
    assert (root / "win.txt").read_bytes() == b"a = 1\r\nb = 3\r\n"
    status, out = _cli(capsys, root, "undo", "win.txt")
    assert status == 0 and out.startswith("Undid the last change to win.txt (+1 -1).")
    assert (root / "win.txt").read_bytes() == crlf
    status, out = _cli(capsys, root, "undo", "win.txt")
    assert status == 1 and "nothing_to_undo" in out


def test_log_lists_each_change_with_counts(root, capsys):
    _cli(capsys, root, "edit", "app.py", "world", "there")
    _cli(capsys, root, "write", "new.txt", "a\nb\n")
    _cli(capsys, root, "edit", "app.py", "missing", "x")  # an error: journaled, not a change
    _cli(capsys, root, "undo", "new.txt")
    status, out = _cli(capsys, root, "log")
    assert status == 0
    rows = [line.split()[1:] for line in out.splitlines()]
    assert rows == [
        ["edit", "app.py", "+1", "-1"],
        ["write", "new.txt", "+2", "-0"],
        ["undo", "new.txt", "+0", "-2"],
    ]


@pytest.mark.integration
def test_a_root_that_does_not_exist_is_one_line_of_trouble(tmp_path):
    for args in (("read", "a.py"), ("log",), ("edit", "a.py", "x", "y")):
        proc = run(args[0], "--root", tmp_path / "absent", *args[1:])
        assert proc.returncode == 2, args
        assert proc.stderr.startswith("edittools: The sandbox root")
        assert "does not exist" in proc.stderr and "create the folder first" in proc.stderr
        assert len(proc.stderr.splitlines()) == 1 and "Traceback" not in proc.stderr


def test_paths_outside_the_root_are_refused(root, capsys):
    (root.parent / "secret.txt").write_text("s\n")
    status, result = _json(capsys, root, "read", "../secret.txt")
    assert status == 1 and result.artifact.payload.code == "outside_root"


def test_serve_parses_with_the_servers_own_parser(tmp_path, capsys):
    """`edittools serve` and `python -m edittools.mcp_server` share one parser and its help."""
    from edittools.mcp_server import serve_parser

    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--help"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == serve_parser("edittools serve").format_help()
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--root", str(tmp_path), "--dialect", "vim"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'vim'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--root", str(tmp_path / "missing"), "--surface", "codex"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.startswith("edittools serve: error: The sandbox root")


def test_an_edit_that_breaks_the_syntax_warns_and_refuse_writes_nothing(root, capsys):
    status, out = _cli(capsys, root, "edit", "app.py", "def greet(name):", "def greet(name)")
    assert status == 0 and "! syntax error, line 1" in out
    assert _cli(capsys, root, "undo", "app.py")[0] == 0
    args = ("edit", "app.py", "print(greet('world'))", "print(greet('world')")
    status, out = _cli(capsys, root, *args, "--syntax-check", "refuse")
    assert status == 1 and out.startswith("Error (syntax_error)")
    assert (root / "app.py").read_text() == APP
    status, out = _cli(capsys, root, *args, "--syntax-check", "off")
    assert status == 0 and "syntax" not in out


def test_a_reader_that_stops_early_is_no_error(tmp_path: Path) -> None:
    """`edittools log --jsonl | head`: the pipe closes before the output ends; exit 0, quietly."""
    from edittools import Session

    with Session(tmp_path, require_read=False) as s:
        for k in range(80):
            (tmp_path / f"f{k}.txt").write_text("x\n" * 50)
            assert not s.edit(f"f{k}.txt", "x\n" * 50, "y\n" * 50).is_error
    proc = subprocess.Popen(
        [sys.executable, "-m", "edittools", "log", "--root", str(tmp_path), "--jsonl"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    with proc.stderr:
        assert proc.stdout.read(100)
        proc.stdout.close()
        assert proc.wait(timeout=60) == 0
        assert proc.stderr.read() == b""


def test_read_takes_an_agent_as_the_change_commands_do(root, capsys):
    # Found: `edittools read --agent NAME` was refused: only the change commands had --agent.
    from edittools import Session

    status, out = _cli(capsys, root, "read", "app.py", "--agent", "reviewer")
    assert status == 0 and out.startswith("     1\tdef greet(name):")
    with Session(root) as session:
        assert [e.name for e in session.journal(agent="reviewer")] == ["read"]


def test_a_log_filtered_to_an_agent_with_no_changes_names_the_agent(root, capsys):
    # Found: `edittools log --agent nobody` said "No changes journaled in ROOT." as if the root
    # had none at all.
    assert _cli(capsys, root, "edit", "app.py", "world", "there")[0] == 0
    status, out = _cli(capsys, root, "log", "--agent", "nobody")
    assert status == 0
    assert out == f"No changes by agent 'nobody' journaled in {root}.\n"
    assert "app.py" in _cli(capsys, root, "log")[1]


def test_blame_says_in_words_where_each_line_comes_from(root, capsys):
    # Found: a line no change touched showed a bare "-" (and one whose history is gone "?"),
    # explained nowhere but in --help.
    status, _ = _cli(capsys, root, "edit", "app.py", "'Hello, ' + name", "'Hi ' + name")
    assert status == 0
    (root / "app.py").write_text("# outside\n" + (root / "app.py").read_text())
    status, out = _cli(capsys, root, "blame", "app.py")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("outside the tools ") and lines[0].endswith("1| # outside")
    assert lines[1].startswith("unchanged ") and lines[1].endswith("2| def greet(name):")
    assert lines[2].startswith("tools #") and lines[2].endswith("3|     return 'Hi ' + name")
    assert not any(line.startswith(("-", "?")) for line in lines)


def test_format_and_diagnostics_follow_the_projects_own_tools(root, capsys):
    (root / "pyproject.toml").write_text('[project]\nname = "p"\n\n[tool.ruff]\n')
    (root / "m.py").write_text("def f():\n    return 1\n")
    code = main(["edit", "--root", str(root), "--format", "project", "m.py", "return 1",
                 "import os\n    return {'a':1}"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    assert (root / "m.py").read_text() == 'def f():\n    import os\n\n    return {"a": 1}\n'
    assert "F401 `os` imported but unused" in out
    code = main(["edit", "--root", str(root), "--diagnostics", "off", "m.py", '{"a": 1}', "2"])
    out = capsys.readouterr().out
    assert code == 0 and "F401" not in out


def test_edit_cell_replaces_inserts_and_deletes_notebook_cells(root, capsys):
    import json

    cell = {"cell_type": "code", "execution_count": 5, "id": "abc-1234", "metadata": {},
            "outputs": [], "source": ["x = 1"]}  # fmt: skip
    notebook = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = root / "n.ipynb"
    path.write_text(json.dumps(notebook, sort_keys=True, indent=1) + "\n")
    status, out = _cli(capsys, root, "edit-cell", "n.ipynb", "x = 2", "--cell", "abc-1234")
    assert status == 0 and "Replaced cell 0 (id abc-1234) of n.ipynb (+1 -1)." in out
    status, result = _json(capsys, root, "edit-cell", "n.ipynb", "# T", "--mode", "insert",
                           "--cell-type", "markdown")  # fmt: skip
    assert status == 0 and result.artifact is not None and result.artifact.kind == "diff"
    status, out = _cli(capsys, root, "edit-cell", "n.ipynb", "--cell", "1", "--mode", "delete")
    assert status == 0, out
    cells = json.loads(path.read_text())["cells"]
    assert [(c["cell_type"], c["source"]) for c in cells] == [("markdown", ["# T"])]
    status, out = _cli(capsys, root, "edit-cell", "n.ipynb", "y", "--cell", "nope")
    assert status == 1 and "no_match" in out
