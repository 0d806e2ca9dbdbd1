"""A text that starts with U+FEFF, written to a file with a byte-order mark, keeps one mark."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from edittools import Session
from edittools.artifacts import DiffPayload
from sandbox import TextDocument, decode

ENCODINGS = {
    "utf-8": codecs.BOM_UTF8,
    "utf-16-le": codecs.BOM_UTF16_LE,
    "utf-16-be": codecs.BOM_UTF16_BE,
}


def _file(s: Session, encoding: str, text: str) -> Path:
    path = s.sandbox.root / "f.txt"
    path.write_bytes(ENCODINGS[encoding] + text.encode(encoding))
    assert not s.read("f.txt").is_error
    return path


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_write_of_a_text_with_the_mark_keeps_one_mark(session: Session, encoding: str) -> None:
    path = _file(session, encoding, "hello\n")
    result = session.write("f.txt", "\ufeffbye\n")
    assert not result.is_error, result.value
    assert path.read_bytes() == ENCODINGS[encoding] + "bye\n".encode(encoding)
    payload = result.artifact.payload  # type: ignore[union-attr]
    assert isinstance(payload, DiffPayload)
    assert payload.new == "bye\n"
    assert "\ufeff" not in payload.unified


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_write_without_the_mark_keeps_the_mark(session: Session, encoding: str) -> None:
    path = _file(session, encoding, "hello\n")
    assert not session.write("f.txt", "bye\n").is_error
    assert path.read_bytes() == ENCODINGS[encoding] + "bye\n".encode(encoding)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_edit_at_the_start_with_the_mark_keeps_one_mark(session: Session, encoding: str) -> None:
    path = _file(session, encoding, "hello\nworld\n")
    result = session.edit("f.txt", "hello", "\ufeffhowdy")
    assert not result.is_error, result.value
    assert path.read_bytes() == ENCODINGS[encoding] + "howdy\nworld\n".encode(encoding)
    payload = result.artifact.payload  # type: ignore[union-attr]
    assert isinstance(payload, DiffPayload)
    assert payload.new == "howdy\nworld\n"
    assert payload.hunks[0].lines == ["-hello", "+howdy", " world"]
    assert "\ufeff" not in result.value


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_multi_edit_and_replace_all_at_the_start_keep_one_mark(
    session: Session, encoding: str
) -> None:
    path = _file(session, encoding, "a\nb\na\n")
    result = session.edit("f.txt", "a", "\ufeffc", replace_all=True)
    assert not result.is_error, result.value
    # Only the start of the file is where the mark is: elsewhere U+FEFF is a character.
    assert path.read_bytes() == ENCODINGS[encoding] + "c\nb\n\ufeffc\n".encode(encoding)
    session.read("f.txt")
    result = session.multi_edit("f.txt", [{"old_string": "c\nb", "new_string": "\ufeffd\nb"}])
    assert not result.is_error, result.value
    assert path.read_bytes() == ENCODINGS[encoding] + "d\nb\n\ufeffc\n".encode(encoding)


def test_a_file_without_a_mark_gets_the_one_the_text_starts_with(session: Session) -> None:
    path = session.sandbox.root / "plain.txt"
    path.write_bytes(b"hello\n")
    session.read("plain.txt")
    assert not session.write("plain.txt", "\ufeffbye\n").is_error
    assert path.read_bytes() == codecs.BOM_UTF8 + b"bye\n"
    assert not session.write("new.txt", "\ufeffnew\n").is_error
    assert (session.sandbox.root / "new.txt").read_bytes() == codecs.BOM_UTF8 + b"new\n"


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_document_with_text_and_splice(encoding: str) -> None:
    doc = decode(ENCODINGS[encoding] + "x\ny\n".encode(encoding))
    once = ENCODINGS[encoding] + "z\n".encode(encoding)
    assert doc.with_text("\ufeffz\n").encode() == once
    assert doc.splice(0, 4, "\ufeffz\n").encode() == once
    assert doc.splice(2, 2, "\ufeff").encode() == ENCODINGS[encoding] + "x\n\ufeffy\n".encode(
        encoding
    )
    plain = TextDocument.new("\ufeffz\n")
    assert plain.encode() == codecs.BOM_UTF8 + b"z\n"
