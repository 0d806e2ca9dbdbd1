"""Tolerant matches apply only through the line mapping: regressions of wrong writes, and properties.

Every tolerated edit must write what an exact edit of the file's own lines would write, or be
refused with the file's lines; these cases once came out wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from matching_harness import apply, refused, splice

from edittools import Session
from edittools._errors import ToolError
from edittools.tools.matching._matching import locate
from edittools.tools.patch._patch import apply_file_patch, parse_patch

# --- line-number prefixes -----------------------------------------------------------------------

CLASS = "class A:\n    def f(self):\n        return 1\n"


def test_arrow_prefix_does_not_eat_the_first_indentation_column_of_new_string() -> None:
    """Claude Code's `    12→` prefix: new_string sent without prefixes lands at the file's columns."""
    old = "     2→    def f(self):\n     3→        return 1\n"
    new = "    def f(self):\n        if x:\n            return 2\n"
    assert apply(CLASS, old, new) == (
        "class A:\n    def f(self):\n        if x:\n            return 2\n",
        "line_numbers",
    )


def test_arrow_prefix_on_both_sides_keeps_indented_block() -> None:
    old = "     2→    def f(self):\n     3→        return 1\n"
    new = "     2→    def f(self):\n     3→        return 2\n     4→    # done\n"
    assert apply(CLASS, old, new)[0] == (
        "class A:\n    def f(self):\n        return 2\n    # done\n"
    )


# --- Unicode punctuation ------------------------------------------------------------------------


def test_curly_quotes_in_old_and_new_string_are_not_written_into_unchanged_lines() -> None:
    text = "x = \"a\"\ny = 'b'\nz = 1\n"
    old = "x = \u201ca\u201d\ny = \u2018b\u2019\nz = 1\n"
    new = "x = \u201ca\u201d\ny = \u2018b\u2019\nz = 2\n"
    assert apply(text, old, new) == ("x = \"a\"\ny = 'b'\nz = 2\n", "unicode_punctuation")


def test_curly_quotes_of_a_changed_line_take_the_files_ascii_quotes() -> None:
    text = 'x = "a"\ny = 1\n'
    old = "x = \u201ca\u201d\ny = 1\n"
    new = "x = \u201cc\u201d\ny = 1\n"
    assert apply(text, old, new)[0] == 'x = "c"\ny = 1\n'


def test_em_dash_in_old_string_matches_a_double_hyphen_in_the_file() -> None:
    text = "cmd --verbose -q\nnext\n"
    old = "cmd \u2014verbose -q\nnext\n"
    new = "cmd \u2014verbose -q\nlast\n"
    assert apply(text, old, new) == ("cmd --verbose -q\nlast\n", "unicode_punctuation")


def test_ellipsis_sent_for_three_dots_keeps_the_files_dots() -> None:
    text = "wait...\nok\n"
    assert apply(text, "wait\u2026\nok\n", "wait\u2026\nno\n")[0] == "wait...\nno\n"


# --- tabs, spaces and mixed prefixes ------------------------------------------------------------


def test_tab_in_old_string_maps_to_the_two_space_step_of_the_file() -> None:
    """A tab once counted 4 columns whatever the file used: in a 2-space file it is 2."""
    text = "def f():\n  if a:\n    go()\n"
    old = "def f():\n\tif a:\n\t\tgo()\n"
    new = "def f():\n\tif a:\n\t\tgo()\n\t\tif b:\n\t\t\tstop()\n"
    assert apply(text, old, new) == (
        "def f():\n  if a:\n    go()\n    if b:\n      stop()\n",
        "indentation",
    )


def test_eight_space_steps_map_to_one_tab_each() -> None:
    text = "if a:\n\tif b:\n\t\tgo()\n"
    old = "if a:\n        if b:\n                go()\n"
    new = "if a:\n        if b:\n                go()\n                if c:\n" + " " * 24 + "s()\n"
    assert apply(text, old, new)[0] == "if a:\n\tif b:\n\t\tgo()\n\t\tif c:\n\t\t\ts()\n"


def test_mixed_tab_and_space_prefixes_of_a_c_comment_keep_their_alignment() -> None:
    text = "int f(void)\n{\n\tif (x) {\n\t\ty();\n\t}\n\t/*\n\t * note\n\t */\n}\n"
    old = "    if (x) {\n        y();\n    }\n    /*\n     * note\n     */\n"
    new = "    if (x) {\n        z();\n    }\n    /*\n     * new note\n     */\n"
    assert apply(text, old, new) == (
        "int f(void)\n{\n\tif (x) {\n\t\tz();\n\t}\n\t/*\n\t * new note\n\t */\n}\n",
        "indentation",
    )


def test_a_tab_width_the_pairs_do_not_determine_is_refused() -> None:
    """One tab level in old_string against 4 spaces: a new deeper level has no proven width."""
    text = "x = 0\n    a()\n    b()\n"
    err = refused(text, "\ta()\n\tb()\n", "\ta()\n\tif c:\n\t\tb()\n")
    assert err.code == "no_match"
    assert err.detail is not None and err.detail["match"] == "indentation"
    assert "     2\t    a()" in err.message


def test_a_nesting_step_shown_by_no_pair_is_refused_not_copied_from_new_string() -> None:
    """old_string at 15 columns for the file's 10: a line 3 deeper in new_string has no width.

    Taking the model's 3 columns as the file's step once wrote 13 columns in a 2-space file.
    """
    text = "def f():\n" + " " * 10 + "a()\n" + " " * 10 + "b()\n"
    old = " " * 15 + "a()\n" + " " * 15 + "b()\n"
    new = " " * 15 + "if a():\n" + " " * 18 + "c()\n" + " " * 15 + "b()\n"
    err = refused(text, old, new)
    assert err.code == "no_match" and "new_string indents a line with" in err.message


def test_a_line_shallower_than_every_pair_is_refused_when_no_step_is_shown() -> None:
    """4 columns for the file's 8 is a shift of 4 or a 2-space unit scaled to 4: no guess."""
    text = "class A:\n    def f(self):\n        x()\n        y()\n"
    err = refused(text, "    x()\n    y()\n", "    x()\n    y()\nz()\n")
    assert err.code == "no_match" and "new_string indents a line with ''" in err.message


