"""Splitting diagnostics into introduced and resolved, the line mapping, the model's wording, and
where a file's root and servers are found: pure logic, no server."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from edittools.diagnostics import (
    Diagnostic,
    DiagnosticsOutcome,
    describe_outcome,
    identity_map,
    line_map_from_texts,
    split_changes,
    workspace_root,
)
from edittools.diagnostics._servers import find_executable


def diag(
    line: int, code: str = "F401", message: str = "unused", source: str = "ruff"
) -> Diagnostic:
    return Diagnostic(
        line=line,
        column=1,
        end_line=line,
        end_column=5,
        severity="warning",
        code=code,
        message=message,
        source=source,
    )


def test_a_diagnostic_on_a_line_that_only_moved_is_neither_new_nor_resolved() -> None:
    before = "a\nb\nc\n"
    after = "x\ny\na\nb\nc\n"
    introduced, resolved = split_changes(
        [diag(2)], [diag(4)], line_map_from_texts(before, after), before_lines=3
    )
    assert introduced == () and resolved == ()


def test_the_same_problem_on_an_unmapped_line_is_new() -> None:
    before = "a\nb\nc\n"
    after = "a\nb\nc\nd\n"
    introduced, resolved = split_changes(
        [diag(1)], [diag(1), diag(4)], line_map_from_texts(before, after), before_lines=3
    )
    assert introduced == (diag(4),) and resolved == ()


def test_a_problem_kept_on_a_rewritten_line_is_the_same_problem() -> None:
    before = "import os\nx = 1\n"
    after = "import os  # kept\nx = 1\n"
    introduced, resolved = split_changes(
        [diag(1)], [diag(1)], line_map_from_texts(before, after), before_lines=2
    )
    assert introduced == () and resolved == ()


def test_a_different_problem_on_the_same_line_is_new_and_the_old_one_resolved() -> None:
    old, new = diag(3, code="F821"), diag(3, code="F841")
    introduced, resolved = split_changes([old], [new], identity_map, before_lines=5)
    assert introduced == (new,) and resolved == (old,)


def test_the_same_problem_from_another_checker_is_another_problem() -> None:
    ruff, pyright = diag(2), diag(2, source="basedpyright")
    introduced, resolved = split_changes([ruff], [pyright], identity_map, before_lines=5)
    assert introduced == (pyright,) and resolved == (ruff,)


def test_a_new_file_introduces_everything() -> None:
    introduced, resolved = split_changes([], [diag(1), diag(2)], identity_map, before_lines=0)
    assert introduced == (diag(1), diag(2)) and resolved == ()


lines = st.lists(st.sampled_from(["a", "b", "c", "def f():", "    pass", ""]), max_size=30)


@given(lines, lines, lines)
def test_lines_inserted_or_removed_around_a_problem_only_move_it(
    head: list[str], new_head: list[str], tail: list[str]
) -> None:
    problem = "import os  # unique problem line"
    before = "\n".join([*head, problem, *tail]) + "\n"
    after = "\n".join([*new_head, problem, *tail]) + "\n"
    old = diag(len(head) + 1)
    new = diag(len(new_head) + 1)
    line_map = line_map_from_texts(before, after)
    introduced, resolved = split_changes(
        [old], [new], line_map, before_lines=len(before.splitlines())
    )
    assert introduced == () and resolved == ()


@given(lines, lines)
def test_the_line_map_sends_equal_lines_to_equal_lines(old: list[str], new: list[str]) -> None:
    before, after = "\n".join(old), "\n".join(new)
    line_map = line_map_from_texts(before, after)
    for number, text in enumerate(old, start=1):
        target = line_map(number)
        if target is not None:
            assert new[target - 1] == text


def test_the_wording_lists_at_most_the_limit_then_counts_the_rest() -> None:
    outcome = DiagnosticsOutcome(
        introduced=tuple(diag(n, message=f"`m{n}` imported but unused") for n in range(1, 5)),
        resolved=(diag(9, code="F821"),),
        checkers=("ruff",),
    )
    text = describe_outcome(outcome, limit=2)
    assert text.splitlines() == [
        "L1:1 F401 `m1` imported but unused [ruff]",
        "L2:1 F401 `m2` imported but unused [ruff]",
        "... and 2 more",
        "Resolved 1: L9 F821 [ruff]",
    ]


def test_the_wording_of_a_pending_check_says_not_yet_checked() -> None:
    outcome = DiagnosticsOutcome(pending=True, waiting_for=("basedpyright",), notes=("a note.",))
    assert describe_outcome(outcome).splitlines() == [
        "Not yet checked by basedpyright: the next read or change reports its diagnostics.",
        "a note.",
    ]
    assert describe_outcome(DiagnosticsOutcome(checkers=("ruff",))) == ""


def test_the_root_is_the_nearest_marked_folder_within_the_sandbox(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    inner = tmp_path / "sandbox" / "pkg" / "sub"
    inner.mkdir(parents=True)
    (tmp_path / "sandbox" / "pkg" / "pyproject.toml").write_text("", encoding="utf-8")
    sandbox = tmp_path / "sandbox"
    markers = ("pyproject.toml",)
    assert workspace_root(inner / "m.py", markers, bound=sandbox) == sandbox / "pkg"
    (sandbox / "pkg" / "pyproject.toml").unlink()
    # The marker above the sandbox is not the project's: the sandbox root is.
    assert workspace_root(inner / "m.py", markers, bound=sandbox) == sandbox
    (sandbox / "pkg" / ".git").mkdir()
    assert workspace_root(inner / "m.py", markers, bound=sandbox) == sandbox / "pkg"


def test_a_server_is_found_in_the_first_folder_that_holds_it(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    for folder in (first, second):
        folder.mkdir()
        tool = folder / "some-language-server"
        tool.write_text("#!/bin/sh\n", encoding="utf-8")
        os.chmod(tool, 0o755)
    assert (
        find_executable("some-language-server", [first, second]) == first / "some-language-server"
    )
    assert find_executable("some-language-server", [tmp_path]) is None
