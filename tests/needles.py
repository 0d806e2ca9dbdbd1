"""Needles for the byte searches' property tests (the bytesearch module and the streamed passes)."""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis import strategies as st

LONG_NEEDLES = st.binary(min_size=33, max_size=80).map(lambda b: bytes(b"ab \n"[x % 4] for x in b))
"""Needles longer than the search's anchor, from four bytes (shared with the streamed passes'
tests)."""


def planted(needle: bytes, pieces: Iterable[tuple[bool, int, bytes]]) -> bytes:
    """Copies of `needle`, each whole or with its byte at `at` changed (a near miss: the anchor
    often still occurs, the needle does not, and the plain search takes over), each followed by
    its filler."""
    parts = []
    for whole, at, filler in pieces:
        copy = bytearray(needle)
        if not whole:
            copy[at % len(copy)] ^= 0x40
        parts += [bytes(copy), filler]
    return b"".join(parts)