def test_a_nested_line_under_a_flush_left_old_string_keeps_no_file_indent() -> None:
    """old_string sent flush left for a tab-indented block: a line one tab deeper in new_string
    once kept its single tab (a file indentation) and lost its nesting."""
    text = "def f():\n\ta()\n\tb()\n"
    err = refused(text, "a()\nb()\n", "a()\n\tc()\nb()\n")
    assert err.code == "no_match" and "new_string indents a line with '\\t'" in err.message


def test_tab_widths_that_disagree_are_refused() -> None:
    text = "if a:\n  if b:\n          go()\n"
    err = refused(text, "if a:\n\tif b:\n\t\tgo()\n", "if a:\n\tif b:\n\t\tstop()\n")
    assert err.code == "no_match"
    assert "one step of '\\t' in old_string is both '  ' and '        '" in err.message


def test_two_file_indentations_for_one_of_old_string_are_refused() -> None:
    text = "if a:\n    go()\n  stop()\n"
    err = refused(text, "if a:\n  go()\n  stop()\n", "if a:\n  run()\n  stop()\n")
    assert err.code == "no_match"
    assert "old_string indents lines with '  '" in err.message


# --- properties ---------------------------------------------------------------------------------

words = st.sampled_from(["a()", "b = 1", "if c:", "return d", "e.f(g)", "# h"])
blocks = st.lists(st.tuples(st.integers(0, 3), words), min_size=2, max_size=8)
styles = st.sampled_from(["  ", "    ", "\t"])


def render(block: list[tuple[int, str]], unit: str, base: int = 0) -> list[str]:
    """The block's lines, each word made unique so only whole lines can match."""
    return [unit * (base + level) + f"{word} #{k}" for k, (level, word) in enumerate(block)]


@given(blocks, styles, styles, st.integers(0, 2), st.data())
def test_tolerated_indentation_edit_then_its_inverse_gives_back_the_original_bytes(
    block: list[tuple[int, str]], file_unit: str, model_unit: str, base: int, data: st.DataObject
) -> None:
    """An edit sent in another indentation style, then the exact inverse, restores the file."""
    file_lines = render(block, file_unit, base)
    text = "head()\n" + "\n".join(file_lines) + "\ntail()\n"
    old = render(block, model_unit)
    j = data.draw(st.integers(0, len(block) - 1))
    changed = [*block[:j], (block[j][0], "changed_" + block[j][1]), *block[j + 1 :]]
    new = render(changed, model_unit)
    try:
        m = locate(text, "\n".join(old) + "\n", "\n".join(new) + "\n")
    except ToolError as exc:
        assert exc.code in ("no_match", "ambiguous_match")
        return
    edited = splice(text, m)
    # Every other line is the file's own, the changed one sits at the file's indentation.
    expected_lines = render(changed, file_unit, base)
    assert edited == "head()\n" + "\n".join(expected_lines) + "\ntail()\n"
    back = locate(edited, "\n".join(expected_lines) + "\n", "\n".join(file_lines) + "\n")
    assert back.tier == "exact"
    assert splice(edited, back) == text


