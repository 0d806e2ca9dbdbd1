"""The streamed passes: `scan` (matches, their lines, the old and new digests, the new content
told to a writer) and `hash_counting` (a version, a line number and a replaced digest)."""

from __future__ import annotations

import os
import tempfile

from hypothesis import given, settings
from hypothesis import strategies as st

from edittools.tools._scan import hash_counting, scan
from sandbox import FileWrite, Sandbox, digest_of

_TEXT = st.binary(max_size=400).map(lambda b: bytes(b"ab\n"[x % 3] for x in b))


def _occurrences(data: bytes, needle: bytes) -> list[int]:
    """Where `bytes.replace` replaces: left to right, not overlapping."""
    found, at = [], data.find(needle)
    while at >= 0:
        found.append(at)
        at = data.find(needle, at + len(needle))
    return found


@settings(max_examples=300, deadline=None)
@given(
    data=_TEXT,
    needle=_TEXT.filter(lambda n: 0 < len(n) <= 6),
    replacement=st.binary(max_size=8),
    chunk=st.integers(1, 40),
    replace_all=st.booleans(),
)
def test_a_pass_finds_and_writes_what_bytes_replace_does(
    data: bytes, needle: bytes, replacement: bytes, chunk: int, replace_all: bool
) -> None:
    """Matches across every chunk border, their true lines, both digests, and the new file the
    writer made while the pass read (committed, then compared with `bytes.replace`)."""
    where = _occurrences(data, needle)
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "f.txt"), "wb") as fh:
            fh.write(data)
        with Sandbox(folder) as sb:
            version = sb.version("f.txt")
            with sb.splice_writer("f.txt") as writer:
                found = scan(writer.fileno(), needle, replacement, replace_all=replace_all,
                             chunk=chunk, writer=writer)  # fmt: skip
                assert found.count == len(where)
                assert found.starts == (where if replace_all else where[:50])
                assert found.lines == [data.count(b"\n", 0, at) + 1 for at in found.starts]
                assert found.version is not None and found.version.digest == digest_of(data)
                want = None
                if where and (replace_all or len(where) == 1):
                    want = data.replace(needle, replacement, -1 if replace_all else 1)
                    staged = writer.finish(len(data), digest_of(want))
                    sb.commit_files([FileWrite("f.txt", staged, version)])  # type: ignore[arg-type]
                assert found.new_digest == (None if want is None else digest_of(want))
        with open(os.path.join(folder, "f.txt"), "rb") as fh:
            assert fh.read() == (data if want is None else want)


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
