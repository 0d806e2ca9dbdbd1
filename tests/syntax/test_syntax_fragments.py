"""A change checked on the statement it touched alone, with the tree of the text it started from
kept."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from edittools.syntax import SyntaxCheck, _fragments, check_change
from edittools.syntax import _trees as trees

MODULE = '''"""A module with the shapes a change meets."""

import os

LIMIT = 10  # a comment after a statement


@decorated
def area(w, h=LIMIT):
    """Return the area."""
    if w > 0:
        total = w * h
    else:
        total = 0
    return total


class Shape(Base):
    sides = [
        1,
        2,
    ]

    def name(self):
        # a comment in a body
        text = """a string
that spans lines"""
        return os.path.join(text, "x")

    @property
    def size(self):
        if self.sides:
            for side in self.sides:
                return side
        return len(self.sides)


for item in range(3):
    print(item)
'''


@pytest.fixture(autouse=True)
def no_kept_trees() -> Iterator[None]:
    trees._trees.clear()
    yield
    trees._trees.clear()


def both_ways(old: str, new: str) -> tuple[SyntaxCheck | None, SyntaxCheck | None, bool]:
    """The check with the old text's tree kept, the check from scratch, and whether the first was
    answered by re-checking a statement alone (it leaves a stale region in the kept tree)."""
    trees._trees.clear()
    check_change("a.py", None, old)  # a new file: parsed whole, its tree kept
    with_tree = check_change("a.py", old, new)
    kept = trees._trees.get("a.py")
    by_fragment = kept is not None and bool(kept.regions)
    trees._trees.clear()
    return with_tree, check_change("a.py", old, new), by_fragment


def edited(old: str, new: str) -> str:
    assert MODULE.count(old) == 1, old
    return MODULE.replace(old, new)


HARMLESS = {
    "a name in a body": ("total = w * h", "total = w * h * 2"),
    "a statement added to a body": ("        total = 0\n", "        total = 0\n        w = 1\n"),
    "a function's header": ("def area(w, h=LIMIT):", "def area(w, h=LIMIT, *, d=1):"),
    "a class's header": ("class Shape(Base):", "class Shape(Base, Mixin):"),
    "a decorator": ("@decorated", "@decorated(1)"),
    "a comment in a body": ("# a comment in a body", "# another comment"),
    "a module-level statement": ("LIMIT = 10", "LIMIT = 12"),
    "the end of a line": ("return total\n", "return total  # done\n"),
    "a comment after a statement": ("# a comment after a statement", "# another comment"),
    "inside a bracket over lines": ("        2,\n", "        2, 3,\n"),
}


@pytest.mark.parametrize("edit", HARMLESS.values(), ids=HARMLESS.keys())
def test_a_harmless_change_is_checked_on_its_statement_alone(edit: tuple[str, str]) -> None:
    with_tree, scratch, by_fragment = both_ways(MODULE, edited(*edit))
    assert with_tree is not None and with_tree.diagnostics == ()
    assert by_fragment
    assert with_tree == scratch


BREAKING = {
    "a backslash joining the next line": ("        total = w * h", "        total = w * h \\"),
    "a backslash after a header": ("        if self.sides:", "        if self.sides: \\"),
    "a module-level header indented": ("class Shape(Base):", " \tclass Shape(Base):"),
    "a module-level loop indented": ("for item in range(3):", "    for item in range(3):"),
    "a bracket left open on a body's last line": (
        "return len(self.sides)",
        "return len(self.sides",
    ),
    "a string left open": ('that spans lines"""', "that spans lines"),
    "a header without its colon": ("def name(self):", "def name(self)"),
    "a header turned into a call": ("    def size(self):", "    size(self)"),
    "an else with no if": ("    print(item)\n", "    print(item)\n    else:\n"),
    "a statement opening a block it lacks": ("LIMIT = 10", "if LIMIT:"),
    "a decorator that lost its definition": ("    @property\n", "    @property\n\n    x = 1\n"),
}


@pytest.mark.parametrize("edit", BREAKING.values(), ids=BREAKING.keys())
def test_a_change_that_breaks_around_its_statement_is_flagged_as_a_full_parse_does(
    edit: tuple[str, str],
) -> None:
    """Edits at a statement's edges, where its own lines could parse while the file does not."""
    with_tree, scratch, by_fragment = both_ways(MODULE, edited(*edit))
    assert scratch is not None and scratch.broken
    assert with_tree == scratch
    assert not by_fragment


def test_a_statement_continued_from_the_line_before_is_not_checked_alone() -> None:
    """Its lines parse alone, but in the file they continue the line before: the file is parsed."""
    text = "import os; \\\nimport sys\nx = 1\n"
    with_tree, scratch, by_fragment = both_ways(text, text.replace("import sys", "if sys: pass"))
    assert scratch is not None and scratch.broken
    assert with_tree == scratch
    assert not by_fragment


def test_a_statement_that_parses_only_in_its_place_is_not_checked_alone() -> None:
    """A `case` clause alone is no statement: turned into one that is, it breaks its `match`."""
    text = "match x:\n    case 1:\n        pass\n"
    with_tree, scratch, by_fragment = both_ways(text, text.replace("case 1:", "if 1:"))
    assert scratch is not None and scratch.broken
    assert with_tree == scratch
    assert not by_fragment


def test_a_statement_followed_by_deeper_code_is_not_a_region_alone() -> None:
    """A comment at the margin inside a block: code there would end the block the next line is in,
    so only statements that hold the next line too are re-checked."""
    text = "class A:\n    def name(self):\n        x = 0\n# at the margin\n        y = 1\n"
    check_change("a.py", None, text)
    kept = trees._trees["a.py"]
    start = text.index("# at")
    regions = _fragments._regions(kept, (start, start + 4, start + 4))
    assert regions and all(r.start < start for r in regions)


def test_random_line_edits_with_kept_trees_agree_with_checks_from_scratch() -> None:
    """A run of changes, each checked with the tree (and stale regions) the last one left."""
    rng = random.Random(16)
    pieces = ["x = 1", "pass", "else:", "if x:", "def g():", "@d", "# c", "y = (", ")", '"""',
              "a; b", "z = 3 \\", "try:", "return", ""]  # fmt: skip
    text = MODULE * 3
    check_change("a.py", None, text)
    fragments = 0
    for _ in range(150):
        lines = text.split("\n")
        i = rng.randrange(len(lines))
        indent = " " * rng.choice([0, 1, 4, 8]) + rng.choice(["", "\t"])
        operation = rng.randrange(5)
        if operation == 0:
            lines[i] = indent[:2] + lines[i]
        elif operation == 1:
            lines[i] = lines[i][rng.choice([1, 4]) :]
        elif operation == 2:
            lines.insert(i, indent + rng.choice(pieces))
        elif operation == 3 and len(lines) > 1:
            del lines[i]
        else:
            lines[i] += rng.choice(["  # x", " \\", ":", " x", "_a", "(", ")"])
        new = "\n".join(lines)
        with_tree = check_change("a.py", text, new)
        kept = trees._trees["a.py"]
        fragments += bool(kept.regions)
        trees._trees.clear()
        assert with_tree == check_change("a.py", text, new), (text, new)
        trees.keep("a.py", kept)
        text = new
    assert fragments > 10
