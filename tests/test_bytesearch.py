"""`edittools._bytesearch`: the SIMD find and count answer exactly as `bytes.find`/`bytes.count`."""

from __future__ import annotations

import mmap
import tempfile

from hypothesis import given, settings
from hypothesis import strategies as st
from needles import LONG_NEEDLES, planted

from edittools import _bytesearch

# Few distinct bytes, so needles occur often, overlap and straddle any bound.
_DATA = st.binary(max_size=600).map(lambda b: bytes(b"ab\n"[x % 3] for x in b))
_BOUND = st.one_of(st.none(), st.integers(-700, 700))


@settings(max_examples=400, deadline=None)
@given(data=_DATA, needle=_DATA.filter(bool), start=_BOUND, end=_BOUND)
def test_find_and_count_agree_with_bytes(
    data: bytes, needle: bytes, start: int | None, end: int | None
) -> None:
    lo = 0 if start is None else start
    for buffer in (data, bytearray(data), memoryview(data)):
        assert _bytesearch.find(buffer, needle, lo, end) == data.find(needle, lo, end)
        assert _bytesearch.count(buffer, needle, lo, end) == data.count(needle, lo, end)


def test_a_mapped_file_is_searched_in_place_through_a_memoryview() -> None:
    data = b"x" * 70_000 + b"needle\n" + b"y\n" * 10
    with tempfile.TemporaryFile() as f:
        f.write(data)
        f.flush()
        with mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ) as mapped:
            view = memoryview(mapped)
            assert _bytesearch.find(view, b"needle") == 70_000
            assert _bytesearch.count(view, b"\n") == 11
            assert _bytesearch.find(view, b"needle", 70_001) == -1
            view.release()


@settings(max_examples=300, deadline=None)
@given(
    needle=LONG_NEEDLES,
    pieces=st.lists(
        st.tuples(st.booleans(), st.integers(0, 79), st.binary(max_size=5)), max_size=40
    ),
    start=_BOUND,
    end=_BOUND,
)
def test_a_long_needle_among_near_misses_is_found_where_bytes_find_finds_it(
    needle: bytes, pieces: list[tuple[bool, int, bytes]], start: int | None, end: int | None
) -> None:
    data = planted(needle, pieces)
    lo = 0 if start is None else start
    for buffer in (data, bytearray(data), memoryview(data)):
        assert _bytesearch.find(buffer, needle, lo, end) == data.find(needle, lo, end)


def test_a_padded_row_is_found_past_many_places_of_its_anchor() -> None:
    row = b"000016515072 payload-91198" + b" " * 36
    misses = [row[:40] + b"X" + row[41:] for _ in range(100)]  # anchor intact, row not
    data = b"\n".join([*misses, row, *misses, row])
    assert _bytesearch.find(data, row) == data.find(row) == 100 * 63
    assert _bytesearch.find(data, row, 100 * 63 + 1) == data.find(row, 100 * 63 + 1)
    assert _bytesearch.find(data, row, 0, 100 * 63 + len(row) - 1) == -1
