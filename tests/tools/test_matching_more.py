"""The tolerances past the line tiers: blank lines, escaped old_string, an elided middle."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from matching_harness import apply, refused, splice

from edittools._errors import ToolError
from edittools.tools.matching._matching import locate

# --- blank lines --------------------------------------------------------------------------------


def test_blank_line_missing_from_old_string_is_kept_in_the_file() -> None:
    text = "def f():\n    a()\n\n    b()\n    c()\n"
    old = "def f():\n    a()\n    b()\n    c()\n"
    new = "def f():\n    a()\n    B()\n    c()\n"
    assert apply(text, old, new) == ("def f():\n    a()\n\n    B()\n    c()\n", "blank_lines")


def test_blank_line_added_in_old_string_is_not_written() -> None:
    text = "x = 1\ny = 2\nz = 3\n"
    assert apply(text, "x = 1\n\ny = 2\nz = 3\n", "x = 1\n\ny = 2\nz = 4\n") == (
        "x = 1\ny = 2\nz = 4\n",
        "blank_lines",
    )


def test_new_string_changing_a_drifted_gap_is_refused() -> None:
    text = "x = 1\n\n\ny = 2\n"
    err = refused(text, "x = 1\ny = 2\n", "x = 1\n\ny = 2\n")
    assert err.code == "no_match"
    assert err.detail is not None and err.detail["match"] == "blank_lines"


@given(st.lists(st.sampled_from(["a()", "b()", "c = 1", ""]), min_size=3, max_size=10), st.data())
def test_blank_line_edit_then_its_inverse_restores_the_file(
    body: list[str], data: st.DataObject
) -> None:
    lines = [f"{word} #{k}" if word else "" for k, word in enumerate(body)]
    lines = ["start()", *lines, "end()"]
    text = "\n".join(lines) + "\n"
    old_lines = [line for line in lines if line]  # the model lost every blank line
    j = data.draw(st.integers(0, len(old_lines) - 1))
    new_lines = [*old_lines[:j], old_lines[j] + "  # changed", *old_lines[j + 1 :]]
    try:
        m = locate(text, "\n".join(old_lines) + "\n", "\n".join(new_lines) + "\n")
    except ToolError as exc:
        assert exc.code == "no_match"
        return
    edited = splice(text, m)
    assert edited == text.replace(old_lines[j] + "\n", new_lines[j] + "\n", 1)
    back = locate(edited, new_lines[j], old_lines[j])
    assert splice(edited, back) == text


# --- escaped old_string ------------------------------------------------------------------------


def test_json_escaped_old_and_new_string_are_unescaped_once() -> None:
    text = 'def f():\n    print("a\\tb")\n    return 1\n'
    old = 'def f():\\n    print(\\"a\\\\tb\\")\\n    return 1'
    new = 'def f():\\n    print(\\"a\\\\tc\\")\\n    return 1'
    assert apply(text, old, new) == ('def f():\n    print("a\\tc")\n    return 1\n', "escaped")


def test_new_string_not_escaped_is_written_as_sent() -> None:
    text = 'x = "a"\ny = 1\n'
    assert apply(text, 'x = \\"a\\"\\ny = 1', 'x = "b"\ny = 1')[0] == 'x = "b"\ny = 1\n'


def test_a_backslash_that_starts_no_escape_is_not_unescaped() -> None:
    assert refused("a\nb\\q\n", "a\\nb\\q", "x").code == "no_match"


# --- elided middle -----------------------------------------------------------------------------

LONG = "".join(f"line_{k} = {k}\n" for k in range(10))


@pytest.mark.parametrize("marker", ["...", "# ... existing code ...", "    // ...", "\u2026"])
def test_elided_middle_keeps_the_elided_lines(marker: str) -> None:
    old = f"line_1 = 1\nline_2 = 2\n{marker}\nline_7 = 7\n"
    new = f"line_1 = 1\nline_2 = 20\n{marker}\nline_7 = 70\n"
    got, tier = apply(LONG, old, new)
    assert tier == "elided"
    assert got == LONG.replace("line_2 = 2\n", "line_2 = 20\n").replace("7 = 7", "7 = 70")


def test_elision_missing_from_new_string_is_refused() -> None:
    err = refused(LONG, "line_1 = 1\n...\nline_7 = 7\n", "line_1 = 1\nline_7 = 70\n")
    assert err.code == "no_match" and "elision" in err.message


def test_elided_parts_that_occur_twice_are_refused() -> None:
    text = LONG + "line_1 = 1\n"
    err = refused(text, "line_1 = 1\n...\nline_7 = 7\n", "line_1 = 10\n...\nline_7 = 7\n")
    assert err.code == "no_match"
    assert err.detail is not None and err.detail["match"] == "elided"


def test_elided_parts_out_of_order_do_not_match() -> None:
    assert refused(LONG, "line_7 = 7\n...\nline_1 = 1\n", "x\n...\ny\n").code == "no_match"


# --- round trips through the other tiers --------------------------------------------------------

block_st = st.lists(st.sampled_from(['a("x")', "b = 1", "if c:", "d(e)"]), min_size=2, max_size=6)


@given(block_st, st.integers(0, 3), st.sampled_from(["arrow", "tab", "escaped"]), st.data())
def test_prefixed_or_escaped_edit_then_its_inverse_restores_the_file(
    words: list[str], depth: int, how: str, data: st.DataObject
) -> None:
    lines = ["head()", *(f"{'    ' * depth}{w} #{k}" for k, w in enumerate(words)), "tail()"]
    text = "\n".join(lines) + "\n"
    j = data.draw(st.integers(1, len(words)))
    new_lines = [*lines[:j], lines[j] + " # changed", *lines[j + 1 :]]

    def sent(block: list[str]) -> str:
        if how == "escaped":
            return json.dumps("\n".join(block) + "\n")[1:-1]
        sep = "→" if how == "arrow" else "\t"
        return "".join(f"{k + 1:>6}{sep}{line}\n" for k, line in enumerate(block))

    m = locate(text, sent(lines[1:-1]), sent(new_lines[1:-1]))
    assert m.tier == ("escaped" if how == "escaped" else "line_numbers")
    edited = splice(text, m)
    assert edited == "\n".join(new_lines) + "\n"
    assert splice(edited, locate(edited, new_lines[j], lines[j])) == text
