"""Locating old_string: each tier, ambiguity, misses with the closest lines, literal new text."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from edittools._errors import ToolError
from edittools.tools.matching._matching import Match, locate


def splice(text: str, match: Match, newline: str = "\n") -> str:
    """What the edit tool does with a match: replace each span, new lines in the file's style."""
    out, prev = [], 0
    for (start, end), repl in zip(match.spans, match.replacements, strict=True):
        out += [text[prev:start], repl.replace("\n", newline)]
        prev = end
    out.append(text[prev:])
    return "".join(out)


def error(text: str, old: str, new: str, **kw: bool) -> ToolError:
    with pytest.raises(ToolError) as info:
        locate(text, old, new, **kw)
    return info.value


def test_exact_match_replaces_the_one_place() -> None:
    m = locate("a\nb\nc\n", "b\n", "B\n")
    assert (m.tier, m.spans, m.replacements) == ("exact", ((2, 4),), ("B\n",))


def test_regex_replacement_syntax_in_new_string_is_literal() -> None:
    text = "x = 1\n"
    new = r"x = '$1 \1 \g<0> $& \\'"
    assert splice(text, locate(text, "x = 1", new)) == new + "\n"


def test_exact_ambiguity_lists_every_line() -> None:
    err = error("x\ny\nx\nz\nx", "x", "w")
    assert err.code == "ambiguous_match"
    assert err.detail == {"count": 3, "lines": [1, 3, 5], "match": "exact"}
    assert "1, 3, 5" in err.message and "replace_all" in err.message


def test_replace_all_gives_every_span_in_order() -> None:
    text = "x\ny\nx\nz\nx"
    m = locate(text, "x", "w", replace_all=True)
    assert m.spans == ((0, 1), (4, 5), (8, 9))
    assert splice(text, m) == "w\ny\nw\nz\nw"


def test_replace_all_refuses_places_that_overlap() -> None:
    with pytest.raises(ToolError) as info:
        locate("aaaa", "aa", "b", replace_all=True)
    assert info.value.code == "ambiguous_match"
    assert info.value.detail == {
        "count": 3,
        "lines": [1, 1, 1],
        "match": "exact",
        "overlapping": True,
    }


def test_replace_all_spans_that_touch_do_not_overlap() -> None:
    m = locate("a\nb\na\nb\n", "a\nb\n", "c\n", replace_all=True)
    assert m.spans == ((0, 4), (4, 8))


def test_lf_old_string_matches_crlf_text_and_keeps_other_bytes() -> None:
    text = "one\r\ntwo\r\nthree\r\nfour\r\n"
    m = locate(text, "two\nthree\n", "2\n3\n")
    assert m.tier == "newlines"
    assert splice(text, m, "\r\n") == "one\r\n2\r\n3\r\nfour\r\n"


def test_crlf_old_string_matches_lf_text() -> None:
    m = locate("a\nb\nc\n", "a\r\nb", "x\r\ny")
    assert m.tier == "newlines"
    assert m.replacements == ("x\ny",)  # "\n" only: the caller converts once


def test_lone_cr_text_matches_lf_old_string() -> None:
    text = "a\rb\rc\r"
    m = locate(text, "b\nc", "B\nC")
    assert m.tier == "newlines"
    assert splice(text, m, "\r") == "a\rB\rC\r"


def test_newline_tier_in_mixed_file_keeps_the_untouched_endings() -> None:
    text = "a\r\nb\nc\r\nd\n"
    m = locate(text, "b\nc\n", "B\n")
    assert splice(text, m) == "a\r\nB\nd\n"


def test_trailing_whitespace_is_forgiven_per_line() -> None:
    text = "keep  \nfoo   \nbar\t\nend\n"
    m = locate(text, "foo\nbar\n", "baz\n")
    assert m.tier == "trailing_whitespace"
    assert splice(text, m) == "keep  \nbaz\nend\n"


def test_trailing_whitespace_tier_works_on_crlf() -> None:
    text = "a \r\nb\r\n"
    m = locate(text, "a\nb\n", "c\n")
    assert m.tier == "trailing_whitespace"
    assert splice(text, m, "\r\n") == "c\r\n"


