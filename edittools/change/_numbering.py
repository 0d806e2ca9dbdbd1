"""Line numbering in the `cat -n` style the read tool prints and agents copy from."""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Iterator
from itertools import chain, islice

CUT_MARKER = " [... line cut: {more} more characters]"


def numbered(lines: Iterable[str], first: int, *, max_chars: int | None = None) -> str:
    """Lines numbered from `first`: right-aligned number, a tab, the line without its newline.

    Lines longer than `max_chars` are cut with a marker that says how much was left out.
    """
    lines = list(lines)
    joined = "\n".join(lines)
    if "\r" not in joined and (max_chars is None or max(map(len, lines), default=0) <= max_chars):
        return plain_numbered(lines, first)
    out = []
    for number, line in enumerate(lines, start=first):
        line = line.removesuffix("\r")
        if max_chars is not None and len(line) > max_chars:
            line = line[:max_chars] + CUT_MARKER.format(more=len(line) - max_chars)
        out.append(f"{number:>6}\t{line}")
    return "\n".join(out)


def plain_numbered(lines: list[str], first: int) -> str:
    """`numbered` for lines the caller knows hold no CR and none to cut: C-level loops only."""
    return "\n".join(map(operator.add, _prefixes(first, len(lines)), lines))


_BLOCK = 1024


@functools.lru_cache(maxsize=32)
def _prefix_block(block: int) -> tuple[str, ...]:
    """The number columns (`"{n:>6}\t"`) of lines `block * _BLOCK` up to the next block.

    Formatting the numbers is most of the time a long window takes to number: a read of the
    same region again (the usual case: an agent reads the start of a file many times) reuses
    them. 32 blocks of 1024 are a few MB at most.
    """
    start = block * _BLOCK
    return tuple(map("{:>6}\t".format, range(start, start + _BLOCK)))


def _prefixes(first: int, count: int) -> Iterator[str]:
    """The number columns of lines `first` .. `first + count - 1`."""
    blocks = range(first // _BLOCK, (first + count - 1) // _BLOCK + 1)
    columns = chain.from_iterable(map(_prefix_block, blocks))
    return islice(columns, first % _BLOCK, first % _BLOCK + count)


def as_lf_lines(text: str) -> str:
    """`text` with a CR-only file's line breaks shown as LF (same length, so offsets still hold).

    Files whose lines end in a lone CR are split on CR everywhere (edit, patch, read); text that
    has any LF is split on LF only, as git and patch do.
    """
    return text.replace("\r", "\n") if "\r" in text and "\n" not in text else text


def line_of(text: str, offset: int) -> int:
    """The 1-based number of the line holding `offset`."""
    return text.count("\n", 0, offset) + 1


def excerpt(
    text: str, start: int, end: int, *, around: int = 3, max_chars: int = 2000, first_line: int = 1
) -> str:
    """Numbered lines holding `text[start:end]`, with `around` lines of context each side.

    Works from offsets with C-level searches, so a large file is never split into lines.
    `first_line` is the number of the text's first line (when it is a window of a larger file).
    """
    text = as_lf_lines(text)
    first = text.rfind("\n", 0, start) + 1
    for _ in range(around):
        if first == 0:
            break
        first = text.rfind("\n", 0, first - 1) + 1
    newline = text.find("\n", max(end - 1, start))
    last = len(text) if newline == -1 else newline + 1
    for _ in range(around):
        if last >= len(text):
            break
        newline = text.find("\n", last)
        last = len(text) if newline == -1 else newline + 1
    lines = text[first:last].split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return numbered(lines, first_line - 1 + line_of(text, first), max_chars=max_chars)
