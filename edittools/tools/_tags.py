"""Anchor tags: a short digest of each line's text, unique among a file's line texts
(`tools.anchors` has the rules and the tool that takes them)."""

from __future__ import annotations

import hashlib
from collections import defaultdict

TAG_CHARS = 3
"""Hex characters of a tag where no other line text of the file shares them."""


def line_digest(line: str) -> str:
    """The hex digest a line's tag is cut from: of its text, without a final CR."""
    text = line[:-1] if line.endswith("\r") else line
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def tags(lines: list[str]) -> list[str]:
    """The tag of each line: `TAG_CHARS` of its digest, lengthened until no other line text of
    `lines` has the same."""
    digests = [line_digest(line) for line in lines]
    length = dict.fromkeys(digests, TAG_CHARS)
    size = TAG_CHARS
    clashing = set(digests)
    while clashing and size < 32:
        by_prefix: dict[str, list[str]] = defaultdict(list)
        for digest in clashing:
            by_prefix[digest[:size]].append(digest)
        clashing = {d for group in by_prefix.values() if len(group) > 1 for d in group}
        size += 1
        for digest in clashing:
            length[digest] = size
    return [digest[: length[digest]] for digest in digests]


def anchored(window: list[str], first: int, tagged: list[str]) -> str:
    """Lines `window` numbered from `first` with their tags: `12#a3f|text` per line."""
    return "\n".join(
        f"{first + k}#{tag}|{line}"
        for k, (line, tag) in enumerate(zip(window, tagged, strict=True))
    )
