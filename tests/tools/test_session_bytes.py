"""Byte-level: encodings, BOMs, newline styles and final newlines survive edits outside the span."""

from __future__ import annotations

import codecs
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edittools import Session

# (name, encoding of the text, BOM, the file's text with its own newlines)
FILES = {
    "lf": ("utf-8", b"", "one\ntwo\nthree\n"),
    "crlf": ("utf-8", b"", "one\r\ntwo\r\nthree\r\n"),
    "cr": ("utf-8", b"", "one\rtwo\rthree\r"),
    "mixed": ("utf-8", b"", "one\r\ntwo\nthree\r\nfour\r\n"),
    "no_final_newline": ("utf-8", b"", "one\ntwo\nthree"),
    "crlf_no_final_newline": ("utf-8", b"", "one\r\ntwo\r\nthree"),
    "utf8_bom": ("utf-8", codecs.BOM_UTF8, "one\r\ntwo\r\nthree\r\n"),
    "utf16_le": ("utf-16-le", codecs.BOM_UTF16_LE, "one\r\ntwo ü\r\nthree\r\n"),
    "utf16_be": ("utf-16-be", codecs.BOM_UTF16_BE, "one\ntwo ü\nthree\n"),
    "cp1252": ("cp1252", b"", "caf\u00e9 one\r\ntwo \u20ac\r\nthree cr\u00e8me\r\n"),
    "shift_jis": (
        "shift_jis",
        b"",
        "\u3042\u3044 one\ntwo \u65e5\u672c\u8a9e\u3067\u3059\nthree\n",
    ),
    "trailing_spaces_tabs": ("utf-8", b"", "one  \n\ttwo\t\nthree \t\n"),
}


def encoded(name: str, text: str) -> bytes:
    encoding, _, _ = FILES[name]
    return text.encode(encoding)


def file_bytes(name: str) -> bytes:
    encoding, bom, text = FILES[name]
    return bom + text.encode(encoding)


def newline_of(name: str) -> str:
    text = FILES[name][2]
    return (
        "\r\n" if text.count("\r\n") * 2 > text.count("\n") else "\r" if "\n" not in text else "\n"
    )


def split_around(data: bytes, piece: bytes) -> tuple[bytes, bytes]:
    """The bytes before and after the one occurrence of `piece` in `data`."""
    assert data.count(piece) == 1
    start = data.index(piece)
    return data[:start], data[start + len(piece) :]


@pytest.fixture
def session_options() -> dict[str, Any]:
    return {"require_read": False}


@pytest.mark.parametrize("name", FILES)
def test_edit_inside_a_line_leaves_every_other_byte(session: Session, name: str) -> None:
    path = session.sandbox.root / f"{name}.txt"
    before = file_bytes(name)
    path.write_bytes(before)
    result = session.edit(path.name, "two", "TWO-2")
    assert not result.is_error, result.value
    assert result.artifact.payload.match == "exact"  # type: ignore[union-attr]
    head, tail = split_around(before, encoded(name, "two"))
    assert path.read_bytes() == head + encoded(name, "TWO-2") + tail


@pytest.mark.parametrize("name", FILES)
def test_new_lines_take_the_files_newline_style(session: Session, name: str) -> None:
    path = session.sandbox.root / f"{name}.txt"
    before = file_bytes(name)
    path.write_bytes(before)
    # The model sends LF; the spliced text must carry the file's dominant newline.
    result = session.edit(path.name, "two", "two\nand a half")
    assert not result.is_error, result.value
    head, tail = split_around(before, encoded(name, "two"))
    nl = newline_of(name)
    assert path.read_bytes() == head + encoded(name, f"two{nl}and a half") + tail


@pytest.mark.parametrize("name", ["crlf", "mixed", "utf8_bom", "utf16_le", "cp1252"])
def test_lf_old_string_spanning_lines_matches_crlf_text(session: Session, name: str) -> None:
    path = session.sandbox.root / f"{name}.txt"
    before = file_bytes(name)
    path.write_bytes(before)
    text = FILES[name][2]
    first, second = text.splitlines(keepends=True)[0:2]
    old = first.rstrip("\r\n") + "\n" + second.rstrip("\r\n")
    result = session.edit(path.name, old, "X\nY")
    assert not result.is_error, result.value
    assert result.artifact.payload.match == "newlines"  # type: ignore[union-attr]
    # Only the old span changed; the newline between the replacement lines is the file's style.
    old_span = first + second.rstrip("\r\n")
    head, tail = split_around(before, encoded(name, old_span))
    ending = first[len(first.rstrip("\r\n")) :]
    assert path.read_bytes() == head + encoded(name, f"X{ending}Y") + tail


def test_mixed_endings_keep_each_untouched_lines_own_ending(session: Session) -> None:
    path = session.sandbox.root / "mixed.txt"
    path.write_bytes(b"a\r\nb\nc\r\nd\ne\r\n")
    assert not session.edit("mixed.txt", "c", "C1\nC2").is_error
    # Dominant style is CRLF (3 of 5); the b and d lines keep their LF.
    assert path.read_bytes() == b"a\r\nb\nC1\r\nC2\r\nd\ne\r\n"


@pytest.mark.parametrize("name", ["no_final_newline", "crlf_no_final_newline"])
def test_editing_the_last_line_adds_no_final_newline(session: Session, name: str) -> None:
    path = session.sandbox.root / "f.txt"
    before = file_bytes(name)
    path.write_bytes(before)
    assert not session.edit("f.txt", "three", "THREE").is_error
    assert path.read_bytes() == before[: -len(b"three")] + b"THREE"


