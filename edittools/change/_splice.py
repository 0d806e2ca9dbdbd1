"""Replacing many spans of a text in one pass: the one splice every multi-span change uses."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import AnyStr, TypeVar

R = TypeVar("R")


def splice_spans(text: AnyStr, edits: Sequence[tuple[int, int, AnyStr]]) -> AnyStr:
    """`text` with each `(start, end, replacement)` put in place, built by one join.

    The spans are offsets into `text`, sorted and non-overlapping; the cost is one copy of the
    result however many spans there are (replacing them one at a time would copy the whole text
    once per span). Raises `ValueError` for spans out of order or outside the text.
    """
    parts: list[AnyStr] = []
    for kept, replacement in _cuts(len(text), edits):
        parts.append(text[kept])
        if replacement is not None:
            parts.append(replacement)
    return text[:0].join(parts)


VIEW_EDITS = 64
"""Past this many edits the pieces are joined: one copy of the result costs less than a vectored
write and a piecewise hash of hundreds of thousands of small pieces (a dense replace_all)."""


def splice_views(data: bytes, edits: Sequence[tuple[int, int, bytes]]) -> list[bytes | memoryview]:
    """The pieces of `splice_spans(data, edits)` without joining them: views of the untouched
    bytes and the replacements, in order, for a vectored write (no copy of the file's bytes).

    More than `VIEW_EDITS` edits come back as one joined piece.
    """
    if len(edits) > VIEW_EDITS:
        return [splice_spans(data, edits)]
    view = memoryview(data)
    pieces: list[bytes | memoryview] = []
    for kept, replacement in _cuts(len(data), edits):
        pieces.append(view[kept])
        if replacement is not None:
            pieces.append(replacement)
    return pieces


def _cuts(length: int, edits: Sequence[tuple[int, int, R]]) -> Iterator[tuple[slice, R | None]]:
    """The kept slices of a text of `length`, each followed by the replacement after it."""
    prev = 0
    for start, end, replacement in edits:
        if start < prev or end < start:
            raise ValueError(f"span {start}:{end} overlaps the one before it or is reversed")
        yield slice(prev, start), replacement
        prev = end
    if prev > length:
        raise ValueError(f"span ending at {prev} lies outside the text (length {length})")
    yield slice(prev, length), None
