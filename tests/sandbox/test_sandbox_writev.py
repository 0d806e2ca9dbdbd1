"""The vectored write of a change's pieces: every byte in order, however many pieces there are."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sandbox._writes import writev_all as _writev_all


@pytest.mark.parametrize("count", [0, 1, 1023, 1024, 1025, 20_000])
def test_every_piece_is_written_in_order(tmp_path: Path, count: int) -> None:
    pieces = [memoryview(f"{i}:".encode() * (i % 5)) for i in range(count)]
    target = tmp_path / "out"
    fd = os.open(target, os.O_WRONLY | os.O_CREAT)
    try:
        _writev_all(fd, pieces)
    finally:
        os.close(fd)
    assert target.read_bytes() == b"".join(pieces)


def test_a_short_write_resumes_inside_a_piece(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """writev may write less than asked; the rest of a half-written piece follows."""
    real = os.writev

    def at_most_seven(fd: int, buffers: list[memoryview]) -> int:
        joined = b"".join(buffers)[:7]
        return real(fd, [joined])

    monkeypatch.setattr(os, "writev", at_most_seven)
    pieces = [memoryview(b"abcde"), memoryview(b""), memoryview(b"fghijklmnop"), memoryview(b"q")]
    target = tmp_path / "out"
    fd = os.open(target, os.O_WRONLY | os.O_CREAT)
    try:
        _writev_all(fd, pieces)
    finally:
        os.close(fd)
    assert target.read_bytes() == b"abcdefghijklmnopq"
