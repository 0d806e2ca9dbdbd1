"""What a streamed change checks of a large file's text: that bytes can edit it, its newlines."""

from __future__ import annotations

import os
import re

from edittools._errors import ToolError
from sandbox import bom_candidates, looks_binary

__all__ = ["check_text", "crlf", "crlf_file", "crlf_variant"]

_BARE_LF = re.compile(rb"(?<!\r)\n")


def check_text(path: str, head: bytes) -> None:
    """Refuse what a byte match cannot edit faithfully: UTF-16/32 text, binary files."""
    if any(encoding != "utf-8-sig" for encoding, _ in bom_candidates(head)):
        raise ToolError(
            "undecodable",
            f"{path} is over the size cap and is not UTF-8; a file this large is edited only "
            "when it is UTF-8. Convert it, or edit it with another tool.",
            {"path": path},
        )
    if looks_binary(head):
        raise ToolError(
            "binary",
            f"{path} looks binary (a NUL byte near the start); edit changes text files only.",
            {"path": path},
        )


def crlf_file(fd: int) -> bool:
    """Whether the file's first line ends with CRLF (its newline style, for the newlines tier)."""
    head = os.pread(fd, 1 << 16, 0)
    at = head.find(b"\n")
    return at > 0 and head[at - 1 : at] == b"\r"


def crlf(data: bytes) -> bytes:
    """`data` with its bare LFs as CRLF."""
    return _BARE_LF.sub(b"\r\n", data)


def crlf_variant(fd: int, data: bytes) -> bytes | None:
    """`data` with its bare LFs as CRLF, when the file's newline style is CRLF and `data` has
    any (the newlines tier: a model writes LF); else None."""
    return crlf(data) if _BARE_LF.search(data) and crlf_file(fd) else None
