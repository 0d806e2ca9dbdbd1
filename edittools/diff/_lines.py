"""Bytes-level line handling: encoding inputs, binary detection, splitting on ``\\n`` only.

The engine works on bytes end to end. A ``str`` input is encoded as UTF-8 with ``surrogatepass`` so
that every ``str`` round-trips exactly, and lines are decoded back only when they end up in a hunk.
Lines split on ``\\n`` alone, as git and ``patch`` do: ``str.splitlines`` also splits on ``\\r``,
form feeds and Unicode separators and would disagree with them.
"""

from __future__ import annotations

NL = b"\n"
_ERRORS = "surrogatepass"
_CHUNK = 1 << 20


def to_bytes(text: str | bytes) -> bytes:
    """Return the bytes the engine diffs for one side."""
    if isinstance(text, str):
        return text.encode("utf-8", _ERRORS)
    return bytes(text)


def is_binary(data: bytes) -> bool:
    """Say whether bytes are not diffable text: a NUL byte, or not valid UTF-8."""
    if b"\0" in data:
        return True
    if data.isascii():
        return False
    # Validate in chunks cut at newlines (a UTF-8 sequence never contains a newline byte), so a
    # mostly-ASCII file never becomes one large str in memory.
    start, size = 0, len(data)
    while start < size:
        end = data.find(NL, min(start + _CHUNK, size))
        end = size if end < 0 else end + 1
        chunk = data[start:end]
        if not chunk.isascii():
            try:
                chunk.decode("utf-8")
            except UnicodeDecodeError:
                return True
        start = end
    return False


def decode(data: bytes) -> str:
    """Decode engine bytes back to text (inverse of `to_bytes` for text inputs)."""
    return data.decode("utf-8", _ERRORS)


def split_lines(data: bytes, start: int = 0, end: int | None = None) -> list[bytes]:
    """Split ``data[start:end]`` into lines that keep their ``\\n`` (the last may lack it)."""
    chunk = data[start:end]
    if not chunk:
        return []
    lines = chunk.split(NL)
    last = lines.pop()
    out = [line + NL for line in lines]
    if last:
        out.append(last)
    return out


def back_lines(data: bytes, offset: int, count: int, floor: int) -> tuple[int, int]:
    """Walk back up to `count` whole lines from line start `offset`, not below `floor`.

    Returns the new offset and how many lines were stepped over.
    """
    taken = 0
    while taken < count and offset > floor:
        offset = data.rfind(NL, floor, offset - 1) + 1
        offset = max(offset, floor)
        taken += 1
    return offset, taken


def forward_lines(data: bytes, offset: int, count: int, ceiling: int) -> tuple[int, int]:
    """Walk forward up to `count` whole lines from line start `offset`, not past `ceiling`.

    Returns the new offset and how many lines were stepped over.
    """
    taken = 0
    while taken < count and offset < ceiling:
        nl = data.find(NL, offset, ceiling)
        offset = ceiling if nl < 0 else nl + 1
        taken += 1
    return offset, taken


def line_offsets(data: bytes) -> list[int]:
    """Start offset of every line, plus the end of the data as a last entry."""
    offsets = [0]
    find = data.find
    pos = find(NL)
    while pos >= 0:
        offsets.append(pos + 1)
        pos = find(NL, pos + 1)
    if offsets[-1] != len(data):
        offsets.append(len(data))
    return offsets