@given(blocks, st.data())
def test_tolerated_trailing_whitespace_and_punctuation_edit_then_inverse_restores(
    block: list[tuple[int, str]], data: st.DataObject
) -> None:
    file_lines = [line + "  " for line in render(block, "    ", 1)]
    file_lines[0] += "\u2014 \u2018x\u2019"  # the first line's punctuation drifts too
    text = "\n".join(file_lines) + "\n"
    old_lines = [line.rstrip() for line in file_lines]
    old_lines[0] = (
        old_lines[0].replace("\u2014", "--").replace("\u2018", "'").replace("\u2019", "'")
    )
    j = data.draw(st.integers(1, len(block) - 1))
    new_lines = [*old_lines[:j], old_lines[j] + "  # changed", *old_lines[j + 1 :]]
    m = locate(text, "\n".join(old_lines) + "\n", "\n".join(new_lines) + "\n")
    assert m.tier in ("trailing_whitespace", "unicode_punctuation")
    edited = splice(text, m)
    got = edited.split("\n")
    assert [g for k, g in enumerate(got[:-1]) if k != j] == [
        f for k, f in enumerate(file_lines) if k != j
    ]
    back = locate(edited, got[j], file_lines[j])
    assert splice(edited, back) == text


@given(blocks, st.integers(1, 3))
def test_inconsistent_indentation_mapping_is_refused(
    block: list[tuple[int, str]], shift: int
) -> None:
    """Two lines at one level of old_string sit at different levels of the file: never applied."""
    file_block = [(level, word) for level, word in block]
    file_block[-1] = (file_block[-1][0] + shift, file_block[-1][1])
    flat = [(block[0][0], word) for _, word in block]  # old_string puts all at one level
    assume(len({level for level, _ in file_block}) > 1)
    text = "\n".join(render(file_block, "    ")) + "\n"
    old = "\n".join(render(flat, "  ")) + "\n"
    new = "\n".join(render([*flat, (flat[0][0], "added()")], "  ")) + "\n"
    assume(old not in text)  # an exact match is no tolerance
    try:
        m = locate(text, old, new)
    except ToolError as exc:
        assert exc.code in ("no_match", "ambiguous_match")
        return
    raise AssertionError(f"applied as {m.tier}: {splice(text, m)!r}")


# --- through the tools: refusals leave the file alone, patches map added lines ---------------


def test_unmappable_edit_is_refused_and_the_file_keeps_its_bytes(tmp_path: Path) -> None:
    data = b"x = 0\n    a()\n    b()\n"
    (tmp_path / "f.py").write_bytes(data)
    with Session(tmp_path, require_read=False) as s:
        result = s.edit("f.py", "\ta()\n\tb()\n", "\ta()\n\tif c:\n\t\tb()\n")
    assert result.is_error and "no_match" in result.value
    assert (tmp_path / "f.py").read_bytes() == data


def test_patch_added_lines_take_the_files_indentation_through_the_mapping() -> None:
    """A hunk sent with 4-space indentation for a tab file: its added lines get tabs too."""
    patch = (
        "*** Begin Patch\n*** Update File: a.py\n@@\n def f():\n-    return 1\n"
        "+    if x:\n+        return 2\n*** End Patch\n"
    )
    fp = parse_patch(patch)[0]
    assert apply_file_patch("def f():\n\treturn 1\n", fp) == (
        "def f():\n\tif x:\n\t\treturn 2\n",
        "indentation",
    )


def test_patch_whose_added_lines_cannot_be_mapped_is_a_conflict() -> None:
    patch = (
        "*** Begin Patch\n*** Update File: a.py\n@@\n-\treturn 1\n"
        "+\tif x:\n+\t\treturn 2\n*** End Patch\n"
    )
    fp = parse_patch(patch)[0]
    with pytest.raises(ToolError) as info:
        apply_file_patch("def f():\n    return 1\n", fp)
    assert info.value.code == "patch_conflict"
    assert info.value.detail is not None and "reason" in info.value.detail
