"""Make untrusted text safe to show: control characters become visible, never act.

Artifact text is untrusted. Escape sequences could repaint a terminal, and lone surrogates (valid
in JSON strings) cannot be encoded when a page or a terminal writes them out. Both views pass
every piece of input text through `visible` before styling or escaping it.
"""

from __future__ import annotations

import re

# C0 controls except tab and newline, DEL, C1 controls, lone surrogates, and the characters that
# reorder or break what is shown around them (bidirectional marks, embeddings, overrides and
# isolates; line and paragraph separators): text that reads one way and runs another.
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]"
)


def _picture(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode "control picture" for that code: ␛ for ESC
    if code == 0x7F:
        return "\u2421"
    if code <= 0x9F:
        return f"\\x{code:02x}"
    if 0xD800 <= code <= 0xDFFF:
        return "\ufffd"
    return f"U+{code:04X}"  # a bidirectional control or a separator, named


def visible(text: str) -> str:
    """Return `text` with control characters shown as symbols, bidirectional controls and line
    separators named (`U+202E`), and lone surrogates replaced.

    Tabs and newlines are kept; carriage returns become `␍` so a CRLF line shows what it is.
    """
    return _UNSAFE.sub(_picture, text)


def segments(
    text: str, marks: list[tuple[int, int]] | tuple[tuple[int, int], ...]
) -> list[tuple[str, bool]]:
    """`text` cut at the `[start, end)` ranges of `marks` (sorted, apart), each piece made
    `visible` and said to be marked or not; empty pieces are left out."""
    out: list[tuple[str, bool]] = []
    at = 0
    for start, end in marks:
        start, end = max(start, at), min(end, len(text))
        if start >= end:
            continue
        if start > at:
            out.append((visible(text[at:start]), False))
        out.append((visible(text[start:end]), True))
        at = end
    if at < len(text) or not out:
        out.append((visible(text[at:]), False))
    return out
