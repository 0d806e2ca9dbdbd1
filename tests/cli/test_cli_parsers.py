"""Each command builds only its own module's parsers, with the same help the whole set has."""

from __future__ import annotations

import argparse
import inspect
import json
from pathlib import Path

import pytest
from cli_harness import run, run_python, run_tty

from edittools.cli import _HOMES, _cleandoc, _parser


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_command_has_its_home_module_and_that_module_registers_it() -> None:
    everything = _commands(_parser())
    assert list(everything) == list(_HOMES)
    for command, home in _HOMES.items():
        alone = _commands(_parser(command))
        assert command in alone
        assert set(alone) == {name for name, where in _HOMES.items() if where == home}


@pytest.mark.parametrize("command", list(_HOMES))
def test_a_command_s_own_parser_gives_the_same_help_as_the_whole_set(command: str) -> None:
    assert (
        _commands(_parser(command))[command].format_help()
        == _commands(_parser())[command].format_help()
    )


def test_descriptions_are_the_docstrings_as_inspect_cleans_them() -> None:
    checked = 0
    for command, parser in _commands(_parser()).items():
        run = parser.get_default("run")
        if run is not None and run.__doc__ and parser.description:
            assert parser.description == inspect.cleandoc(run.__doc__), command
            checked += 1
    assert checked >= 10
    for doc in ["", "one", "  first\n\n      deep\n    less\n\t tab\n\n", "\n\n  a\n  b\n  "]:
        assert _cleandoc(doc) == inspect.cleandoc(doc), doc


@pytest.mark.integration
def test_a_tree_numstat_loads_neither_other_commands_nor_hunks_models_or_render(
    tmp_path: Path,
) -> None:
    for side, text in (("a", "x\n"), ("b", "y\n")):
        (tmp_path / side).mkdir()
        (tmp_path / side / "f.txt").write_text(text)
    # A file moved as it is and one moved with a change: the rename pass runs too.
    (tmp_path / "a" / "kept.txt").write_text("same\n")
    (tmp_path / "b" / "moved.txt").write_text("same\n")
    (tmp_path / "a" / "old.txt").write_text("".join(f"line {i}\n" for i in range(20)))
    (tmp_path / "b" / "new.txt").write_text("".join(f"line {i}\n" for i in range(1, 20)))
    code = (
        "import json, os, sys\n"
        "before = set(sys.modules)\n"
        # One CPU: all the work in this process, whose modules are listed.
        "os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})\n"
        "from edittools.cli import main\n"
        "status = main(['diff', '--numstat', 'a', 'b'])\n"
        "sys.stderr.write(json.dumps([status, sorted(sys.modules), sorted(before)]))\n"
    )
    proc = run_python(code, tmp_path)
    assert proc.returncode == 0, proc.stderr
    status, modules, before = json.loads(proc.stderr)
    assert (status, proc.stdout) == (
        1,
        "1\t1\tf.txt\n0\t0\tkept.txt => moved.txt\n0\t1\told.txt => new.txt\n",
    )
    ours = {m for m in modules if m.startswith("edittools")}
    assert {m for m in ours if m.startswith("edittools.cli.")} == {
        "edittools.cli._console",
        "edittools.cli._forked",  # the tree diff's runner (one CPU here: it forks nothing)
        "edittools.cli._views",
    }
    for heavy in ("edittools.render", "edittools.diff._hunks", "edittools.diff._parse"):
        assert heavy not in ours
    assert not {"pydantic", "rich", "dataclasses", "inspect", "hashlib"} & set(modules)
    # Nor pathlib beyond what the interpreter loaded before the command (argparse's help width
    # imports shutil: 3 ms, kept rather than a copy of shutil.get_terminal_size).
    assert "pathlib" not in set(modules) - set(before)


def _options_width(help_text: str) -> int:
    """The longest line of the options part of a help text (descriptions are kept raw)."""
    options = help_text.replace("\r\n", "\n").split("\noptions:\n", 1)[1]
    return max(map(len, options.splitlines()))


@pytest.mark.parametrize(("columns", "least"), [(50, 40), (80, 70), (120, 90)])
def test_help_wraps_at_the_width_columns_gives(columns: int, least: int) -> None:
    """Never past it (less argparse's margin of 2), and near it where the help is that long
    (at 120, the longest option line fits unwrapped)."""
    proc = run("diff", "--help", env={"COLUMNS": str(columns)})
    assert least < _options_width(proc.stdout) <= columns - 2


def test_help_wraps_at_the_terminal_s_width_without_columns() -> None:
    status, output = run_tty("diff", "--help", columns=100)
    assert status == 0
    assert 90 < _options_width(output) <= 98
    # Piped, with neither a terminal nor COLUMNS: 80, as argparse has it.
    assert _options_width(run("diff", "--help").stdout) <= 78
