"""Make untrusted text safe to show: control characters become visible, never act.

Artifact text is untrusted. Escape sequences could repaint a terminal, and lone surrogates (valid
in JSON strings) cannot be encoded when a page or a terminal writes them out. Both views pass
every piece of input text through `visible` before styling or escaping it.
"""

from __future__ import annotations

import re

# C0 controls except tab and newline, DEL, C1 controls, and lone surrogates.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _picture(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode "control picture" for that code: ␛ for ESC
    if code == 0x7F:
        return "\u2421"
    if code <= 0x9F:
        return f"\\x{code:02x}"
    return "\ufffd"


def visible(text: str) -> str:
    """Return `text` with control characters shown as symbols and lone surrogates replaced.

    Tabs and newlines are kept; carriage returns become `␍` so a CRLF line shows what it is.
    """
    return _UNSAFE.sub(_picture, text)
