"""hash_counting: a file's version, a line number and a replaced content's digest in one pass."""

from __future__ import annotations

import os
import tempfile

from hypothesis import given
from hypothesis import strategies as st

from edittools.tools._scan import hash_counting
from sandbox import digest_of


@given(
    data=st.binary(max_size=300),
    cut=st.tuples(st.integers(0, 300), st.integers(0, 300)),
    replacement=st.binary(max_size=20),
    chunk=st.integers(1, 64),
)
def test_the_replaced_digest_is_the_digest_of_the_replaced_bytes(
    data: bytes, cut: tuple[int, int], replacement: bytes, chunk: int
) -> None:
    start, end = sorted(min(x, len(data)) for x in cut)
    with tempfile.TemporaryFile() as fh:
        fh.write(data)
        fh.flush()
        version, line, replaced = hash_counting(
            fh.fileno(), start, chunk=chunk, replace=(start, end, replacement)
        )
    assert version.digest == digest_of(data) and version.size == len(data)
    assert line == data.count(b"\n", 0, start) + 1
    assert replaced == digest_of(data[:start] + replacement + data[end:])


def test_without_a_replacement_there_is_no_second_digest() -> None:
    with tempfile.TemporaryFile() as fh:
        fh.write(b"a\nb\n")
        fh.flush()
        os.fsync(fh.fileno())
        version, line, replaced = hash_counting(fh.fileno(), 2, chunk=3)
    assert (version.digest, line, replaced) == (digest_of(b"a\nb\n"), 2, None)
