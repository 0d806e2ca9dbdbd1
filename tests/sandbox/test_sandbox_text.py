"""The encoding corpus: decode -> encode is byte-identical, and a splice touches only its span."""

from __future__ import annotations

import codecs

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from sandbox import SandboxError, TextDocument, decode

LINES = ["first line", "second: café – naïve", "third ünïcödé line", "last"]
JP = ["日本語のテキストです。", "二行目：こんにちは世界", "三行目", "最後"]

# name -> (bytes, expected encoding, bom, newline, mixed, final_newline)
CORPUS: dict[str, tuple[bytes, str, bytes, str, bool, bool]] = {
    "utf-8": ("\n".join(LINES).encode() + b"\n", "utf-8", b"", "\n", False, True),
    "utf-8 bom": (
        codecs.BOM_UTF8 + "\n".join(LINES).encode() + b"\n",
        "utf-8",
        codecs.BOM_UTF8,
        "\n",
        False,
        True,
    ),
    "utf-16 le bom": (
        codecs.BOM_UTF16_LE + "\r\n".join(LINES).encode("utf-16-le") + "\r\n".encode("utf-16-le"),
        "utf-16-le",
        codecs.BOM_UTF16_LE,
        "\r\n",
        False,
        True,
    ),
    "utf-16 be bom": (
        codecs.BOM_UTF16_BE + "\n".join(LINES).encode("utf-16-be"),
        "utf-16-be",
        codecs.BOM_UTF16_BE,
        "\n",
        False,
        False,
    ),
    "utf-32 le bom": (
        codecs.BOM_UTF32_LE + "\n".join(LINES).encode("utf-32-le") + "\n".encode("utf-32-le"),
        "utf-32-le",
        codecs.BOM_UTF32_LE,
        "\n",
        False,
        True,
    ),
    "cp1252": (
        "\r\n".join([*LINES, "price: 10€ — “quoted” façade"]).encode("cp1252") + b"\r\n",
        "cp1252",
        b"",
        "\r\n",
        False,
        True,
    ),
    "shift-jis": ("\n".join(JP).encode("shift_jis") + b"\n", "shift_jis", b"", "\n", False, True),
    "crlf": (b"a\r\nb\r\nc\r\n", "utf-8", b"", "\r\n", False, True),
    "lone cr": (b"a\rb\rc\r", "utf-8", b"", "\r", False, True),
    "mixed": (b"a\r\nb\r\nc\nd\re\r\n", "utf-8", b"", "\r\n", True, True),
    "no final newline": (b"a\nb\nc", "utf-8", b"", "\n", False, False),
    "empty": (b"", "utf-8", b"", "\n", False, False),
    "single line": (b"only", "utf-8", b"", "\n", False, False),
}


@pytest.mark.parametrize("name", list(CORPUS))
def test_decode_detects_and_encode_gives_the_exact_bytes(name: str) -> None:
    data, encoding, bom, newline, mixed, final = CORPUS[name]
    doc = decode(data)
    assert (doc.encoding, doc.bom, doc.newline, doc.mixed, doc.final_newline) == (
        encoding,
        bom,
        newline,
        mixed,
        final,
    )
    assert doc.encode() == data
    assert "\ufffd" not in doc.text


def _line_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line's content, newline excluded; split on \\r\\n, \\r and \\n."""
    spans, start, i = [], 0, 0
    while i < len(text):
        if text[i] in "\r\n":
            spans.append((start, i))
            i += 2 if text.startswith("\r\n", i) else 1
            start = i
        else:
            i += 1
    if start < len(text):
        spans.append((start, len(text)))
    return spans


@pytest.mark.parametrize("name", [n for n in CORPUS if CORPUS[n][0]])
def test_one_line_splice_changes_only_that_lines_bytes(name: str) -> None:
    data = CORPUS[name][0]
    doc = decode(data)
    spans = _line_spans(doc.text)
    start, end = spans[len(spans) // 2]
    new = doc.splice(start, end, "XY").encode()
    old_line = doc.text[start:end].encode(doc.encoding)
    prefix = doc.bom + doc.text[:start].encode(doc.encoding)
    suffix = doc.text[end:].encode(doc.encoding)
    assert data == prefix + old_line + suffix
    assert new == prefix + "XY".encode(doc.encoding) + suffix


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"a\r\nb\r\n", b"a\r\nX\r\nY\r\nb\r\n"),
        (b"a\rb\r", b"a\rX\rY\rb\r"),
        (b"a\nb\n", b"a\nX\nY\nb\n"),
    ],
)
def test_inserted_lines_take_the_dominant_newline(data: bytes, expected: bytes) -> None:
    doc = decode(data)
    at = doc.text.index("b")
    assert doc.splice(at, at, "X\nY\n").encode() == expected


def test_explicit_crlf_in_a_replacement_is_kept() -> None:
    doc = decode(b"a\nb\n")
    assert doc.splice(0, 1, "x\r\ny").encode() == b"x\r\ny\nb\n"


def test_mixed_file_keeps_each_untouched_lines_ending() -> None:
    doc = decode(b"one\r\ntwo\nthree\r\nfour\r\n")
    at = doc.text.index("three")
    out = doc.splice(at, at + 5, "3").encode()
    assert out == b"one\r\ntwo\n3\r\nfour\r\n"