@pytest.mark.parametrize("name", FILES)
def test_multi_edit_and_undo_are_byte_exact(session: Session, name: str) -> None:
    path = session.sandbox.root / f"{name}.txt"
    before = file_bytes(name)
    path.write_bytes(before)
    edits = [{"old_string": "one", "new_string": "1"}, {"old_string": "three", "new_string": "3"}]
    result = session.multi_edit(path.name, edits)
    assert not result.is_error, result.value
    expected = before.replace(encoded(name, "one"), encoded(name, "1"))
    expected = expected.replace(encoded(name, "three"), encoded(name, "3"))
    assert path.read_bytes() == expected
    assert not session.undo(path.name).is_error
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "name", ["crlf", "utf8_bom", "utf16_le", "utf16_be", "cp1252", "shift_jis"]
)
def test_apply_patch_keeps_encoding_and_endings(session: Session, name: str) -> None:
    path = session.sandbox.root / f"{name}.txt"
    before = file_bytes(name)
    path.write_bytes(before)
    lines = FILES[name][2].splitlines()
    patch = (
        f"*** Begin Patch\n*** Update File: {path.name}\n@@\n {lines[0]}\n-{lines[1]}\n"
        f"+{lines[1]} patched\n {lines[2]}\n*** End Patch\n"
    )
    result = session.apply_patch(patch)
    assert not result.is_error, result.value
    head, tail = split_around(before, encoded(name, lines[1]))
    assert path.read_bytes() == head + encoded(name, lines[1] + " patched") + tail


def test_apply_patch_on_mixed_endings_keeps_untouched_lines(session: Session) -> None:
    path = session.sandbox.root / "mixed.txt"
    path.write_bytes(b"one\r\ntwo\nthree\r\nfour\r\n")
    patch = (
        "*** Begin Patch\n*** Update File: mixed.txt\n@@\n one\n-two\n+2\n three\n*** End Patch\n"
    )
    assert not session.apply_patch(patch).is_error
    # The replaced line is a new line and takes the dominant CRLF; the others keep their own.
    assert path.read_bytes() == b"one\r\n2\r\nthree\r\nfour\r\n"


@pytest.mark.parametrize("name", FILES)
def test_write_keeps_bom_encoding_and_newline_style(session: Session, name: str) -> None:
    path = session.sandbox.root / f"{name}.txt"
    path.write_bytes(file_bytes(name))
    encoding, bom, _ = FILES[name]
    result = session.write(path.name, "first\nsecond line\n")
    assert not result.is_error, result.value
    nl = newline_of(name)
    assert path.read_bytes() == bom + f"first{nl}second line{nl}".encode(encoding)


def test_write_with_explicit_crlf_content_is_kept_as_given(session: Session) -> None:
    path = session.sandbox.root / "f.txt"
    path.write_bytes(b"a\nb\n")
    assert not session.write("f.txt", "x\r\ny\r\n").is_error
    assert path.read_bytes() == b"x\r\ny\r\n"


def test_created_files_are_utf8_without_bom(session: Session) -> None:
    assert not session.write("new.txt", "caf\u00e9\n").is_error
    assert (session.sandbox.root / "new.txt").read_bytes() == "caf\u00e9\n".encode()


def test_dollar_and_backslashes_are_literal(session: Session) -> None:
    path = session.sandbox.root / "r.py"
    path.write_bytes(b"pattern = 'x'\n")
    new = r"pattern = r'\1 \g<0> $1 $& \\n \t'"
    assert not session.edit("r.py", "pattern = 'x'", new).is_error
    assert path.read_bytes() == new.encode() + b"\n"


_STYLES = st.sampled_from(["\n", "\r\n", "\r"])
_LINE = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\x00"),
    min_size=1,
    max_size=12,
)
_ENCODINGS = st.sampled_from(
    [("utf-8", b""), ("utf-8", codecs.BOM_UTF8), ("utf-16-le", codecs.BOM_UTF16_LE)]
)


@settings(max_examples=40, deadline=None)
@given(
    lines=st.lists(st.tuples(_LINE, _STYLES), min_size=2, max_size=8),
    final=st.booleans(),
    enc=_ENCODINGS,
    index=st.integers(min_value=0),
    replacement=_LINE,
)
def test_any_file_edit_changes_only_its_span(
    lines: list[tuple[str, str]],
    final: bool,
    enc: tuple[str, bytes],
    index: int,
    replacement: str,
) -> None:
    encoding, bom = enc
    # A unique marker line to edit, so the match is exact and single.
    index %= len(lines)
    marker = "\u2603MARK\u2603"
    parts = [marker if i == index else text for i, (text, _) in enumerate(lines)]
    text = "".join(p + nl for p, (_, nl) in zip(parts, lines, strict=True))
    if not final:
        text = text[: -len(lines[-1][1])]
    before = bom + text.encode(encoding)
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "f.txt").write_bytes(before)
        with Session(tmp, require_read=False) as s:
            result = s.edit("f.txt", marker, replacement)
            after = Path(tmp, "f.txt").read_bytes()
            if marker in replacement:
                assert result.is_error
                return
            assert not result.is_error, result.value
            head, tail = split_around(before, marker.encode(encoding))
            assert after == head + replacement.encode(encoding) + tail
            assert not s.undo("f.txt").is_error
            assert Path(tmp, "f.txt").read_bytes() == before
