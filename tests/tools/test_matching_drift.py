"""Drifted edits of real text that once wrote wrongly: `N: ` prefixes, escaped strings, blank lines.

Each tolerance must write `new_string` through the same reading it gave `old_string`, and the lines
the two have in common must come out as the file's own bytes; else the edit is refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import pygments
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matching_harness import apply, refused, splice

from edittools._errors import ToolError
from edittools.tools.matching._matching import locate

LEXERS = Path(pygments.__file__).parent / "lexers"


def lexer_lines(name: str) -> list[str]:
    """The lines of one of pygments' own lexer modules."""
    return (LEXERS / name).read_text(encoding="utf-8").split("\n")


def block_at(lines: list[str], anchor: str, before: int, size: int) -> int:
    """The first line of a block of `size` lines that holds `anchor` `before` lines in."""
    at = next(k for k, line in enumerate(lines) if anchor in line)
    assert at >= before and at - before + size <= len(lines)
    return at - before


def edited(lines: list[str], start: int, block: list[str]) -> str:
    """The file's text with its lines from `start` replaced by `block`, of the same length."""
    return "\n".join([*lines[:start], *block, *lines[start + len(block) :]])


def colon_numbered(block: list[str], first: int) -> str:
    """`block` as a reader prints it with `N: ` before each line (0-based `first`)."""
    return "".join(f"{first + 1 + k}: {line}\n" for k, line in enumerate(block))


# --- (a) `N: ` prefixes --------------------------------------------------------------------------

# Blocks of real lexer tables indented 12 and 13 columns (string states, continuation lines).
REAL_BLOCKS = [
    ("inferno.py", "(r'\"', String, '#pop'),", 1, 5),
    ("ldap.py", "(r'(#.*)(\\n)', bygroups(Comment.Single, Whitespace)),", 2, 5),
]


@pytest.mark.parametrize(("name", "anchor", "before", "size"), REAL_BLOCKS)
def test_colon_numbered_old_string_with_plain_new_string_keeps_the_files_columns(
    name: str, anchor: str, before: int, size: int
) -> None:
    """`44: ` numbering, new_string without it: the space after the colon is the prefix's.

    It was taken as the lines' first column in old_string only, and new_string, which has no
    such column, was written one column to the left, unchanged lines too.
    """
    lines = lexer_lines(name)
    start = block_at(lines, anchor, before, size)
    block = lines[start : start + size]
    changed = [*block[:2], block[2] + "  # edited", *block[3:]]
    text = "\n".join(lines)
    got, tier = apply(text, colon_numbered(block, start), "\n".join(changed) + "\n")
    assert (got, tier) == (edited(lines, start, changed), "line_numbers")


@pytest.mark.parametrize(("name", "anchor", "before", "size"), REAL_BLOCKS)
def test_colon_numbered_old_and_new_string_keep_the_files_columns(
    name: str, anchor: str, before: int, size: int
) -> None:
    lines = lexer_lines(name)
    start = block_at(lines, anchor, before, size)
    block = lines[start : start + size]
    changed = [*block[:2], block[2] + "  # edited", *block[3:]]
    text = "\n".join(lines)
    got, tier = apply(text, colon_numbered(block, start), colon_numbered(changed, start))
    assert (got, tier) == (edited(lines, start, changed), "line_numbers")


def test_a_space_that_either_reading_can_place_is_refused() -> None:
    """Prefixes and indentation both drifted: the file cannot say whose the space is.

    Taken as indentation, old_string's 9 columns stand for the file's 12 and the plain line of
    new_string at 8 columns lands at 11; taken as the prefix's, at 12. No write either way.
    """
    lines = lexer_lines("inferno.py")
    start = block_at(lines, "(r'\\\\([\\\\abfnrtv", 1, 4)
    block = lines[start : start + 4]
    shifted = [line[4:] for line in block]  # 8 and 9 columns for the file's 12 and 13
    new = "\n".join([*shifted[:2], shifted[2] + "  # edited", shifted[3]]) + "\n"
    err = refused("\n".join(lines), colon_numbered(shifted, start), new)
    assert err.code == "no_match"
    assert err.detail is not None and err.detail["match"] == "line_numbers"
    assert "space" in err.detail["reason"]


