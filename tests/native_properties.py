"""Properties of each native boundary (docs/native-boundaries.md), each run in a child process by
`test_native_boundaries.py`: a crash in compiled code fails that test and shows its stack.

Each public function here is one property; calling it runs all its examples.
"""

from __future__ import annotations

import contextlib
import gc
import io
import itertools
import math
import mmap
import os
import tempfile
import time
from pathlib import Path

import fast_diff_match_patch
from blake3 import blake3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tree_sitter import Parser

from edittools import _bytesearch
from edittools.diff import _files as diff_files
from edittools.syntax import _trees as trees
from edittools.syntax._errors import faults
from edittools.syntax._languages import grammar
from edittools.syntax._symbols import SYMBOL_LANGUAGES, outline
from sandbox import Digester
from sandbox._digest import PendingDigest

_SETTINGS = settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)
_LANGUAGES = ("python", "c", "json", "ruby", "html", "markdown", "yaml", "bash")
_SOURCE_PIECES = st.sampled_from(
    [b"(", b")", b"{", b"}", b"[", b"]", b'"', b"'", b"\n", b"  ", b"\t", b"\r\n", b"x", b"=",
     b"def f():", b"int x = 1;", b"<!--", b"-->", b"<a>", b"\xc3\xa9", b"\xff", b"\x00", b"#", b":"]
)  # fmt: skip
# Chunks of 4 bytes and more: a character cut at a chunk's end is read again from its start with
# the next chunk, which must hold all of it (UTF-8 takes up to 4 bytes); ours are 64 KiB.
_SOURCES = st.lists(_SOURCE_PIECES, max_size=300).map(b"".join) | st.binary(max_size=2000)


@_SETTINGS
@given(source=_SOURCES, chunk=st.integers(4, 70), language=st.sampled_from(_LANGUAGES))
def tree_sitter_parse_from_chunks(source: bytes, chunk: int, language: str) -> None:
    """A parse read in chunks of any size is the parse of the whole bytes; error messages are cut
    from the source, and stay right after the chunks the parser read are gone."""
    compiled = grammar(language)
    assert compiled is not None
    trees._CHUNK = chunk
    tree = trees.parse(compiled, source, math.inf)
    assert str(tree.root_node) == str(Parser(compiled).parse(source).root_node)
    gc.collect()
    text = source.decode("utf-8", "replace")
    for fault in faults(tree, source):
        assert fault.start_byte <= len(source)
        # An error quotes the source where it starts: the quote is the source's own text.
        if "'" in fault.message and not fault.message.startswith("missing"):
            quoted = fault.message.split("'", 1)[1].rsplit("'", 1)[0].removesuffix("...")
            assert quoted in text, (quoted, text)


@_SETTINGS
@given(
    source=_SOURCES,
    edits=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 20), _SOURCE_PIECES), max_size=5),
    chunk=st.integers(4, 70),
    language=st.sampled_from(_LANGUAGES),
)
def tree_sitter_incremental(
    source: bytes, edits: list[tuple[float, int, bytes]], chunk: int, language: str
) -> None:
    """Re-parsing from an edited tree, again and again, gives the tree a fresh parse gives."""
    compiled = grammar(language)
    assert compiled is not None
    trees._CHUNK = chunk
    tree = trees.parse(compiled, source, math.inf)
    for where, length, text in edits:
        start = int(where * len(source))
        new = source[:start] + text + source[start + length :]
        tree = trees.reparse(compiled, source, tree, new, trees.changed_span(source, new), math.inf)
        assert str(tree.root_node) == str(Parser(compiled).parse(new).root_node)
        faults(tree, new)
        source = new


@_SETTINGS
@given(source=_SOURCES, language=st.sampled_from(_LANGUAGES), after=st.floats(0, 0.002))
def tree_sitter_halted(source: bytes, language: str, after: float) -> None:
    """A parse halted at any moment raises `OutOfTime`, and the next parse is whole."""
    compiled = grammar(language)
    assert compiled is not None
    grown = source * 50
    with contextlib.suppress(trees.OutOfTime):
        trees.parse(compiled, grown, time.monotonic() + after)
    tree = trees.parse(compiled, source, math.inf)
    assert str(tree.root_node) == str(Parser(compiled).parse(source).root_node)


_HAYSTACK = st.lists(
    st.sampled_from([b"a", b"b", b"ab", b" ", b"\n", b"\x00", b"\xff"]), max_size=400
)


@_SETTINGS
@given(
    pieces=_HAYSTACK,
    needle=st.lists(st.sampled_from([b"a", b"b", b" ", b"\n"]), min_size=1, max_size=60),
    bounds=st.tuples(st.integers(-500, 500), st.integers(-500, 500) | st.none()),
    kind=st.sampled_from(["bytes", "bytearray", "memoryview", "sliced view", "mapped"]),
)
def stringzilla_find_count(
    pieces: list[bytes], needle: list[bytes], bounds: tuple[int, int | None], kind: str
) -> None:
    """find and count over every buffer kind we hand in equal `bytes.find` and `bytes.count`."""
    data = b"".join(pieces)
    wanted = b"".join(needle)
    start, end = bounds
    expected_find = data.find(wanted, start, end)
    expected_count = data.count(wanted, start, end)
    with _as_kind(data, kind) as buffer:
        assert _bytesearch.find(buffer, wanted, start, end) == expected_find
        assert _bytesearch.count(buffer, wanted, start, end) == expected_count


