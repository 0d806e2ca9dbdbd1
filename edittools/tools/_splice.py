"""Replacing many spans of a text in one pass: the one splice every multi-span change uses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import AnyStr


def splice_spans(text: AnyStr, edits: Sequence[tuple[int, int, AnyStr]]) -> AnyStr:
    """`text` with each `(start, end, replacement)` put in place, built by one join.

    The spans are offsets into `text`, sorted and non-overlapping; the cost is one copy of the
    result however many spans there are (replacing them one at a time would copy the whole text
    once per span). Raises `ValueError` for spans out of order or outside the text.
    """
    parts: list[AnyStr] = []
    add = parts.append
    prev = 0
    for start, end, replacement in edits:
        if start < prev or end < start:
            raise ValueError(f"span {start}:{end} overlaps the one before it or is reversed")
        add(text[prev:start])
        add(replacement)
        prev = end
    if prev > len(text):
        raise ValueError(f"span ending at {prev} lies outside the text (length {len(text)})")
    add(text[prev:])
    return text[:0].join(parts)
