"""The syntax check's native boundary as users meet it: real edits through the default settings,
in a child process where a crash in native code is a failed test rather than the end of the run."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import mypyc

import edittools
from edittools import Session

BROKEN_C = "int x = = 1;\n" + "int y = 1;\n" * 2000 + "int z = 2;\n"


def run_child(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python -c CODE` in `cwd`, with a native crash's stack on its stderr."""
    return subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", textwrap.dedent(code)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_an_edit_of_a_large_file_already_broken_does_not_crash(tmp_path: Path) -> None:
    # An error node's text was read through the binding, which calls the read callback again
    # and frees what it returns before reading it: SIGSEGV on the edit.
    (tmp_path / "a.c").write_text(BROKEN_C)
    proc = run_child(
        """
        from edittools import Session
        with Session(".") as s:
            s.read("a.c")
            r = s.edit("a.c", "int z = 2;", "int z = 3;")
            assert not r.is_error and "Syntax check" not in r.value, r.value
            r = s.edit("a.c", "int z = 3;", "int z = = 3;")
            assert "'=' does not parse here" in r.value, r.value
        """,
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "a.c").read_text() == BROKEN_C.replace("int z = 2;", "int z = = 3;")


def test_the_reported_edit_of_a_real_c_file_does_not_crash(tmp_path: Path) -> None:
    source = Path(mypyc.__file__).parent / "lib-rt" / "internal" / "librt_internal.c"
    text = source.read_text()
    (tmp_path / "librt_internal.c").write_text(text)
    old = "    // The final byte may correspond to only one hex digit."
    new = "    // The final byte may correspondx to only one hex digit."
    assert text.count(old) == 1
    proc = run_child(
        f"""
        from edittools import Session
        with Session(".") as s:
            s.read("librt_internal.c")
            r = s.edit("librt_internal.c", {old!r}, {new!r})
            assert not r.is_error, r.value
        """,
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "librt_internal.c").read_text() == text.replace(old, new)


def test_a_check_that_runs_out_of_time_says_so_and_the_change_is_made(tmp_path: Path) -> None:
    # Tree-sitter's Ruby grammar takes tens of seconds to parse these 6 KB in full.
    text = "<!--" * 1500 + "\nx = 1\n"
    (tmp_path / "a.rb").write_text(text)
    with Session(tmp_path) as session:
        session.read("a.rb")
        result = session.edit("a.rb", "x = 1", "x = 2")
    assert not result.is_error
    assert "Syntax not checked: parsing took longer than its budget of 250 ms" in result.value
    diagnostics = result.artifact.payload.diagnostics  # type: ignore[union-attr]
    assert [d.severity for d in diagnostics] == ["info"]
    assert (tmp_path / "a.rb").read_text() == text.replace("x = 1", "x = 2")


def test_no_module_reads_node_text_through_the_binding() -> None:
    """`Node.text` on a tree parsed from a read callback calls the callback again and frees its
    result before reading it: a use after free, silent or fatal. Text is cut from our own bytes."""
    package = Path(edittools.__file__).parent
    offenders = []
    for module in sorted(package.rglob("*.py")):
        tree = ast.parse(module.read_text())
        imported = {
            alias.name.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in (
                node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")]
            )
        }
        if "tree_sitter" not in imported:
            continue
        offenders += [
            f"{module.relative_to(package)}:{node.lineno}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr == "text"
        ]
    assert offenders == []
