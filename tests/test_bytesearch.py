"""`edittools._bytesearch`: the SIMD find and count answer exactly as `bytes.find`/`bytes.count`."""

from __future__ import annotations

import mmap
import tempfile

from hypothesis import given, settings
from hypothesis import strategies as st

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