def test_new_string_numbering_only_some_lines_is_refused() -> None:
    """A line added without a number beside numbered ones: the prefixes once went into the file."""
    lines = lexer_lines("inferno.py")
    start = block_at(lines, "(r'\"', String, '#pop'),", 1, 4)
    block = lines[start : start + 4]
    new = colon_numbered(block[:2], start) + "            (r'x', String),\n"
    new += colon_numbered(block[2:], start + 2)
    err = refused("\n".join(lines), colon_numbered(block, start), new)
    assert err.code == "no_match" and "numbers some" in err.message


def test_a_blank_line_numbered_without_its_space_keeps_the_prefix_reading() -> None:
    """`45:` alone for an empty line does not stop the space after the others being the prefix's."""
    text = "class A:\n    def f(self):\n\n        return 1\n"
    old = "2: " + "    def f(self):\n3:\n4:         return 1\n"
    new = "    def f(self):\n\n        return 2\n"
    assert apply(text, old, new) == (
        "class A:\n    def f(self):\n\n        return 2\n",
        "line_numbers",
    )


# --- (b) an escaped old_string -------------------------------------------------------------------

# From aider's README (scripting section), a Markdown file with a fenced Python block.
MARKDOWN = """\
You can also script aider from python:

```python
from aider.coders import Coder
from aider.models import Model

# This will execute one instruction on those files and then return
coder.run("make a script that prints hello world")

# Send another instruction
coder.run("make it say goodbye")
```
"""


def escaped(text: str) -> str:
    """`text` as a JSON string's body."""
    return json.dumps(text)[1:-1]


def test_escaped_old_string_with_new_string_escaped_on_real_lines_is_unescaped_throughout() -> None:
    """Quotes escaped, lines real: the unchanged `coder.run(\\"make it say goodbye\\")` was
    written with its backslashes, since only a one-line new_string was unescaped."""
    old = 'coder.run("make a script that prints hello world")\n\n# Send another instruction\n'
    old += 'coder.run("make it say goodbye")\n'
    new = old.replace("# Send another instruction", "# Send another instruction, twice")
    got, tier = apply(MARKDOWN, escaped(old), new.replace('"', '\\"'))
    assert (got, tier) == (MARKDOWN.replace(old, new), "escaped")


def test_escaped_old_string_with_plain_new_string_on_real_lines_is_written_as_sent() -> None:
    """Backslashes of regexes sent plain: each line they are in is the file's, as sent."""
    lines = lexer_lines("inferno.py")
    start = block_at(lines, "(r'\"', String, '#pop'),", 0, 5)
    block = lines[start : start + 5]
    assert ["\\" in line for line in block] == [False, True, False, True, True]
    meant = [*block[:2], block[2] + "  # edited", *block[3:]]
    text = "\n".join(lines)
    got, tier = apply(text, escaped("\n".join(block) + "\n"), "\n".join(meant) + "\n")
    assert (got, tier) == (edited(lines, start, meant), "escaped")


def test_escaped_old_string_with_plain_new_string_changing_a_backslash_line_is_refused() -> None:
    """The changed line reads two ways and no kept line can vouch for it: no write."""
    lines = lexer_lines("inferno.py")
    start = block_at(lines, "(r'\"', String, '#pop'),", 0, 5)
    block = lines[start : start + 5]
    meant = [*block[:3], block[3] + "  # edited", *block[4:]]
    text = "\n".join(lines)
    err = refused(text, escaped("\n".join(block) + "\n"), "\n".join(meant) + "\n")
    assert err.detail is not None and err.detail["match"] == "escaped"


def test_quotes_escaped_on_real_lines_with_raw_backslashes_are_refused() -> None:
    """`\\"` resolved but `\\\\` left as it was: a kept line fits neither reading (found by the
    property below: one kept line once voted for the plain reading of all)."""
    lines = lexer_lines("inferno.py")
    start = block_at(lines, "(r\"'(\\\\.|", 0, 3)
    block = lines[start : start + 3]
    meant = [*block[:1], block[1] + "  # edited", *block[2:]]
    text = "\n".join(lines)
    sent = ("\n".join(meant) + "\n").replace('"', '\\"')
    err = refused(text, escaped("\n".join(block) + "\n"), sent)
    assert err.detail is not None and err.detail["match"] == "escaped"


