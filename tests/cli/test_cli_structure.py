"""Edits by structure and by anchor from a shell: symbols, read-symbol, edit-symbol, read
--anchors and edit-lines, run as the real command on Python and Go files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_harness import run

from edittools.artifacts import ToolResult

pytestmark = pytest.mark.integration

SHAPES = '''"""Shapes."""


class Circle:
    """A circle."""

    def __init__(self, r):
        self.r = r

    def area(self):
        return 3.14 * self.r * self.r


def main():
    print(Circle(2).area())
'''

POINT = """package main

import "fmt"

type Point struct {
\tX, Y int
}

func (p Point) Sum() int {
\treturn p.X + p.Y
}

func main() {
\tfmt.Println(Point{1, 2}.Sum())
}
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "shapes.py").write_text(SHAPES)
    (tmp_path / "point.go").write_text(POINT)
    return tmp_path


def _anchors(root: Path, path: str) -> dict[int, str]:
    """Each line's anchor (`12#a3f`) as `read --anchors` prints it."""
    proc = run("read", "--root", root, path, "--anchors")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    found = {}
    for line in proc.stdout.splitlines():
        if tagged := re.match(r"(\d+)(#[0-9a-f]{3,})\|", line):
            found[int(tagged.group(1))] = tagged.group(1) + tagged.group(2)
    return found


def test_symbols_prints_the_outline_of_a_python_and_a_go_file(root: Path) -> None:
    proc = run("symbols", "--root", root, "shapes.py")
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout == (
        "shapes.py: 4 definitions (lines, kind, name)\n"
        "4-11\tclass Circle\n"
        "7-8\t  method Circle.__init__\n"
        "10-11\t  method Circle.area\n"
        "14-15\tfunction main\n"
    )
    proc = run("symbols", "--root", root, "point.go")
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout == (
        "point.go: 3 definitions (lines, kind, name)\n"
        "5-7\ttype Point\n"
        "9-11\tmethod Point.Sum\n"
        "13-15\tfunction main\n"
    )


def test_symbols_json_is_the_tool_result_with_the_outline_table(root: Path) -> None:
    proc = run("symbols", "--root", root, "point.go", "--json")
    assert proc.returncode == 0, proc.stderr
    result = ToolResult.model_validate_json(proc.stdout)
    assert not result.is_error and result.artifact.kind == "table"
    assert result.artifact.payload.rows[1] == [9, 11, "method", "Point.Sum"]


def test_read_symbol_shows_the_method_s_lines_numbered(root: Path) -> None:
    proc = run("read-symbol", "--root", root, "shapes.py", "Circle.area")
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout.startswith(
        "method Circle.area, lines 10-11 of shapes.py:\n"
        "    10\t    def area(self):\n"
        "    11\t        return 3.14 * self.r * self.r\n"
    )
    assert "def __init__" not in proc.stdout and "def main" not in proc.stdout
    proc = run("read-symbol", "--root", root, "point.go", "Sum")
    assert proc.returncode == 0
    assert "     9\tfunc (p Point) Sum() int {\n    10\t\treturn p.X + p.Y\n    11\t}\n" in (
        proc.stdout
    )


def test_edit_symbol_dry_run_shows_the_diff_and_writes_nothing(root: Path) -> None:
    stat = (root / "shapes.py").stat()
    new = "def area(self):\n    return 0\n"
    proc = run("edit-symbol", "--root", root, "shapes.py", "Circle.area", new, "--dry-run")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("[dry run: nothing was written]")
    assert "-        return 3.14 * self.r * self.r\n+        return 0\n" in proc.stdout
    assert (root / "shapes.py").read_text() == SHAPES
    assert (root / "shapes.py").stat().st_mtime_ns == stat.st_mtime_ns


def test_edit_symbol_replaces_a_method_from_standard_input_at_its_indentation(
    root: Path,
) -> None:
    new = "def area(self):\n    return math.pi * self.r**2\n"
    proc = run("edit-symbol", "--root", root, "shapes.py", "Circle.area", stdin=new)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("Replaced method Circle.area in shapes.py (+1 -1).\n")
    assert (root / "shapes.py").read_bytes() == SHAPES.replace(
        "return 3.14 * self.r * self.r", "return math.pi * self.r**2"
    ).encode()


def test_edit_symbol_where_body_after_and_before(root: Path) -> None:
    proc = run("edit-symbol", "--root", root, "point.go", "Point.Sum", "return p.X * p.Y",
               "--where", "body")  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    point = POINT.replace("\treturn p.X + p.Y\n", "\treturn p.X * p.Y\n")
    assert (root / "point.go").read_bytes() == point.encode()

    proc = run("edit-symbol", "--root", root, "point.go", "main", "--where", "before",
               stdin="func zero() int { return 0 }\n")  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    point = point.replace("func main()", "func zero() int { return 0 }\n\nfunc main()")
    assert (root / "point.go").read_bytes() == point.encode()

    new = "def diameter(self):\n    return 2 * self.r"
    proc = run("edit-symbol", "--root", root, "shapes.py", "area", new, "--where", "after")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    shapes = SHAPES.replace(
        "self.r * self.r\n",
        "self.r * self.r\n\n    def diameter(self):\n        return 2 * self.r\n",
    )
    assert (root / "shapes.py").read_bytes() == shapes.encode()


