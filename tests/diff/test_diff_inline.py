"""Word-level highlights: spans checked against the lines they index, and their bounds."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from edittools.artifacts import Hunk
from edittools.diff import diff_texts
from edittools.diff._inline import MAX_HUNK_LINES, MAX_LINE_CHARS, Budget, inline_spans, pairs

WORDS = st.sampled_from(["foo", "bar", "x", " ", "  ", "(", ")", "=", "é", "😀", "\t", "1", "\r"])
LINE = st.lists(WORDS, max_size=12).map("".join)


def _check(hunk: Hunk) -> None:
    """Every span lies in a paired changed line, and the pair minus its spans is equal."""
    assert hunk.spans is not None
    by_line: dict[int, list[tuple[int, int]]] = {}
    for span in hunk.spans:
        text = hunk.lines[span.line]
        assert text[:1] in "-+"
        assert 0 <= span.start < span.end <= len(text) - 1
        by_line.setdefault(span.line, []).append((span.start, span.end))
    for ranges in by_line.values():
        assert ranges == sorted(ranges)
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(ranges))
    paired = dict(pairs(hunk.lines))
    assert set(by_line) <= set(paired) | set(paired.values())
    for old, new in paired.items():
        kept = []
        for index in (old, new):
            text = hunk.lines[index][1:]
            for start, end in reversed(by_line.get(index, [])):
                text = text[:start] + text[end:]
            kept.append(text)
        if old in by_line or new in by_line:
            assert kept[0] == kept[1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(LINE, LINE, st.booleans()), min_size=1, max_size=8))
def test_spans_index_the_changed_characters_of_paired_lines(
    rows: list[tuple[str, str, bool]],
) -> None:
    old = "".join(a + "\n" for a, _, _ in rows)
    new = "".join((b if change else a) + "\n" for a, b, change in rows)
    payload = diff_texts(old, new, path="f.txt")
    for hunk in payload.hunks:
        _check(hunk)


def test_a_renamed_word_is_the_only_span() -> None:
    payload = diff_texts("x = compute(total, rate)\n", "x = compute(subtotal, rate)\n", path="a")
    [hunk] = payload.hunks
    assert hunk.lines == ["-x = compute(total, rate)", "+x = compute(subtotal, rate)"]
    spans = [(s.line, s.start, s.end) for s in hunk.spans or []]
    assert [hunk.lines[i][1:][a:b] for i, a, b in spans] == ["total", "subtotal"]


def test_pairs_follow_change_blocks_in_order_and_skip_unpaired_lines() -> None:
    lines = [" a", "-b", "-c", "+B", " d", "-e", "\\ No newline at end of file", "+E", "+F"]
    assert pairs(lines) == [(1, 3), (5, 7)]


def test_lines_with_nothing_in_common_get_no_spans() -> None:
    assert inline_spans(["-abc", "+xyz"]).spans == []


def test_long_lines_and_large_hunks_are_skipped_and_say_so() -> None:
    long = "a" * (MAX_LINE_CHARS + 1)
    found = inline_spans(["-" + long, "+" + long + "b", "-x = 1", "+x = 2"])
    assert found.skipped == "long_lines"
    assert [line for line, _, _ in found.spans] == [2, 3]  # the short pair still highlighted
    big = ["-a 1", "+a 2"] * (MAX_HUNK_LINES // 2 + 1)
    assert inline_spans(big) == ([], "large_hunk")
    old = "".join(f"line {i}\n" for i in range(MAX_HUNK_LINES + 10))
    [hunk] = diff_texts(old, old.replace("line", "LINE"), path="f").hunks
    assert (hunk.spans, hunk.spans_skipped) == (None, "large_hunk")


def test_the_budget_is_shared_by_the_hunks_of_one_diff() -> None:
    budget = Budget(20)
    assert inline_spans(["-x = 1", "+x = 2"], budget).skipped is None
    assert inline_spans(["-y = 1234567", "+y = 2234567"], budget).skipped == "budget"


def test_a_lone_surrogate_is_a_character_like_any_other() -> None:
    # Texts decoded with surrogatepass may hold one; the pair is still highlighted.
    assert inline_spans(["-a \udcff", "+a b"]).spans == [(0, 2, 3), (1, 2, 3)]
