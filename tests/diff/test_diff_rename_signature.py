"""The rename similarity's chunk signature, checked against chunking every line one by one."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from edittools.diff._tree import _signature

PIECES = [b"a", b"b\n", b"\r", b"\r\n", b"\n", b"\0", b"x" * 63, b"y" * 64, b"z" * 65, b"w" * 130]


def chunked(data: bytes) -> Counter[bytes]:
    """Bytes per chunk, chunk by chunk: lines end at a newline (a text file's CR before it left
    out), then each is cut every 64 bytes."""
    text = b"\0" not in data[:8000]
    lines = data.split(b"\n")
    last = lines.pop()
    pieces = [(line[:-1] if text and line.endswith(b"\r") else line) + b"\n" for line in lines]
    if last:
        pieces.append(last)
    counts: Counter[bytes] = Counter()
    for piece in pieces:
        for start in range(0, len(piece), 64):
            counts[piece[start : start + 64]] += len(piece[start : start + 64])
    return counts


@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_the_signature_counts_the_bytes_of_each_chunk(parts: list[bytes]) -> None:
    data = b"".join(parts)
    assert _signature(data) == chunked(data)


def test_lines_of_63_64_and_65_bytes_split_at_the_chunk_size() -> None:
    data = b"x" * 63 + b"\n" + b"y" * 64 + b"\n" + b"z" * 65 + b"\n" + b"x" * 63 + b"\n"
    assert _signature(data) == {
        b"x" * 63 + b"\n": 128,
        b"y" * 64: 64,
        b"\n": 1,
        b"z" * 64: 64,
        b"z\n": 2,
    }


def test_crlf_and_lf_copies_have_one_signature_unless_binary() -> None:
    assert _signature(b"a\r\nb\r\n") == _signature(b"a\nb\n")
    assert _signature(b"\0a\r\nb\r\n") != _signature(b"\0a\nb\n")