def test_escaped_old_string_with_new_string_no_kept_line_can_read_is_refused() -> None:
    """Only a changed line tells the readings apart: nothing says which was meant."""
    old = '# Send another instruction\ncoder.run("make it say goodbye")\n'
    new = '# Send another instruction\ncoder.run(\\"make it say hello\\")\n'
    err = refused(MARKDOWN, escaped(old), new)
    assert err.code == "no_match"
    assert err.detail is not None and err.detail["match"] == "escaped"
    assert "    10\t# Send another instruction" in err.message


def test_escaped_new_string_with_a_real_final_newline_is_refused() -> None:
    old = '# Send another instruction\ncoder.run("make it say goodbye")\n'
    new = '# Send another instruction\ncoder.run("make it say hello")\n'
    err = refused(MARKDOWN, escaped(old), escaped(new) + "\n")
    assert err.code == "no_match" and "escaped" in err.message


def test_escaped_new_string_whose_only_escapes_are_backslashes_is_unescaped_too() -> None:
    """`\\\\d` in new_string is `\\d` when old_string was read as escaped; it was written doubled."""
    old = '# Send another instruction\ncoder.run("make it say goodbye")'
    new = "PATTERN = r'\\d+'"
    assert "\\n" not in escaped(new) and '\\"' not in escaped(new)
    got, tier = apply(MARKDOWN, escaped(old), escaped(new))
    assert tier == "escaped"
    assert got == MARKDOWN.replace(old, new)


def test_escaped_new_string_sent_plain_is_written_as_sent() -> None:
    """No backslash at all: reading it as escaped changes nothing, so either reading agrees."""
    old = '# Send another instruction\ncoder.run("make it say goodbye")\n'
    new = '# Send another instruction\ncoder.run("make it say hello")\n'
    assert apply(MARKDOWN, escaped(old), new) == (MARKDOWN.replace(old, new), "escaped")


def test_escaped_text_outside_the_basic_plane_is_unescaped_as_one_character() -> None:
    """JSON writes an emoji as two `\\u` escapes (a surrogate pair); they are one character."""
    text = MARKDOWN.replace("goodbye", "goodbye \U0001f44b")
    old = '# Send another instruction\ncoder.run("make it say goodbye \U0001f44b")\n'
    new = old.replace("goodbye", "bye")
    sent_old, sent_new = json.dumps(old)[1:-1], json.dumps(new)[1:-1]
    assert "\\ud83d\\udc4b" in sent_old
    assert apply(text, sent_old, sent_new) == (text.replace(old, new), "escaped")


# --- (c) blank lines -----------------------------------------------------------------------------

# From pygments/lexers/__init__.py: a docstring with two empty lines.
DOCSTRING = '''\
def find_lexer_class_for_filename(_fn, code=None):
    """Get a lexer for a filename.

    If multiple lexers match the filename pattern, use ``analyse_text()`` to
    figure out which one is more appropriate.

    Returns None if not found.
    """
    matches = []
'''


GAP_OLD = (
    '    """Get a lexer for a filename.\n'
    "    If multiple lexers match the filename pattern, use ``analyse_text()`` to\n"
    "    figure out which one is more appropriate.\n"
    "    \n"
    "    Returns None if not found.\n"
)
"""An old_string of DOCSTRING whose empty line was lost and whose other one came as spaces."""


def test_blank_line_gap_beside_a_deleted_line_keeps_the_files_empty_line() -> None:
    """One empty line lost, the other sent as indentation: a deletion beside that gap wrote
    the spaces where the file had an empty line."""
    old = GAP_OLD
    new = (
        '    """Get a lexer for a filename.\n'
        "    If multiple lexers match the filename pattern, use ``analyse_text()`` to\n"
        "    \n"
        "    Returns None if not found.\n"
    )
    got, tier = apply(DOCSTRING, old, new)
    assert tier == "blank_lines"
    assert got == DOCSTRING.replace("    figure out which one is more appropriate.\n", "")


def test_blank_line_gap_grown_by_new_string_keeps_the_files_line_first() -> None:
    old = GAP_OLD
    new = old.replace("    \n", "    \n    \n")
    got, tier = apply(DOCSTRING, old, new)
    assert tier == "blank_lines"
    assert got == DOCSTRING.replace("appropriate.\n\n", "appropriate.\n\n    \n")