def test_an_unknown_symbol_lists_the_nearest_name_and_changes_nothing(root: Path) -> None:
    proc = run("read-symbol", "--root", root, "shapes.py", "Circle.aera")
    assert proc.returncode == 1
    assert proc.stdout.startswith("Error (no_match): shapes.py defines no 'Circle.aera'.")
    assert "Nearest: Circle.area" in proc.stdout
    proc = run("edit-symbol", "--root", root, "point.go", "Point.Summ", "return 0")
    assert proc.returncode == 1
    assert proc.stdout.startswith("Error (no_match)") and "Nearest: Point.Sum" in proc.stdout
    assert (root / "point.go").read_text() == POINT


def test_read_with_anchors_tags_every_line(root: Path) -> None:
    proc = run("read", "--root", root, "point.go", "--anchors", "--offset", "9", "--limit", "3")
    assert proc.returncode == 0, proc.stderr
    assert re.match(
        r"9#[0-9a-f]{3,}\|func \(p Point\) Sum\(\) int \{\n"
        r"10#[0-9a-f]{3,}\|\treturn p\.X \+ p\.Y\n"
        r"11#[0-9a-f]{3,}\|\}\n",
        proc.stdout,
    ), proc.stdout
    plain = run("read", "--root", root, "point.go", "--offset", "9", "--limit", "1").stdout
    assert plain.startswith("     9\tfunc (p Point) Sum() int {\n")


def test_edit_lines_between_anchors_from_read_changes_those_lines(root: Path) -> None:
    anchors = _anchors(root, "shapes.py")
    assert len(anchors) == SHAPES.count("\n")
    new = "    def area(self):\n        return 3\n"
    proc = run("edit-lines", "--root", root, "shapes.py", anchors[10], anchors[11], stdin=new)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("Replaced lines 10-11 of shapes.py (+1 -1).\n")
    shapes = SHAPES.replace("return 3.14 * self.r * self.r", "return 3")
    assert (root / "shapes.py").read_bytes() == shapes.encode()

    anchors = _anchors(root, "point.go")
    proc = run("edit-lines", "--root", root, "point.go", anchors[14], anchors[14],
               "\tfmt.Println(0)", "--dry-run")  # fmt: skip
    assert proc.returncode == 0 and proc.stdout.startswith("[dry run: nothing was written]")
    assert (root / "point.go").read_text() == POINT
    proc = run("edit-lines", "--root", root, "point.go", anchors[14], anchors[14],
               "\tfmt.Println(0)")  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    point = POINT.replace("\tfmt.Println(Point{1, 2}.Sum())\n", "\tfmt.Println(0)\n")
    assert (root / "point.go").read_bytes() == point.encode()


def test_a_bad_anchor_exits_1_with_its_code_and_leaves_the_file(root: Path) -> None:
    anchors = _anchors(root, "shapes.py")
    # The line changed after it was read: its anchor no longer holds anywhere.
    changed = SHAPES.replace("3.14 * self.r * self.r", "3.1416 * self.r**2")
    (root / "shapes.py").write_text(changed)
    proc = run("edit-lines", "--root", root, "shapes.py", anchors[10], anchors[11], "x")
    assert proc.returncode == 1
    assert proc.stdout.startswith("Error (stale_read): The anchors")
    assert (root / "shapes.py").read_text() == changed
    proc = run("edit-lines", "--root", root, "shapes.py", "10", anchors[11], "x")
    assert proc.returncode == 1
    assert proc.stdout.startswith("Error (invalid_arguments): start '10' is not an anchor")
    assert (root / "shapes.py").read_text() == changed


def test_an_empty_standard_input_is_refused_and_an_empty_argument_is_a_choice(
    root: Path,
) -> None:
    anchors = _anchors(root, "shapes.py")
    for command in (
        ("edit-lines", "shapes.py", anchors[7], anchors[9]),
        ("edit-symbol", "shapes.py", "Circle.__init__"),
    ):
        proc = run(command[0], "--root", root, *command[1:], stdin="")
        assert proc.returncode == 2, command
        assert proc.stderr.startswith("edittools: Standard input was empty") and (
            "pass '' as the new_text argument" in proc.stderr
        )
        assert (root / "shapes.py").read_text() == SHAPES
    proc = run("edit-lines", "--root", root, "shapes.py", anchors[7], anchors[9], "")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    shapes = SHAPES.replace("    def __init__(self, r):\n        self.r = r\n\n", "")
    assert (root / "shapes.py").read_bytes() == shapes.encode()


def test_edit_lines_finds_lines_that_moved_and_says_so(root: Path) -> None:
    anchors = _anchors(root, "shapes.py")
    moved = "import math\n" + SHAPES
    (root / "shapes.py").write_text(moved)
    args = ("edit-lines", "--root", root, "shapes.py", anchors[10], anchors[11])
    new = "    def area(self):\n        return math.pi * self.r**2\n"
    proc = run(*args, "--dry-run", stdin=new)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith(
        "[dry run: nothing was written]\nReplaced lines 11-12 of shapes.py (+1 -1). "
        "The lines had moved: read as 10-11, found at 11-12.\n"
    )
    assert (root / "shapes.py").read_text() == moved
    proc = run(*args, stdin=new)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "The lines had moved: read as 10-11, found at 11-12." in proc.stdout.splitlines()[0]
    want = moved.replace("return 3.14 * self.r * self.r", "return math.pi * self.r**2")
    assert (root / "shapes.py").read_bytes() == want.encode()