class _as_kind:
    """`data` as one of the buffer kinds the search is given (a mapped file through a view)."""

    def __init__(self, data: bytes, kind: str) -> None:
        self.data, self.kind = data, kind
        self.closers: list[object] = []

    def __enter__(self) -> bytes | bytearray | memoryview:
        data, kind = self.data, self.kind
        if kind == "bytes":
            return data
        if kind == "bytearray":
            return bytearray(data)
        if kind == "memoryview":
            return memoryview(bytearray(data))
        if kind == "sliced view":
            padded = memoryview(bytearray(b"zz" + data + b"zz"))
            return padded[2 : 2 + len(data)]
        if not data:
            return data
        file = tempfile.TemporaryFile()
        file.write(data)
        file.flush()
        mapping = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        view = memoryview(mapping)
        self.closers += [view, mapping, file]
        return view

    def __exit__(self, *_: object) -> None:
        for closer in self.closers:
            getattr(closer, "release", getattr(closer, "close", None))()


@_SETTINGS
@given(
    data=st.binary(max_size=5000),
    cuts=st.lists(st.integers(0, 5000), max_size=8),
    big=st.booleans(),
)
def blake3_pieces(data: bytes, cuts: list[int], big: bool) -> None:
    """Pieces of any size, as bytes or views of buffers, on the worker thread or not, hash to the
    digest of the whole."""
    if big:  # over the size hashed on a worker thread
        data = data * (1 + (1 << 20) // max(1, len(data)))
    expected = blake3(data).hexdigest()
    points = sorted({0, len(data), *(c * len(data) // 5000 for c in cuts)})
    pieces = [data[a:b] for a, b in itertools.pairwise(points)]
    digester = Digester()
    for piece in pieces:
        digester.update(memoryview(bytearray(piece)))
    assert digester.hexdigest() == expected
    views = [memoryview(bytearray(piece)) for piece in pieces]
    assert PendingDigest(views).result() == expected


@_SETTINGS
@given(a=st.text(max_size=300), b=st.text(max_size=300))
def fast_dmp_rebuilds(a: str, b: str) -> None:
    """The edit script rebuilds both strings, whatever code points they hold."""
    ops = fast_diff_match_patch.diff(a, b, timelimit=0, checklines=False, cleanup="No")
    i = j = 0
    for op, length in ops:
        if op == "=":
            assert a[i : i + length] == b[j : j + length]
            i, j = i + length, j + length
        elif op == "-":
            i += length
        else:
            j += length
    assert (i, j) == (len(a), len(b))


def _real_images() -> list[bytes]:
    from PIL import Image

    images = []
    for fmt in ("PNG", "GIF", "JPEG"):
        buffer = io.BytesIO()
        Image.new("RGB", (40, 30), (200, 10, 10)).save(buffer, format=fmt)
        images.append(buffer.getvalue())
    return images


@_SETTINGS
@given(
    which=st.integers(0, 2),
    cut=st.floats(0, 1),
    flips=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), max_size=6),
    noise=st.binary(max_size=200),
)
def pillow_damaged_images(
    which: int, cut: float, flips: list[tuple[float, int]], noise: bytes
) -> None:
    """Real images cut short or with bytes changed, and random bytes: an image or None."""
    from edittools.mcp_server._images import ImageLimits, for_model

    data = bytearray(_real_images()[which])
    for where, value in flips:
        data[int(where * (len(data) - 1))] = value
    damaged = bytes(data[: max(1, int(cut * len(data)))])
    small = ImageLimits(max_side=16, max_bytes=10_000)  # scaled: decodes and re-encodes
    for sample in (damaged, noise, bytes(data)):
        outcome = for_model(sample, "image/png", small)
        assert outcome is None or isinstance(outcome[0], bytes)


def mapped_diff_input_truncated() -> None:
    """A file under the mapping size that another process truncates mid-diff is no crash."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "f"
        path.write_bytes(os.urandom(1 << 20))
        with diff_files._mapped(path) as data:
            assert data is not None
            os.truncate(path, 0)
            assert len(bytes(data[-4096:])) == 4096


_SYMBOL_PIECES = st.sampled_from(
    [b"def f():\n", b"class C:\n", b"    ", b"@d\n", b"# c\n", b"fn g() {", b"}", b"impl T {",
     b"func (p *P) M() {", b"function h() {", b"int k(void) {", b"struct S {", b"module M\n",
     b"end\n", b"x() {", b"\n", b"\xc3\xa9", b"\xff", b"\x00", b"(", b")", b"'", b"::"]
)  # fmt: skip


@_SETTINGS
@given(
    source=st.lists(_SYMBOL_PIECES, max_size=200).map(b"".join) | st.binary(max_size=2000),
    language=st.sampled_from(sorted(SYMBOL_LANGUAGES)),
)
def tree_sitter_symbols(source: bytes, language: str) -> None:
    """The definitions found in any bytes, in any language with symbols: spans inside the source
    and in order, names cut from it, and the tree walked after the source it was read from is
    collected (nothing read back through the binding)."""
    found = outline(language, source)
    gc.collect()
    text = source.decode("utf-8", "replace")
    for symbol in found:
        assert 0 <= symbol.start <= symbol.end <= len(source)
        assert 1 <= symbol.first_line <= symbol.last_line + 1
        assert symbol.path.endswith(symbol.name)
        for part in symbol.path.split("."):
            assert part.replace("\ufffd", "") in text.replace("::", ".") or not part


PROPERTIES = [
    "tree_sitter_parse_from_chunks",
    "tree_sitter_symbols",
    "tree_sitter_incremental",
    "tree_sitter_halted",
    "stringzilla_find_count",
    "blake3_pieces",
    "fast_dmp_rebuilds",
    "pillow_damaged_images",
    "mapped_diff_input_truncated",
]