@pytest.mark.parametrize(("in_old", "in_new"), [("    ", "        "), ("    ", ""), ("", "  ")])
def test_a_blank_line_sent_differently_in_old_and_new_string_is_the_files(
    in_old: str, in_new: str
) -> None:
    """Whitespace-only lines are all one blank line to the tolerance; the file keeps its own."""
    text = DOCSTRING.replace("appropriate.\n\n", "appropriate.\n  \t\n")
    old = (
        "    figure out which one is more appropriate.\n"
        f"{in_old}\n"
        "    Returns None if not found.  \n"
        '    """\n'
    )
    new = (
        "    figure out which one is more appropriate.\n"
        f"{in_new}\n"
        "    Returns None when not found.\n"
        '    """\n'
    )
    got, tier = apply(text, old, new)
    assert tier == "trailing_whitespace"
    assert got == text.replace("Returns None if", "Returns None when")


# --- (d) trailing whitespace on one side only -----------------------------------------------------

MODULE = 'import os\n\nx = 1\n\n\nclass A:\n\n    """Doc."""\n'


def test_trailing_spaces_dropped_by_new_string_keep_the_files_empty_line_by_a_deletion() -> None:
    """old_string with trailing spaces, new_string without them and an empty line as indentation.

    Only the blank lines were taken as shared, a diff paired them wrongly, and the empty line
    after `class A:` was written with new_string's four spaces (found by the property below, in
    pygments' ldap.py).
    """
    old = '\nx = 1  \n\n\nclass A:  \n\n    """Doc."""  \n'
    new = '\n\n\nclass A:\n    \n    """Doc."""\n'
    got, tier = apply(MODULE, old, new)
    assert (got, tier) == (MODULE.replace("x = 1\n", ""), "trailing_whitespace")


def test_a_kept_line_whose_trailing_whitespace_drifted_is_written_as_the_file_has_it() -> None:
    """The file's trailing spaces on a line new_string keeps were dropped with the model's."""
    text = "def f():  \n    return 1\n"
    got, tier = apply(text, "def f(): \n    return 1\n", "def f():\n    return 2\n")
    assert (got, tier) == ("def f():  \n    return 2\n", "trailing_whitespace")


def test_a_kept_line_whose_trailing_whitespace_drifted_keeps_it_across_a_blank_line_gap() -> None:
    """The same under the blank-line tolerance, which paired old and new lines as sent."""
    text = "def f():  \n\n    return 1\n\n\ny = 2\n"
    old = "def f(): \n    return 1\n\n\ny = 2\n"
    new = "def f():\n    return 1\n\n\ny = 3\n"
    got, tier = apply(text, old, new)
    assert (got, tier) == (text.replace("y = 2", "y = 3"), "blank_lines")


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        ("a = 1\n\nb = 2\n\n\nc = 3\n", "\nb = 2 \n\n\n", "    \n    \n    \n"),
        ("a = 1\n\nb = 2\n    \n\nc = 3\n", "\nb = 2\n\n\n", "\n\n\n"),
    ],
    ids=["empty_lines_sent_as_spaces", "a_line_of_spaces_sent_empty"],
)
def test_a_line_deleted_between_blank_lines_keeps_each_blank_line_the_files(
    text: str, old: str, new: str
) -> None:
    """Blank, `b = 2`, blank, blank, less `b = 2`: the diff paired new_string's first two blank
    lines with old_string's last two and took its third for an added line, written as sent."""
    got, tier = apply(text, old, new)
    assert (got, tier) == (text.replace("b = 2\n", "", 1), "trailing_whitespace")


YIELDS = "def f():\n    yield\n\n    yield\n    yield\n    return\n"
YIELDS_OLD = "def f():\n    yield\n    yield\n    yield\n    return\n"
"""Three alike lines with an empty line among them in the file, and an old_string without it."""


@pytest.mark.parametrize("count", [2, 4])
def test_one_of_alike_lines_dropped_or_added_across_a_lost_blank_line_is_refused(
    count: int,
) -> None:
    """Which `yield` goes (or where one more goes) decides where the file's empty line lands.

    The diff took the last of them and wrote the empty line after the first; taking the first,
    the gap the edit changes is the one old_string lost. Nothing says which was meant.
    """
    new = "def f():\n" + "    yield\n" * count + "    return\n"
    err = refused(YIELDS, YIELDS_OLD, new)
    assert err.code == "no_match"
    assert err.detail is not None and err.detail["match"] == "blank_lines"
    assert "alike lines" in err.detail["reason"]