def test_missing_final_newline_is_kept() -> None:
    text = "a\nlast  "
    m = locate(text, "last\n", "end\n")
    assert splice(text, m) == "a\nend"


def test_indentation_tier_reindents_new_string_with_tabs() -> None:
    text = "def f():\n\tif x:\n\t\treturn 1\n\treturn 0\n"
    m = locate(text, "if x:\n    return 1\n", "if y:\n    return 2\n# top\n")
    assert m.tier == "indentation"
    assert splice(text, m) == "def f():\n\tif y:\n\t\treturn 2\n\t# top\n\treturn 0\n"


def test_indentation_tier_keeps_relative_indentation_with_spaces() -> None:
    text = "class A:\n    def f(self):\n        pass\n"
    m = locate(text, "def f(self):\n    pass\n", "def f(self):\n    if x:\n        pass\n")
    assert m.tier == "indentation"
    assert m.replacements == ("    def f(self):\n        if x:\n            pass\n",)


def test_indentation_tier_converts_tabs_to_the_files_spaces() -> None:
    text = "if a:\n  if b:\n    c()\n"
    m = locate(text, "if b:\n\tc()\n", "if b:\n\td()\n\tif e:\n\t\tf()\n")
    assert m.replacements == ("  if b:\n    d()\n    if e:\n      f()\n",)


def test_unicode_punctuation_is_folded() -> None:
    text = "msg = “it’s — fine…”\u00a0# note\n"
    m = locate(text, 'msg = "it\'s - fine..." # note\n', "msg = 'ok'\n")
    assert m.tier == "unicode_punctuation"
    assert splice(text, m) == "msg = 'ok'\n"


def test_line_number_prefixes_are_stripped_from_old_and_new() -> None:
    text = "a\n    foo()\n    bar()\nz\n"
    old = "     2\t    foo()\n     3\t    bar()\n"
    m = locate(text, old, "     2\t    baz()\n")
    assert m.tier == "line_numbers"
    assert splice(text, m) == "a\n    baz()\nz\n"


@pytest.mark.parametrize("prefix", ["2→", "2: ", "  2\t"])
def test_line_number_variants(prefix: str) -> None:
    m = locate("a\nfoo\nz\n", prefix + "foo", "bar")
    assert (m.tier, m.replacements) == ("line_numbers", ("bar",))


def test_numbers_out_of_sequence_are_not_prefixes() -> None:
    assert error("a\nfoo\nbar\n", "2\tfoo\n9\tbar\n", "x").code == "no_match"


def test_a_tolerance_that_matches_twice_is_ambiguous() -> None:
    text = "def f():\n    x = 1\n\ndef g():\n\tx = 1\n"
    err = error(text, "\t\tx = 1\n", "\t\tx = 2\n")
    assert err.code == "ambiguous_match"
    assert err.detail == {"count": 2, "lines": [2, 5], "match": "indentation"}
    assert "indentation" in err.message


def test_exact_wins_over_a_tolerance_elsewhere() -> None:
    text = "  x = 1\nx = 1  \n"
    m = locate(text, "x = 1  \n", "y\n")
    assert (m.tier, m.spans) == ("exact", ((8, 16),))


def test_tolerant_off_allows_only_exact_and_newlines() -> None:
    assert locate("a\r\nb\r\n", "a\nb", "c", tolerant=False).tier == "newlines"
    err = error("    a()\nb\n", "  a()\n b\n", "c\n", tolerant=False)
    assert err.code == "no_match"
    assert err.detail and err.detail["closest"]["hint"] == "indentation differs"


def test_identical_strings_are_no_change() -> None:
    assert error("abc", "b", "b").code == "no_change"


def test_tolerant_match_that_changes_nothing_is_no_change() -> None:
    err = error("x = 1\n", "x = 1  \n", "x = 1\n")
    assert err.code == "no_change"
    assert "trailing_whitespace" in err.message


def test_empty_old_string_is_invalid_arguments() -> None:
    assert error("abc", "", "x").code == "invalid_arguments"


