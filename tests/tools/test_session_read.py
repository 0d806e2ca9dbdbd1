"""The read tool: `cat -n` numbering, windows and footers, cut lines, empty files and images."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from edittools import Session
from edittools.change._numbering import numbered

# Tiny real images (3x2 pixels, made once with an image library and kept as bytes).
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000030000000208020000001216f14d0000001549444154789c"
    "633c2127c7c0c0c0c0c0c0c4000300132e01086ac065610000000049454e44ae426082"
)
GIF = bytes.fromhex(
    "47494638376103000200810000c81e1e0000000000000000002c00000000030002000008060001081c1810003b"
)
WEBP = bytes.fromhex("524946461e000000574542505650384c110000002f0240000007508f22d7a3ff8188e87f0000")
JPEG = bytes.fromhex(
    "ffd8ffe000104a46494600010100000100010000ffdb004300100b0c0e0c0a100e0d0e1211101318281a18"
    "1616183123251d283a333d3c3933383740485c4e404457453738506d51575f626768673e4d71797064785c"
    "656763ffdb0043011112121815182f1a1a2f634238426363636363636363636363636363636363636363"
    "636363636363636363636363636363636363636363636363636363636363ffc000110800020003030122"
    "00021101031101ffc4001f0000010501010101010100000000000000000102030405060708090a0bffc4"
    "00b5100002010303020403050504040000017d01020300041105122131410613516107227114328191a1"
    "082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748494a"
    "535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2"
    "a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7"
    "e8e9eaf1f2f3f4f5f6f7f8f9faffc4001f0100030101010101010101010000000000000102030405060708"
    "090a0bffc400b51100020102040403040705040400010277000102031104052131061241510761711322"
    "328108144291a1b1c109233352f0156272d10a162434e125f11718191a262728292a35363738393a4344"
    "45464748494a535455565758595a636465666768696a737475767778797a82838485868788898a929394"
    "95969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9da"
    "e2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9faffda000c03010002110311003f00c7a28a2b84fa83ffd9"
)


def put(session: Session, name: str, data: bytes) -> None:
    path = session.sandbox.root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def test_lines_are_numbered_like_cat_n(session: Session) -> None:
    put(session, "a.py", b"import os\n\n    indented\tx\n")
    result = session.read("a.py")
    assert not result.is_error
    assert result.value == "     1\timport os\n     2\t\n     3\t    indented\tx"
    payload = result.artifact.payload  # type: ignore[union-attr]
    assert result.artifact.kind == "code"  # type: ignore[union-attr]
    assert payload.text == "import os\n\n    indented\tx\n"
    assert (payload.lang, payload.filename) == ("python", "a.py")
    assert (payload.start_line, payload.end_line, payload.total_lines) == (1, 3, 3)
    assert payload.truncated is False


def test_crlf_lines_show_without_carriage_returns(session: Session) -> None:
    put(session, "w.txt", b"a\r\nb\r\n")
    assert session.read("w.txt").value == "     1\ta\n     2\tb"


def test_numbers_widen_past_six_digits(session: Session) -> None:
    put(session, "n.txt", b"x\n" * 1_000_005)
    value = session.read("n.txt", offset=1_000_004, limit=2).value
    assert value.splitlines()[:2] == ["1000004\tx", "1000005\tx"]


def test_window_and_footer_say_how_to_read_more(session: Session) -> None:
    put(session, "long.txt", "".join(f"line {n}\n" for n in range(1, 101)).encode())
    result = session.read("long.txt", offset=10, limit=5)
    lines = result.value.splitlines()
    assert lines[:5] == [f"{n:>6}\tline {n}" for n in range(10, 15)]
    assert "[Showing lines 10-14 of 100. Use offset=15 to read more.]" in result.value
    payload = result.artifact.payload  # type: ignore[union-attr]
    assert (payload.start_line, payload.end_line, payload.total_lines) == (10, 14, 100)
    assert payload.text == "".join(f"line {n}\n" for n in range(10, 15))
    assert payload.truncated is True
    tail = session.read("long.txt", offset=98)
    assert tail.value.endswith("[Showing lines 98-100 of 100; end of file.]")
    whole = session.read("long.txt")
    assert "Showing" not in whole.value


def test_the_session_line_limit_caps_the_window(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("x\n" * 50)
    with Session(tmp_path, read_line_limit=20) as s:
        result = s.read("f.txt", limit=1000)
    assert result.artifact.payload.end_line == 20  # type: ignore[union-attr]
    assert "Use offset=21" in result.value


def test_long_lines_are_cut_with_a_marker(session: Session) -> None:
    put(session, "wide.txt", b"a" * 2500 + b"\nshort\n")
    first, second = session.read("wide.txt").value.splitlines()[:2]
    assert first.startswith("     1\t" + "a" * 2000)
    assert "a" * 2001 not in first
    assert re.search(r"line cut: 500 more characters", first)
    assert second == "     2\tshort"
    # The artifact keeps the raw text: UIs show the whole line.
    assert session.read("wide.txt").artifact.payload.text.startswith("a" * 2500)  # type: ignore[union-attr]


def test_no_final_newline_and_blank_last_line(session: Session) -> None:
    put(session, "n.txt", b"a\nb")
    assert session.read("n.txt").artifact.payload.total_lines == 2  # type: ignore[union-attr]
    put(session, "m.txt", b"a\n\n")
    assert session.read("m.txt").value == "     1\ta\n     2\t"


def test_empty_file_is_not_an_error_and_counts_as_read(session: Session) -> None:
    put(session, "empty.txt", b"")
    result = session.read("empty.txt")
    assert not result.is_error
    assert "empty" in result.value and "0 lines" in result.value
    assert result.artifact.payload.total_lines == 0  # type: ignore[union-attr]
    written = session.write("empty.txt", "now\n")
    assert not written.is_error, written.value


def test_a_read_allows_the_next_change(session: Session) -> None:
    put(session, "a.txt", b"a\n")
    assert session.edit("a.txt", "a", "b").is_error
    session.read("a.txt", offset=1, limit=1)
    assert not session.edit("a.txt", "a", "b").is_error


@pytest.mark.parametrize(
    ("name", "lang"),
    [("x.py", "python"), ("x.ts", "typescript"), ("Makefile", "make"), ("x.RS", "rust"),
     ("notes", None), ("dir.d/x.toml", "toml")],
)  # fmt: skip
def test_language_is_guessed_from_the_name(session: Session, name: str, lang: str | None) -> None:
    put(session, name, b"x\n")
    assert session.read(name).artifact.payload.lang == lang  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("name", "data", "mime"),
    [("i.png", PNG, "image/png"), ("i.jpg", JPEG, "image/jpeg"), ("i.gif", GIF, "image/gif"),
     ("i.webp", WEBP, "image/webp"), ("no_suffix", PNG, "image/png")],
)  # fmt: skip
def test_images_are_attachments(session: Session, name: str, data: bytes, mime: str) -> None:
    put(session, f"img/{name}", data)
    result = session.read(f"img/{name}")
    assert not result.is_error, result.value
    artifact = result.artifact
    assert artifact is not None and artifact.kind == "image"
    assert artifact.payload.path == f"img/{name}"
    (image,) = artifact.payload.images
    assert image.mime == mime
    attachment = image.attachment
    assert (attachment.width, attachment.height, attachment.bytes) == (3, 2, len(data))
    assert session.sandbox.store.get(attachment.id) == data
    # The value is a short envelope that names the image, never its bytes.
    assert len(result.value) < 200
    assert f"img/{name}" in result.value and mime in result.value and "3x2" in result.value
    assert attachment.id in result.value
    dumped = result.model_dump_json(by_alias=True)
    assert data.hex() not in dumped and "base64" not in result.value


def test_an_image_read_counts_as_read_for_a_replacement(session: Session) -> None:
    put(session, "i.png", PNG)
    session.read("i.png")
    result = session.write("i.png", "not an image any more\n")
    assert not result.is_error, result.value


# A line is any text without a line break (nor NUL: binary, nor a lone surrogate: no file can
# hold one as UTF-8); the files end with or without one.
_CHARS = st.characters(blacklist_characters="\x00\r\n", blacklist_categories=("Cs",))
_LINES = st.lists(st.text(_CHARS, max_size=6), max_size=40)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=_LINES,
    ends=st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=40, max_size=40),
    final_newline=st.booleans(),
    offset=st.integers(1, 45),
    limit=st.integers(1, 45),
)
def test_any_window_is_the_lines_a_plain_split_gives(
    session: Session,
    lines: list[str],
    ends: list[str],
    final_newline: bool,
    offset: int,
    limit: int,
) -> None:
    text = "".join(line + end for line, end in zip(lines, ends, strict=False))
    if lines and not final_newline:
        text = text[: -len(ends[len(lines) - 1])]
    put(session, "w.txt", text.encode())
    # Lines split on LF; a file without any LF splits on CR. A line keeps any other CR.
    every = (text if "\n" in text else text.replace("\r", "\n")).split("\n")
    if every[-1] == "":
        every.pop()
    result = session.read("w.txt", offset=offset, limit=limit)
    if not every:
        assert not result.is_error and result.artifact.payload.total_lines == 0  # type: ignore[union-attr]
        return
    if offset > len(every):
        assert result.is_error and f"has {len(every)} lines" in result.value
        return
    window = every[offset - 1 : offset - 1 + limit]
    payload = result.artifact.payload  # type: ignore[union-attr]
    assert (payload.start_line, payload.end_line, payload.total_lines) == (
        offset,
        offset + len(window) - 1,
        len(every),
    )
    assert payload.text == "".join(line + "\n" for line in window)
    shown = "\n".join(
        f"{n:>6}\t{line.removesuffix(chr(13))}" for n, line in enumerate(window, start=offset)
    )
    assert result.value.split("\n\n[Showing")[0] == shown


@settings(deadline=None)
@given(first=st.integers(0, 5000), count=st.integers(0, 2500))
def test_numbering_any_range_matches_formatting_each_line(first: int, count: int) -> None:
    lines = [f"l{n % 7}" for n in range(count)]
    expected = "\n".join(f"{n:>6}\t{line}" for n, line in enumerate(lines, start=first))
    assert numbered(lines, first) == expected