def test_a_change_beside_alike_lines_across_a_lost_blank_line_is_made() -> None:
    got, tier = apply(YIELDS, YIELDS_OLD, YIELDS_OLD.replace("return", "return 1"))
    assert (got, tier) == (YIELDS.replace("return", "return 1"), "blank_lines")


# --- the property: what the tolerance accepts, it writes as meant -------------------------------

SOURCES = {name: lexer_lines(name) for name in ("inferno.py", "ldap.py", "__init__.py")}
DRIFTS = {
    "colon": ("colon", "colon"),
    "colon_old_only": ("colon", "plain"),
    "escaped": ("escaped", "escaped"),
    "escaped_old_only": ("escaped", "plain"),
    "escaped_quotes_new": ("escaped", "quotes"),
    "blank_spaces": ("spaces", "spaces"),
    "blank_spaces_old_only": ("spaces", "plain"),
    "blank_spaces_new_only": ("trailing", "spaces"),
    "blank_dropped": ("dropped", "dropped"),
    "blank_dropped_spaces": ("dropped_spaces", "dropped_spaces"),
}


def drifted(block: list[str], first: int, how: str) -> str:
    """`block` as a model sends it under the drift `how`."""
    if how == "colon":
        return colon_numbered(block, first)
    if how == "escaped":
        return escaped("\n".join(block) + "\n")
    if how == "quotes":  # quotes escaped, lines real
        return ("\n".join(block) + "\n").replace('"', '\\"')
    out = list(block)
    if how == "trailing":  # trailing spaces the file does not have, empty lines as they are
        out = [line + "  " if line else line for line in block]
    if how.startswith("dropped"):  # the first empty line lost
        gone = next((k for k, line in enumerate(block) if not line), None)
        out = [line for k, line in enumerate(block) if k != gone]
    if how.endswith("spaces"):  # empty lines sent as the next line's indentation
        for k, line in enumerate(out):
            after = next((x for x in out[k + 1 :] if x.strip()), "")
            out[k] = line or after[: len(after) - len(after.lstrip())]
    return "\n".join(out) + "\n"


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted(SOURCES)),
    st.sampled_from(sorted(DRIFTS)),
    st.sampled_from(["replace", "insert", "delete"]),
    st.data(),
)
def test_an_accepted_tolerant_edit_writes_every_unchanged_line_as_the_file_has_it(
    name: str, drift: str, change: str, data: st.DataObject
) -> None:
    """Any drift, any change: either a refusal or the file with exactly the meant change."""
    lines = SOURCES[name]
    text = "\n".join(lines)
    size = data.draw(st.integers(5 if drift.startswith("blank") else 3, 9))
    starts: list[int] = list(range(1, len(lines) - size))
    if drift.startswith("blank"):  # a block with empty lines inside, a change beside one
        want = 2 if "dropped" in drift else 1
        starts = [s for s in starts if lines[s + 1 : s + size - 1].count("") >= want] or starts
    start = data.draw(st.sampled_from(starts))
    block = lines[start : start + size]
    changeable = [j for j in range(1, size - 1) if block[j]] or [1]
    if drift.startswith("blank"):
        changeable = [j for j in changeable if "" in (block[j - 1], block[j + 1])] or changeable
    k = data.draw(st.sampled_from(changeable))
    indent = block[k][: len(block[k]) - len(block[k].lstrip())]
    meant = {
        "replace": [*block[:k], block[k] + "  # edited", *block[k + 1 :]],
        "insert": [*block[: k + 1], indent + "added()", *block[k + 1 :]],
        "delete": [*block[:k], *block[k + 1 :]],
    }[change]
    old_how, new_how = DRIFTS[drift]
    old = drifted(block, start, old_how)
    new = drifted(meant, start, new_how)
    try:
        m = locate(text, old, new)
    except ToolError as exc:
        assert exc.code in ("no_match", "ambiguous_match", "no_change")
        return
    if m.tier == "exact":
        return  # no tolerance: new_string is written as sent
    assert splice(text, m) == "\n".join([*lines[:start], *meant, *lines[start + size :]])
