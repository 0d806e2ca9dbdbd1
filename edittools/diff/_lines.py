"""Bytes-level line handling: encoding inputs, binary detection, splitting on ``\\n`` only.

The engine works on bytes end to end. A ``str`` input is encoded as UTF-8 with ``surrogatepass`` so
that every ``str`` round-trips exactly, and lines are decoded back only when they end up in a hunk.
Lines split on ``\\n`` alone, as git and ``patch`` do: ``str.splitlines`` also splits on ``\\r``,
form feeds and Unicode separators and would disagree with them.
"""

from __future__ import annotations

from edittools.diff._mapped import comparable

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
    return b"\0" in data or not valid_utf8(data, 0, len(data))


def valid_utf8(data: bytes, start: int, end: int) -> bool:
    """Say whether ``data[start:end]`` (whole lines) is valid UTF-8."""
    if start == 0 and end == len(data) and data.isascii():
        return True
    # Validate in chunks cut at newlines (a UTF-8 sequence never contains a newline byte), so a
    # mostly-ASCII file never becomes one large str in memory, nor a range of a memory map one
    # large copy.
    while start < end:
        cut = data.find(NL, min(start + _CHUNK, end), end)
        cut = end if cut < 0 else cut + 1
        chunk = data[start:cut]
        if not chunk.isascii():
            try:
                chunk.decode("utf-8")
            except UnicodeDecodeError:
                return False
        start = cut
    return True


def decode(data: bytes) -> str:
    """Decode engine bytes back to text (inverse of `to_bytes` for text inputs)."""
    return data.decode("utf-8", _ERRORS)


def decode_range(data: bytes, start: int, end: int) -> str:
    """Decode ``data[start:end]`` like `decode`, without copying the range first."""
    return str(comparable(data)[start:end], "utf-8", _ERRORS)


def split_keys(data: bytes, start: int, end: int) -> list[bytes]:
    """Comparison keys of the lines of ``data[start:end]`` (a run of whole lines).

    A full line's key is its text without the ``\\n``; a last line lacking the newline gets a
    ``\\n`` appended instead, which no full line's key can contain, so ``"x"`` at the end of a
    file never matches ``"x\\n"``. Key lengths give byte offsets: each full line is ``len + 1``.
    """
    if start >= end:
        return []
    keys = data[start:end].split(NL)
    last = keys.pop()
    if last:
        keys.append(last + NL)
    return keys


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


def forward_bytes(data: bytes, offset: int, size: int, ceiling: int) -> int:
    """The first line start at least `size` bytes after `offset`, or `ceiling`."""
    end = offset + size
    if end >= ceiling:
        return ceiling
    nl = data.find(NL, end - 1, ceiling)
    return ceiling if nl < 0 else nl + 1