def test_no_match_shows_the_closest_numbered_lines_and_the_difference() -> None:
    text = "".join(f"line {i}\n" for i in range(1, 50))
    text += "def compute_total(items):\n    return sum(items)\n"
    text += "".join(f"tail {i}\n" for i in range(10))
    err = error(text, "def compute_total(items):\n    return max(items)\n", "x")
    assert err.code == "no_match"
    closest = err.detail and err.detail["closest"]
    assert closest["start_line"] == 50 and closest["end_line"] == 51
    assert "    50\tdef compute_total(items):" in err.message
    assert "-    return max(items)" in err.message
    assert "+    return sum(items)" in err.message
    assert closest["hint"] == "1 of 2 lines differ"


def test_no_match_hints_at_tabs_versus_spaces() -> None:
    err = error("if a:\n\tgo()\n", "if a:\n    go()\n", "x", tolerant=False)
    assert (
        err.detail and err.detail["closest"]["hint"] == "indentation differs (tabs versus spaces)"
    )


def test_no_match_with_nothing_alike_says_so() -> None:
    err = error("alpha\nbeta\n", "gamma delta", "x")
    assert err.code == "no_match"
    assert err.detail == {"closest": None}
    assert "Read the file" in err.message


def test_no_match_on_a_large_file_finds_the_region_by_rare_words() -> None:
    lines = [f"    value_{i} = compute(value_{i - 1})\n" for i in range(200_000)]
    lines[150_000] = "    special_marker = compute(other)\n"
    text = "".join(lines)
    err = error(text, "special_marker = compute(othr)", "x")
    assert err.detail and err.detail["closest"]["start_line"] == 150_001


lines_st = st.lists(st.text("ab \t", max_size=6), min_size=1, max_size=12)


@given(lines_st, st.data())
def test_crlf_edit_equals_lf_edit_in_crlf_style(lines: list[str], data: st.DataObject) -> None:
    """An LF old_string in a CRLF file edits exactly what it edits in the LF form of the file."""
    lf = "\n".join(f"<{k}>{line}" for k, line in enumerate(lines)) + "\n"
    start = data.draw(st.integers(0, len(lines) - 1))
    stop = data.draw(st.integers(start + 1, len(lines)))
    old = "".join(f"<{k}>{lines[k]}\n" for k in range(start, stop))
    new = data.draw(st.text("xy\n", max_size=8))
    if new == old:
        return
    crlf = lf.replace("\n", "\r\n")
    m = locate(crlf, old, new)
    assert splice(crlf, m, "\r\n") == lf.replace(old, new).replace("\n", "\r\n")


@given(
    st.text("ab\n", max_size=30), st.text("ab\n$\\", min_size=1, max_size=4), st.text(max_size=5)
)
def test_replace_all_equals_str_replace(text: str, old: str, new: str) -> None:
    if old not in text or old == new or text.replace(old, new) == text:
        return
    starts = [i for i in range(len(text)) if text.startswith(old, i)]
    if any(b < a + len(old) for a, b in itertools.pairwise(starts)):
        # Overlapping places cannot all be replaced: refused, never the first of each pair.
        with pytest.raises(ToolError) as info:
            locate(text, old, new, replace_all=True)
        assert info.value.code == "ambiguous_match"
        return
    assert splice(text, locate(text, old, new, replace_all=True)) == text.replace(old, new)


def test_indentation_tier_refuses_an_old_string_that_lost_its_nesting() -> None:
    """A flattened old_string must not match a nested block: re-indenting would break the code."""
    text = "def b():\n    return 2\n"
    with pytest.raises(ToolError) as info:
        locate(text, "def b():\nreturn 2\n", "def b():\nreturn 20\n")
    assert info.value.code == "no_match"
    assert "indent" in info.value.message.lower()


def test_indentation_tier_still_matches_a_uniformly_shifted_block() -> None:
    text = "class A:\n    def b(self):\n        return 2\n"
    match = locate(text, "def b(self):\n    return 2\n", "def b(self):\n    return 20\n")
    assert match.tier == "indentation"
    assert match.replacements == ("    def b(self):\n        return 20\n",)
