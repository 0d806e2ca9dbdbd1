"""splice_spans: many spans replaced in one pass, for text and bytes alike."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from edittools.change._splice import VIEW_EDITS, splice_spans, splice_views


def test_spans_are_replaced_in_order_for_text_and_bytes() -> None:
    assert splice_spans("abcdef", [(0, 1, "X"), (2, 2, "+"), (4, 6, "")]) == "Xb+cd"
    assert splice_spans(b"abcdef", [(1, 3, b"__")]) == b"a__def"


@pytest.mark.parametrize("spans", [[(2, 4, "x"), (3, 5, "y")], [(3, 1, "x")], [(4, 9, "x")]])
def test_overlapping_reversed_or_outside_spans_are_refused(
    spans: list[tuple[int, int, str]],
) -> None:
    with pytest.raises(ValueError):
        splice_spans("abcdef", spans)


@given(st.text("ab", max_size=40), st.text("ab", min_size=1, max_size=3), st.text("xy", max_size=3))
def test_splicing_every_occurrence_equals_str_replace(text: str, old: str, new: str) -> None:
    spans, at = [], text.find(old)
    while at != -1:
        spans.append((at, at + len(old), new))
        at = text.find(old, at + len(old))
    assert splice_spans(text, spans) == text.replace(old, new)


@pytest.mark.parametrize("count", [1, VIEW_EDITS, VIEW_EDITS + 1, 5_000])
def test_views_join_to_the_splice_for_few_and_many_edits(count: int) -> None:
    """Up to VIEW_EDITS edits give views of the untouched bytes; past it, one joined piece."""
    data = b"ab" * (count + 1)
    edits = [(2 * i, 2 * i + 1, b"xyz") for i in range(count)]
    pieces = splice_views(data, edits)
    assert b"".join(pieces) == splice_spans(data, edits)
    assert len(pieces) == (1 if count > VIEW_EDITS else 2 * count + 1)
