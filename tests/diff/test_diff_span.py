"""The known-span fast path gives the same payload as the full diff."""

from __future__ import annotations

import re

import pytest
from hunk_apply import apply_hunks

from edittools.diff import DiffError, diff_span, diff_spans, diff_texts
from edittools.diff._span import DENSE_SPANS

OLD = "".join(f"line {i}\n" for i in range(1, 201))


def _full(old: str, new: str, context: int = 3):  # type: ignore[no-untyped-def]
    return diff_texts(old, new, path="f.py", context=context)


def test_single_span_equals_full_diff() -> None:
    start = OLD.index("line 50\n")
    end = start + len("line 50")
    payload = diff_span(OLD, start, end, "LINE 50\nextra", path="f.py")
    new = OLD[:start] + "LINE 50\nextra" + OLD[end:]
    assert payload.hunks == _full(OLD, new).hunks
    assert payload.unified == _full(OLD, new).unified
    assert payload.new == new and payload.old == OLD


def test_first_line_hint_gives_the_same_numbers() -> None:
    start = OLD.index("line 120\n") + 3
    with_hint = diff_span(OLD, start, start + 2, "XY", path="f.py", first_line=120)
    without = diff_span(OLD, start, start + 2, "XY", path="f.py")
    assert with_hint.hunks == without.hunks
    assert with_hint.hunks[0].old_start == 117


def test_several_spans_like_replace_all() -> None:
    spans = []
    new = OLD
    for n in (3, 4, 90, 199):
        start = OLD.index(f"line {n}\n")
        spans.append((start, start + 4, "row"))
    new = OLD.replace("line 3\n", "row 3\n").replace("line 4\n", "row 4\n")
    new = new.replace("line 90\n", "row 90\n").replace("line 199\n", "row 199\n")
    payload = diff_spans(OLD, list(reversed(spans)), path="f.py")
    assert payload.hunks == _full(OLD, new).hunks
    assert payload.stats.added == 4 and payload.stats.removed == 4


@pytest.mark.parametrize("count", [DENSE_SPANS - 1, DENSE_SPANS + 1, 5 * DENSE_SPANS])
def test_many_spans_equal_the_full_diff(count: int) -> None:
    """Dense replace-all spans (diffed whole past DENSE_SPANS) give the full diff's hunks."""
    old = "".join(f"v{i} = token + {i % 7}\n" if i % 3 else f"keep {i}\n" for i in range(3 * count))
    starts = [m.start() for m in re.finditer("token", old)][:count]
    spans = [(s, s + 5, "other" if n % 2 else "x\ny") for n, s in enumerate(starts)]
    new = old
    for start, end, replacement in reversed(spans):
        new = new[:start] + replacement + new[end:]
    payload = diff_spans(old, spans, path="f.py")
    full = _full(old, new)
    assert payload.hunks == full.hunks and payload.stats == full.stats
    assert apply_hunks(old.encode(), payload.hunks) == new.encode()


def test_span_that_changes_nothing_has_no_hunks() -> None:
    start = OLD.index("line 7\n")
    payload = diff_span(OLD, start, start + 6, "line 7", path="f.py")
    assert payload.hunks == [] and payload.unified == ""


def test_span_at_end_without_final_newline() -> None:
    old = "a\nb\nc"
    payload = diff_span(old, 4, 5, "C\n", path="f.py")
    assert payload.hunks == _full(old, "a\nb\nC\n").hunks
    assert apply_hunks(old.encode(), payload.hunks) == b"a\nb\nC\n"


def test_span_deleting_lines_and_inserting_into_empty() -> None:
    assert diff_span("", 0, 0, "x\n", path="f.py").unified.endswith("@@ -0,0 +1 @@\n+x\n")
    start = OLD.index("line 10\n")
    end = OLD.index("line 20\n")
    payload = diff_span(OLD, start, end, "", path="f.py", context=0)
    assert (payload.stats.added, payload.stats.removed) == (0, 10)
    assert payload.hunks[0].old_start == 10 and payload.hunks[0].new_start == 9


def test_bytes_spans_use_byte_offsets() -> None:
    old = "é1\né2\né3\n".encode()
    start = old.index("é2".encode())
    payload = diff_span(old, start, start + 3, b"E2", path="f.py", include_texts=False)
    assert payload.hunks[0].lines == [" é1", "-é2", "+E2", " é3"]
    assert payload.old is None


def test_binary_bytes_are_not_diffed_unless_declared_text() -> None:
    old = b"a\0b\nc\n"
    assert diff_span(old, 4, 5, b"d", path="f.bin").binary is True
    declared = diff_span(old, 4, 5, b"d", path="f.bin", binary=False)
    assert declared.binary is False and declared.stats.added == 1


@pytest.mark.parametrize(
    ("spans", "code"),
    [
        ([(5, 2, "x")], "bad_span"),
        ([(0, 99_999, "x")], "bad_span"),
        ([(0, 4, "x"), (2, 6, "y")], "bad_span"),
        ([(0, 1, b"x")], "mixed_types"),
    ],
)
def test_bad_spans_raise_with_a_code(spans: list, code: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(DiffError) as info:
        diff_spans(OLD, spans, path="f.py")
    assert info.value.code == code


def test_large_replaced_region_equals_full_diff() -> None:
    old = "".join(f"row {i} of the table\n" for i in range(20_000))
    start = old.index("row 5000 of")
    end = old.index("row 15000 of")
    middle = old[start:end].replace("0 of", "0 in")
    payload = diff_span(old, start, end, middle, path="f.txt", budget=None)
    new = old[:start] + middle + old[end:]
    full = diff_texts(old, new, path="f.txt", budget=None)
    assert payload.hunks == full.hunks
    assert payload.stats.added == 1000
