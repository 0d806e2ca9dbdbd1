"""The habits of a shell command: --version, python -m, stated defaults, careful input handling."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from cli_harness import child_env, run, run_python

from edittools.cli import _parser, main


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = _parser()
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


@pytest.mark.integration
def test_version_prints_the_installed_version(tmp_path: Path) -> None:
    proc = run("--version")
    assert proc.returncode == 0
    assert proc.stdout == f"edittools {version('edittools')}\n"


@pytest.mark.integration
def test_python_dash_m_edittools_runs_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("x\n")
    (tmp_path / "b").write_text("y\n")
    proc = subprocess.run(
        [sys.executable, "-m", "edittools", "diff", "a", "b"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=child_env(),
        check=False,
    )
    assert proc.returncode == 1
    assert "-x\n+y\n" in proc.stdout


@pytest.mark.integration
def test_the_program_exits_with_the_command_s_status_its_handlers_run_and_no_last_sweep(
    tmp_path: Path,
) -> None:
    """`run` (the console script and `python -m`) skips the final collection, nothing else."""
    (tmp_path / "a").write_text("x\n")
    (tmp_path / "b").write_text("y\n")
    code = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0, file=sys.stderr))\n"
        "sys.argv = ['edittools', 'diff', 'a', 'b']\n"
        "from edittools.cli import run\n"
        "run()\n"
    )
    proc = run_python(code, tmp_path)
    assert (proc.returncode, proc.stderr) == (1, "frozen True\n")
    assert "-x\n+y\n" in proc.stdout


def test_every_root_option_states_its_default_or_that_it_is_required(capsys) -> None:
    seen = 0
    for name, command in _commands().items():
        for action in command._actions:
            if "--root" in action.option_strings:
                seen += 1
                assert action.help is not None
                if action.required:
                    assert "(required)" in action.help, name
                elif "(instead of FILE)" in action.help:  # preview/report: a journal or a file
                    assert action.default is None, name
                else:
                    assert f"(default: {'the current directory'})" in action.help, name
                    assert action.default == Path(".")
    assert seen >= 6
    # `serve` hands its arguments to the server's own parser, which states it the same way.
    from edittools.mcp_server import serve_command

    with pytest.raises(SystemExit):
        serve_command(["--help"], prog="edittools serve")
    assert re.search(
        r"--root ROOT\s+the workspace directory the tools may touch\s+\(required\)",
        capsys.readouterr().out,
    )


def test_help_texts_keep_their_paragraphs_and_summaries_short() -> None:
    for name, command in _commands().items():
        description = command.description or ""
        # A docstring's indentation is gone: every paragraph starts at the margin.
        assert not any(line.startswith(" ") for line in description.splitlines()), name
        if "example:" in description:
            assert "\n\nexample:" in description, name
    summaries = [a.help or "" for a in _parser()._actions[-1]._choices_actions]  # type: ignore[attr-defined]
    assert all(len(summary) <= 50 and not summary.endswith(".") for summary in summaries)


def test_write_refuses_an_empty_standard_input(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("line\n" * 3610)
    proc = run("write", "--root", tmp_path, "big.txt", stdin="")
    assert proc.returncode == 2
    assert "--allow-empty" in proc.stderr
    assert (tmp_path / "big.txt").read_text() == "line\n" * 3610


def test_write_empties_a_file_from_standard_input_with_allow_empty(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("line\n")
    proc = run("write", "--root", tmp_path, "f.txt", "--allow-empty", stdin="")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "f.txt").read_bytes() == b""


def test_an_explicit_empty_content_argument_is_a_choice(tmp_path: Path, capsys) -> None:
    (tmp_path / "f.txt").write_text("line\n")
    assert main(["write", "--root", str(tmp_path), "f.txt", ""]) == 0
    assert (tmp_path / "f.txt").read_bytes() == b""


def _apply(root: Path, patch: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "edittools", "apply-patch", "--root", str(root), *args],
        input=patch,
        capture_output=True,
        env=child_env(),
        check=False,
    )


@pytest.mark.integration
def test_a_patch_is_read_as_bytes_so_carriage_returns_survive(tmp_path: Path) -> None:
    """A lone CR inside a line and CRLF endings reach the tool as they are in the patch file."""
    (tmp_path / "f.txt").write_bytes(b"keep\r\nold\rpart\r\nlast\r\n")
    patch = (
        b"--- a/f.txt\r\n+++ b/f.txt\r\n@@ -1,3 +1,3 @@\r\n"
        b" keep\r\n-old\rpart\r\n+new\rpart\r\n last\r\n"
    )
    (tmp_path / "fix.patch").write_bytes(patch)
    for source in ("fix.patch", "-"):
        (tmp_path / "f.txt").write_bytes(b"keep\r\nold\rpart\r\nlast\r\n")
        proc = subprocess.run(
            [sys.executable, "-m", "edittools", "apply-patch", "--root", str(tmp_path), source],
            input=patch,
            capture_output=True,
            cwd=tmp_path,
            env=child_env(),
            check=False,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert (tmp_path / "f.txt").read_bytes() == b"keep\r\nnew\rpart\r\nlast\r\n"


@pytest.mark.integration
def test_a_patch_that_is_not_utf8_is_one_line_of_trouble(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_bytes(b"a\n")
    proc = _apply(tmp_path, b"--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-a\n+\xff\n", "-")
    assert proc.returncode == 2
    assert b"not UTF-8" in proc.stderr and b"Traceback" not in proc.stderr
    assert (tmp_path / "f.txt").read_bytes() == b"a\n"


@pytest.mark.integration
def test_apply_patch_dash_p_strips_like_patch(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "f.txt").write_bytes(b"a\nb\n")
    patch = b"--- old/tree/pkg/f.txt\n+++ new/tree/pkg/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n"
    proc = _apply(tmp_path, patch, "-p", "2", "-")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "pkg" / "f.txt").read_bytes() == b"a\nB\n"


def test_every_command_with_a_root_takes_a_state_dir() -> None:
    with_root = [
        name
        for name, command in _commands().items()
        if any("--root" in action.option_strings for action in command._actions)
    ]
    assert {"read", "write", "edit", "apply-patch", "undo", "log", "watch", "preview"} <= set(
        with_root
    )
    for name in with_root:
        options = {o for action in _commands()[name]._actions for o in action.option_strings}
        assert "--state-dir" in options, name
    from edittools.mcp_server._command import serve_parser

    serve_options = {o for action in serve_parser("serve")._actions for o in action.option_strings}
    assert "--state-dir" in serve_options


def test_state_dir_option_puts_the_state_there(tmp_path: Path, capsys) -> None:
    root, state = tmp_path / "root", tmp_path / "state"
    root.mkdir()
    assert main(["write", "--root", str(root), "--state-dir", str(state), "a.txt", "hi\n"]) == 0
    (folder,) = state.iterdir()
    assert (folder / "index.sqlite3").is_file()
    capsys.readouterr()
    assert main(["log", "--root", str(root), "--state-dir", str(state)]) == 0
    assert "a.txt  +1 -0" in capsys.readouterr().out
    assert main(["log", "--root", str(root)]) == 0  # the default state folder knows nothing of it
    assert "No changes journaled" in capsys.readouterr().out
