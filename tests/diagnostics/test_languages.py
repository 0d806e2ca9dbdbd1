"""Each language's real servers: a clean file, a problem introduced, a problem fixed, a problem moved.

One `Checkers` per language serves the module's tests over one project, started (cold) by the
fixture; the tests then run against warm servers, as a session's later calls do.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from diagnostics_harness import make_checkers, python_project, require, spec

from edittools.diagnostics import Checkers, DiagnosticsOutcome, describe_outcome

pytestmark = pytest.mark.integration

COLD_BUDGET = 60.0
WARM_BUDGET = 20.0


@dataclass(frozen=True)
class Case:
    """A language's project and a file of it, clean and broken; `{n}` makes names unique."""

    language: str
    servers: tuple[str, ...]
    suffix: str
    clean: str
    broken: str
    expected: tuple[tuple[str, str, int], ...]
    """(server, code, line) of each problem `broken` has and `clean` has not."""
    header: str = ""
    """Lines the file starts with, above which nothing is inserted (Go's `package`)."""
    comment: str = "//"
    project: dict[str, str] = field(default_factory=dict)
    executables: tuple[str, ...] = ()


CASES = [
    Case(
        language="python",
        servers=("ruff", "basedpyright"),
        suffix=".py",
        clean="def area_{n}(w: int, h: int) -> int:\n    return w * h\n",
        broken="import os\n\n\ndef area_{n}(w: int, h: int) -> int:\n    return w * depth\n",
        expected=(
            ("ruff", "F401", 1),
            ("ruff", "F821", 5),
            ("basedpyright", "reportUndefinedVariable", 5),
        ),
        comment="#",
    ),
    Case(
        language="typescript",
        servers=("typescript",),
        suffix=".ts",
        clean="export function area{n}(w: number, h: number): number {{\n  return w * h;\n}}\n",
        broken=(
            "export function area{n}(w: number, h: number): number {{\n"
            "  const label: string = w * h;\n  return w * h;\n}}\n"
        ),
        expected=(("typescript", "2322", 2),),
        project={"tsconfig.json": '{"compilerOptions": {"strict": true, "noEmit": true}}\n'},
    ),
    Case(
        language="c",
        servers=("clangd",),
        suffix=".c",
        clean="int area_{n}(int w, int h) {{\n  return w * h;\n}}\n",
        broken="int area_{n}(int w, int h) {{\n  return w * depth;\n}}\n",
        expected=(("clangd", "undeclared_var_use", 2),),
        project={"compile_flags.txt": "-std=c11\n"},
        executables=("clangd",),
    ),
    Case(
        language="go",
        servers=("gopls",),
        suffix=".go",
        header="package shapes\n",
        clean="package shapes\n\nfunc Area{n}(w, h int) int {{\n\treturn w * h\n}}\n",
        broken="package shapes\n\nfunc Area{n}(w, h int) int {{\n\tunused := 1\n\treturn w * h\n}}\n",
        expected=(("gopls", "UnusedVar", 4),),
        project={"go.mod": "module example.com/shapes\n\ngo 1.19\n"},
        executables=("gopls", "go"),
    ),
]


@dataclass
class Project:
    """A language's project folder and the warm `Checkers` over it."""

    case: Case
    folder: Path
    checkers: Checkers
    count: int = 0

    def file(self, text: str) -> tuple[Path, str, str]:
        """A new file of the project holding `text`'s clean version: its path, clean and broken."""
        self.count += 1
        path = self.folder / f"file{self.count}{self.case.suffix}"
        clean = self.case.clean.format(n=self.count)
        broken = self.case.broken.format(n=self.count)
        path.write_text(clean if text == "clean" else broken, encoding="utf-8")
        return path, clean, broken


@pytest.fixture(scope="module", params=CASES, ids=lambda case: case.language)
def project(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Project]:
    case: Case = request.param
    for executable in case.executables:
        require(executable, where=f".ci/run installs it for the {case.language} diagnostics tests")
    search: tuple[Path, ...] = ()
    if case.language == "typescript":
        search = (request.getfixturevalue("npm_bin"),)
    sandbox = tmp_path_factory.mktemp(case.language)
    if case.language == "python":
        folder = python_project(sandbox)
    else:
        folder = sandbox / "proj"
        folder.mkdir()
        for name, text in case.project.items():
            (folder / name).write_text(text, encoding="utf-8")
    servers = tuple(spec(name) for name in case.servers)
    with make_checkers(sandbox, servers=servers, search_path=search) as checkers:
        opened = Project(case, folder, checkers)
        path, clean, _ = opened.file("clean")
        # The cold start: every server starts and checks a first file.
        outcome = checkers.check(path, None, clean, budget=COLD_BUDGET)
        assert set(outcome.checkers) == set(case.servers), outcome
        yield opened


def summary(outcome: DiagnosticsOutcome) -> set[tuple[str, str | None, int]]:
    return {(item.source, item.code, item.line) for item in outcome.introduced}


def test_a_clean_file_has_nothing_introduced(project: Project) -> None:
    path, clean, _ = project.file("clean")
    outcome = project.checkers.check(path, None, clean, budget=WARM_BUDGET)
    assert not outcome.pending, outcome
    assert set(outcome.checkers) == set(project.case.servers)
    assert outcome.introduced == () and outcome.resolved == (), outcome


def test_an_edit_that_breaks_the_file_introduces_its_problems(project: Project) -> None:
    path, clean, broken = project.file("clean")
    outcome = project.checkers.check(path, clean, broken, budget=WARM_BUDGET)
    assert not outcome.pending, outcome
    assert summary(outcome) == set(project.case.expected), describe_outcome(outcome)
    assert outcome.resolved == ()
    text = describe_outcome(outcome)
    for server, code, line in project.case.expected:
        assert f"L{line}:" in text and code in text and f"[{server}]" in text


def test_an_edit_that_fixes_the_file_resolves_its_problems(project: Project) -> None:
    path, clean, broken = project.file("broken")
    outcome = project.checkers.check(path, broken, clean, budget=WARM_BUDGET)
    assert not outcome.pending, outcome
    assert outcome.introduced == (), outcome
    resolved = {(item.source, item.code, item.line) for item in outcome.resolved}
    assert resolved == set(project.case.expected), outcome
    assert describe_outcome(outcome).startswith(f"Resolved {len(project.case.expected)}:")


def test_lines_inserted_above_a_problem_only_move_it(project: Project) -> None:
    path, _, broken = project.file("broken")
    header = project.case.header
    inserted = "".join(f"{project.case.comment} note {i}\n" for i in range(3))
    moved = header + inserted + broken[len(header) :]
    outcome = project.checkers.check(path, broken, moved, budget=WARM_BUDGET)
    assert not outcome.pending, outcome
    assert outcome.introduced == () and outcome.resolved == (), outcome


def test_a_problem_elsewhere_in_the_file_is_not_reported(project: Project) -> None:
    path, _, broken = project.file("broken")
    comment = project.case.comment
    edited = broken + f"{comment} an edit far from the problem\n"
    outcome = project.checkers.check(path, broken, edited, budget=WARM_BUDGET)
    assert not outcome.pending, outcome
    assert outcome.introduced == () and outcome.resolved == (), outcome