def test_with_text_keeps_encoding_bom_and_style() -> None:
    doc = decode(codecs.BOM_UTF16_LE + "a\r\nb\r\n".encode("utf-16-le"))
    out = doc.with_text("x\ny\n")
    assert out.encode() == codecs.BOM_UTF16_LE + "x\r\ny\r\n".encode("utf-16-le")
    kept = doc.with_text("p\rq\n")  # already has \r newlines: kept as given
    assert kept.text == "p\rq\n"


def test_new_document_is_utf8_without_bom() -> None:
    doc = TextDocument.new("a\r\nb\r\n")
    assert (doc.encoding, doc.bom, doc.newline, doc.final_newline) == ("utf-8", b"", "\r\n", True)
    assert doc.encode() == b"a\r\nb\r\n"
    assert TextDocument.new("").newline == "\n"


def test_unencodable_replacement_is_refused() -> None:
    doc = decode("café\n".encode("cp1252"))
    assert doc.encoding == "cp1252"
    with pytest.raises(SandboxError) as info:
        doc.splice(0, 0, "日本")
    assert info.value.code == "unencodable"
    with pytest.raises(SandboxError) as info:
        doc.with_text("→")
    assert info.value.code == "unencodable"


@pytest.mark.parametrize(
    "data",
    [
        b"\x00\x01\x02binary",
        b"PK\x03\x04" + b"\x00" * 20,
        "no bom utf-16".encode("utf-16-le"),
        b"text then NUL \x00",
    ],
)
def test_binary_is_refused(data: bytes) -> None:
    with pytest.raises(SandboxError) as info:
        decode(data)
    assert info.value.code == "binary"


@pytest.mark.parametrize(
    "data",
    [
        codecs.BOM_UTF8 + b"\xff\xfe bad utf-8",
        codecs.BOM_UTF16_LE + b"\x00",  # odd length
        codecs.BOM_UTF16_BE + b"\xd8\x00\x00\x41",  # lone surrogate
    ],
)
def test_broken_bom_files_are_undecodable(data: bytes) -> None:
    with pytest.raises(SandboxError) as info:
        decode(data)
    assert info.value.code == "undecodable"


def test_nul_after_the_probe_window_is_not_binary_but_still_round_trips() -> None:
    data = b"x" * 8000 + b"\x00tail\n"
    assert decode(data).encode() == data


@given(
    text=st.text(st.characters(blacklist_categories=("Cs",))),
    bom_encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-32"]),
)
@example(text="\x00", bom_encoding="utf-16")
def test_any_unicode_round_trips_through_a_bom(text: str, bom_encoding: str) -> None:
    data = text.encode(bom_encoding)
    if bom_encoding == "utf-8" and "\x00" in text[:8000]:
        return  # BOM-less text with NUL is binary by definition
    doc = decode(data)
    assert doc.encode() == data
    if data.startswith(b"\xff\xfe\x00\x00") and bom_encoding == "utf-16":
        # UTF-16 LE text starting with U+0000 has the bytes of a UTF-32 LE BOM: the longer BOM
        # wins when the rest reads as UTF-32. Either reading gives the bytes back exactly.
        assert doc.encoding in ("utf-32-le", "utf-16-le")
        return
    assert doc.text == text or doc.text == text.lstrip("\ufeff")


@given(data=st.binary(max_size=300))
def test_arbitrary_bytes_round_trip_or_are_refused(data: bytes) -> None:
    try:
        doc = decode(data)
    except SandboxError as exc:
        assert exc.code in ("binary", "undecodable")
        return
    assert doc.encode() == data


@given(
    lines=st.lists(
        st.text(
            st.characters(blacklist_characters="\r\n\x00", blacklist_categories=("Cs",)),
            max_size=20,
        ),
        max_size=8,
    ),
    endings=st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=8, max_size=8),
    final=st.booleans(),
    index=st.integers(min_value=0, max_value=7),
    replacement=st.text(
        st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)), max_size=10
    ),
)
def test_splicing_one_line_keeps_every_other_byte(
    lines: list[str], endings: list[str], final: bool, index: int, replacement: str
) -> None:
    text = "".join(line + ending for line, ending in zip(lines, endings, strict=False))
    if not final and lines:
        text = text[: -len(endings[len(lines) - 1])]
    data = text.encode("utf-8")
    doc = decode(data)
    assert doc.encode() == data
    spans = _line_spans(doc.text)
    if not spans:
        return
    start, end = spans[index % len(spans)]
    new = doc.splice(start, end, replacement).encode()
    assert (
        new
        == data[: len(text[:start].encode())]
        + replacement.encode()
        + data[len(text[:end].encode()) :]
    )


@given(
    st.text(alphabet="ab\r\n", max_size=40),
    st.integers(0, 40),
    st.integers(0, 40),
    st.text(alphabet="xy\r\n", max_size=10),
)
def test_splice_newline_bookkeeping_equals_a_fresh_analysis(
    text: str, a: int, b: int, replacement: str
) -> None:
    """The newline style a splice derives from the changed span equals rescanning the new text."""
    start, end = sorted((min(a, len(text)), min(b, len(text))))
    spliced = TextDocument.new(text).splice(start, end, replacement)
    fresh = TextDocument.new(spliced.text)
    assert (spliced.newline, spliced.mixed, spliced.final_newline) == (
        fresh.newline,
        fresh.mixed,
        fresh.final_newline,
    )
    assert spliced._counts == fresh._counts
