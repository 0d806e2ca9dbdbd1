"""The streamed passes: `scan` (matches, their lines, the old and new digests, the new content
told to a writer) and `hash_counting` (a version, a line number and a replaced digest)."""

from __future__ import annotations

import itertools
import os
import tempfile

from hypothesis import given, settings
from hypothesis import strategies as st
from needles import LONG_NEEDLES, planted

from edittools.change._streamed.scan import find_lines, hash_counting, scan
from sandbox import FileWrite, Sandbox, digest_of

_TEXT = st.binary(max_size=400).map(lambda b: bytes(b"ab\n"[x % 3] for x in b))


def _occurrences(data: bytes, needle: bytes) -> list[int]:
    """Every place of `needle`, overlapping ones too (where `bytes.replace` replaces, when none
    overlap)."""
    found, at = [], data.find(needle)
    while at >= 0:
        found.append(at)
        at = data.find(needle, at + 1)
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
    _check_pass(data, needle, replacement, chunk, replace_all)


# Long needles (found by an anchor first) among near misses: copies with one byte changed.
_FILLER = _TEXT.map(lambda text: text[:20])


@settings(max_examples=150, deadline=None)
@given(
    needle=LONG_NEEDLES,
    pieces=st.lists(st.tuples(st.booleans(), st.integers(0, 79), _FILLER), max_size=12),
    replacement=st.binary(max_size=8),
    chunk=st.integers(1, 90),
    replace_all=st.booleans(),
)
def test_a_pass_with_a_long_needle_finds_and_writes_what_bytes_replace_does(
    needle: bytes,
    pieces: list[tuple[bool, int, bytes]],
    replacement: bytes,
    chunk: int,
    replace_all: bool,
) -> None:
    _check_pass(planted(needle, pieces), needle, replacement, chunk, replace_all)


def _check_pass(
    data: bytes, needle: bytes, replacement: bytes, chunk: int, replace_all: bool
) -> None:
    where = _occurrences(data, needle)
    overlapping = any(b < a + len(needle) for a, b in itertools.pairwise(where))
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
                assert found.overlapping == overlapping
                want = None
                if where and not overlapping and (replace_all or len(where) == 1):
                    want = data.replace(needle, replacement, -1 if replace_all else 1)
                    staged = writer.finish(len(data), digest_of(want))
                    sb.commit_files([FileWrite("f.txt", staged, version)])  # type: ignore[arg-type]
                assert found.new_digest == (None if want is None else digest_of(want))
        with open(os.path.join(folder, "f.txt"), "rb") as fh:
            assert fh.read() == (data if want is None else want)


@settings(max_examples=300, deadline=None)
@given(
    data=st.binary(max_size=300).map(lambda b: bytes(b"ab\n"[x % 3] for x in b)),
    cuts=st.lists(st.integers(0, 300), max_size=8),
    replacements=st.lists(st.binary(max_size=20), min_size=4, max_size=4),
    chunk=st.integers(1, 64),
)
def test_the_replaced_digest_is_the_digest_of_the_replaced_bytes(
    data: bytes, cuts: list[int], replacements: list[bytes], chunk: int
) -> None:
    """Several spans (empty ones, ones across chunks, at the very end, kept bytes between and
    after them) and their lines."""
    # Cuts spread over the whole file (a cut past its end would pile up there, leaving the
    # bytes after the last span untested).
    points = sorted(x % (len(data) + 1) for x in cuts)
    spans = [
        (a, b, replacements[k % 4])
        for k, (a, b) in enumerate(zip(points[::2], points[1::2], strict=False))
    ]
    with tempfile.TemporaryFile() as fh:
        fh.write(data)
        fh.flush()
        version, lines, replaced = hash_counting(fh.fileno(), spans, chunk=chunk)
    want, at = b"", 0
    for start, stop, new in spans:
        want, at = want + data[at:start] + new, stop
    assert version.digest == digest_of(data) and version.size == len(data)
    assert lines == [data.count(b"\n", 0, start) + 1 for start, _, _ in spans]
    assert replaced == digest_of(want + data[at:])


@settings(max_examples=300, deadline=None)
@given(
    data=_TEXT,
    needles=st.lists(_TEXT.filter(lambda n: 0 < len(n) <= 7), min_size=1, max_size=3),
    chunk=st.integers(1, 40),
    anywhere=st.booleans(),
)
def test_find_lines_finds_every_place_and_its_line_across_chunk_borders(
    data: bytes, needles: list[bytes], chunk: int, anywhere: bool
) -> None:
    """Each needle's places (overlapping ones too), at a line's start unless `anywhere`, with
    the line each is on: what a search of the whole bytes gives, whatever the chunk size."""
    _check_find_lines(data, needles, chunk, anywhere)


@settings(max_examples=150, deadline=None)
@given(
    needle=LONG_NEEDLES,
    pieces=st.lists(st.tuples(st.booleans(), st.integers(0, 79), _FILLER), max_size=10),
    chunk=st.integers(1, 90),
    anywhere=st.booleans(),
)
def test_find_lines_finds_a_long_line_among_near_misses(
    needle: bytes, pieces: list[tuple[bool, int, bytes]], chunk: int, anywhere: bool
) -> None:
    """Patch lines are mostly longer than the search's anchor: the places of a long needle,
    overlapping ones too, among copies of it with one byte changed."""
    _check_find_lines(
        planted(needle, pieces), [needle, needle[: len(needle) // 2]], chunk, anywhere
    )


def _check_find_lines(data: bytes, needles: list[bytes], chunk: int, anywhere: bool) -> None:
    with tempfile.TemporaryFile() as fh:
        fh.write(data)
        fh.flush()
        found = find_lines(fh.fileno(), needles, chunk=chunk, anywhere=anywhere)
    for needle, places in zip(needles, found, strict=True):
        want = [
            (at, data.count(b"\n", 0, at) + 1)
            for at in range(len(data))
            if data.startswith(needle, at) and (anywhere or at == 0 or data[at - 1] == 10)
        ]
        assert places == want
