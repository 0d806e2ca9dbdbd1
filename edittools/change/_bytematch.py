"""Exact edits of large UTF-8 files found on their bytes, without decoding the file.

Decoding 45 MB to text, splicing the text and encoding it back costs several times more than
writing the file. For a UTF-8 file with LF newlines (no byte-order mark, no CR, no NUL near the
start) an exact match of `old_string` is a match of its UTF-8 bytes, and always on character
boundaries (UTF-8 is self-synchronising), so the needle is encoded once and found by a SIMD
byte search. Anything else — another encoding, CR newlines, no match, an ambiguous match (places
that overlap count each, and are ambiguous even to `replace_all`), a needle that cannot be
encoded — returns None, and the edit takes the text path, which says precisely what is wrong or
applies a tolerance.
"""

from __future__ import annotations

from collections.abc import Sequence

from edittools import _bytesearch
from sandbox import bom_candidates, looks_binary

ByteSpan = tuple[int, int, bytes]


def exact_byte_spans(
    data: bytes,
    old_string: str,
    new_string: str,
    *,
    replace_all: bool,
    plain: bool = False,
) -> list[ByteSpan] | None:
    """The byte spans an exact edit replaces and their new bytes; None: use the text path.

    `plain` says `data` is known to be `plain_utf8` already (not checked again).
    """
    if not old_string or old_string == new_string or "\r" in old_string + new_string:
        return None
    try:
        needle = old_string.encode("utf-8")
        replacement = new_string.encode("utf-8")
    except UnicodeError:
        return None
    starts: list[int] = []
    at = _bytesearch.find(data, needle)
    while at >= 0:
        if starts and (not replace_all or at < starts[-1] + len(needle)):
            return None  # ambiguous, or overlapping: the text path lists every match
        starts.append(at)
        at = _bytesearch.find(data, needle, at + 1)
    if not starts or not (plain or plain_utf8(data)):
        return None
    return [(s, s + len(needle), replacement) for s in starts]


def plain_utf8(data: bytes) -> bool:
    """Whether `data` is UTF-8 text with LF newlines: no byte-order mark, no CR, no NUL near the
    start (where its bytes and its text diff alike, offset for offset on character bounds)."""
    if bom_candidates(data[:4]) or looks_binary(data) or b"\r" in data:
        return False
    if data.isascii():
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def plain_head(pieces: Sequence[bytes | memoryview]) -> bool:
    """Whether a content spliced from a plain UTF-8 one (replacements encoded from text without
    CR, at character bounds) is plain too: only its start can differ — a byte-order mark, or a
    NUL now among the first bytes — so only that is checked."""
    head = bytearray()
    for piece in pieces:
        head += piece[: _HEAD - len(head)]
        if len(head) >= _HEAD:
            break
    return not bom_candidates(bytes(head[:4])) and not looks_binary(bytes(head))


_HEAD = 8192  # more than looks_binary's probe


def line_start(data: bytes, offset: int, back: int = 0) -> int:
    """Offset of the start of the line holding `offset`, moved `back` lines further up."""
    first = data.rfind(b"\n", 0, offset) + 1
    for _ in range(back):
        if first == 0:
            break
        first = data.rfind(b"\n", 0, first - 1) + 1
    return first


def line_end(data: bytes, offset: int, ahead: int = 0) -> int:
    """Offset just past the line holding `offset` (its newline included), `ahead` lines further."""
    last = offset
    for _ in range(ahead + 1):
        if last >= len(data):
            return len(data)
        newline = data.find(b"\n", last)
        last = len(data) if newline == -1 else newline + 1
    return last
