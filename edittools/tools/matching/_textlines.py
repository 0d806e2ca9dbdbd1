"""Line views of a text and the per-line normalisations that tolerant matching compares.

Lines are split on the file's line separator only (never `str.splitlines`, which also splits on
form feeds and other characters that git and `patch` keep inside a line). A trailing `\\r` is
kept out of a line's content, so CRLF and LF lines compare equal.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate

# Leading and trailing whitespace the tolerant tiers ignore. Deliberately narrower than
# `str.strip()`, which would also eat `\x1c`-`\x1f`, `\x85` and the Unicode line separators.
WS = " \t\f\v"

_FOLD = str.maketrans(
    {
        **dict.fromkeys("‘’‚‛′‵", "'"),
        **dict.fromkeys("“”„‟″‶", '"'),
        **dict.fromkeys("‐‑‒–—―−", "-"),
        **dict.fromkeys("\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006", " "),
        **dict.fromkeys("\u2007\u2008\u2009\u200a\u202f\u205f\u3000", " "),
        "…": "...",
    }
)


# The same, except that a long dash stands for the `--` that plain-text writers type for it.
_FOLD_LONG_DASHES: dict[int, int | str | None] = {**_FOLD, ord("—"): "--", ord("―"): "--"}


def fold_punctuation(s: str) -> str:
    """Fold curly quotes, dashes, non-breaking and other spaces and the ellipsis to ASCII."""
    return s.translate(_FOLD)


def fold_long_dashes(s: str) -> str:
    """Like `fold_punctuation`, but an em dash or horizontal bar folds to `--`."""
    return s.translate(_FOLD_LONG_DASHES)


def strip_trailing(s: str) -> str:
    """The line without trailing spaces and tabs."""
    return s.rstrip(WS)


def strip_both(s: str) -> str:
    """The line without leading or trailing spaces and tabs."""
    return s.strip(WS)


def fold_and_strip(s: str) -> str:
    """The line with punctuation folded, then stripped (a folded NBSP is stripped too)."""
    if s.isascii():  # nothing to fold, and `isascii` is far cheaper than `translate`
        return s.strip(WS)
    return s.translate(_FOLD).strip(WS)


def fold_dashes_and_strip(s: str) -> str:
    """The line with punctuation folded (long dashes to `--`), then stripped."""
    if s.isascii():
        return s.strip(WS)
    return s.translate(_FOLD_LONG_DASHES).strip(WS)


def identity(s: str) -> str:
    """The line as it is."""
    return s


Normalizer = Callable[[str], str]


@dataclass(frozen=True)
class Tier:
    """A tolerance of the line tiers: its reported name, what it compares, how new lines map.

    `indentation` says whether the tier forgives leading whitespace (then new lines are
    re-indented through the pairs); `fold` is the character fold it forgives, if any.
    """

    name: str
    normalize: Normalizer
    indentation: bool = False
    fold: Normalizer | None = None


# The line tiers shared by edit and apply_patch, loosest last; one name per tolerance.
LINE_TIERS: tuple[Tier, ...] = (
    Tier("trailing_whitespace", strip_trailing),
    Tier("indentation", strip_both, indentation=True),
    Tier("unicode_punctuation", fold_and_strip, indentation=True, fold=fold_punctuation),
    Tier("unicode_punctuation", fold_dashes_and_strip, indentation=True, fold=fold_long_dashes),
)


def indent_of(s: str) -> str:
    """The leading whitespace of a line."""
    return s[: len(s) - len(s.lstrip(WS))]


@dataclass(frozen=True)
class Lines:
    """A text cut into lines: contents without their ending, and the offset where each starts.

    `starts` has one entry more than `contents`; the last is the text's length. A text ending
    with its separator has no empty phantom line after it.
    """

    text: str
    contents: list[str]
    starts: list[int]

    @classmethod
    def of(cls, text: str) -> Lines:
        """Split `text` on `\\n` (or on `\\r` for a file that uses lone CRs only)."""
        sep = "\n" if "\n" in text or "\r" not in text else "\r"
        raw = text.split(sep)
        if raw[-1] == "":
            raw.pop()
        starts = list(accumulate((len(r) + 1 for r in raw), initial=0))
        starts[-1] = min(starts[-1], len(text))
        if sep == "\n" and "\r" in text:
            contents = [r[:-1] if r.endswith("\r") else r for r in raw]
        else:
            contents = raw
        return cls(text, contents, starts)

    def __len__(self) -> int:
        return len(self.contents)

    def content_end(self, i: int) -> int:
        """Offset just past line `i`'s content (before its `\\r\\n`, `\\n` or `\\r`)."""
        return self.starts[i] + len(self.contents[i])

    def has_ending(self, i: int) -> bool:
        """Whether line `i` ends with a line separator."""
        return self.starts[i + 1] > self.content_end(i)

    def line_index(self, offset: int, lo: int = 0) -> int:
        """The 0-based index of the line holding `offset`."""
        return bisect_right(self.starts, offset, lo, len(self.contents)) - 1


def split_old(s: str) -> tuple[list[str], bool]:
    """Split a model-written snippet into lines; the flag says whether it ended with a newline."""
    s = s.replace("\r\n", "\n").replace("\r", "\n")
    ends_nl = s.endswith("\n")
    lines = s.split("\n")
    if ends_nl:
        lines.pop()
    return lines, ends_nl
