"""Finding an edit's `old_string` in a file's text: exactly first, then with stated tolerances.

Tiers are tried in the order of `TIERS`; a tier runs only when every earlier one found nothing,
and each tolerant tier also forgives what the earlier ones did (a CRLF file with trailing spaces
matches at `trailing_whitespace`). The tolerant tiers compare whole lines and write
`new_string` only through a mapping of old_string's lines to the file's (`_linemap`), refusing
when the mapping is not certain. A tier that finds more than one place is an ambiguity unless
`replace_all` is set, never a silent pick. Places that overlap count each (a tier finds every
start, not only those past the last place's end) and are refused even with `replace_all`, which
cannot replace them all. An old_string sent escaped as a whole goes through the ladder once
more, unescaped, and is reported as `escaped`.

The exact tier is a handful of `str.count`/`str.find` calls, so a miss-free edit of a large
file costs no per-line Python work; the line view is built only when the exact tier fails.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left

from edittools._errors import ToolError
from edittools.change import overlap_of
from edittools.tools.matching._closest import describe_miss
from edittools.tools.matching._linetiers import (
    Match,
    blank_lines_tier,
    elided_tier,
    line_numbers_tier,
    line_tiers,
    unmappable,
)
from edittools.tools.matching._textlines import LINE_TIERS, Lines, split_old

__all__ = ["TIERS", "Match", "locate"]

# The names `match` reports, in the order tried; the line tiers' names are apply_patch's too.
TIERS = (
    "exact",
    "newlines",
    *dict.fromkeys(tier.name for tier in LINE_TIERS),
    "line_numbers",
    "blank_lines",
    "elided",
    "escaped",
)

_MAX_LISTED = 20


def locate(
    text: str,
    old_string: str,
    new_string: str,
    *,
    replace_all: bool = False,
    tolerant: bool = True,
) -> Match:
    """Find `old_string` in `text` and say what replaces each place it occupies.

    With `tolerant` off only the exact and newline-insensitive tiers run: a CRLF file is not a
    different text, only a different encoding of line ends.
    Raises `ToolError` with code `invalid_arguments`, `no_change`, `no_match` or
    `ambiguous_match`.
    """
    if not old_string:
        raise ToolError(
            "invalid_arguments",
            "old_string is empty. Give the exact text to replace, or use write to create a file.",
        )
    if old_string == new_string:
        raise ToolError(
            "no_change",
            "old_string and new_string are identical, so the edit would change nothing. "
            "Put the text you want in new_string.",
        )
    new = new_string.replace("\r\n", "\n")
    match = _exact(text, old_string, new) or _newlines(text, old_string, new)
    lines: Lines | None = None
    if match is None and tolerant:
        lines = Lines.of(text)
        match = _tolerant(lines, old_string, new)
        unescaped = _unescape(old_string) if match is None else None
        if unescaped is not None:
            match = _escaped(text, lines, unescaped, new)
    if match is None:
        raise _no_match(lines or Lines.of(text), old_string, tolerant)
    if len(match.spans) > 1 and (not replace_all or _overlapping(match)):
        raise _ambiguous(text, match)
    if _changes_nothing(text, match, old_string):
        raise ToolError(
            "no_change",
            f"The text found for old_string (match: {match.tier}) already reads as new_string, "
            "so the edit would change nothing. Check new_string.",
        )
    return match


# One escape of a JSON or source string literal.
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|(.))", re.DOTALL)
_ESCAPED = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "'": "'", "\\": "\\", "/": "/"}
_ESCAPED |= {"b": "\b", "f": "\f"}


def _unescape(s: str) -> str | None:
    """`s` read once as an escaped string literal, or None unless it is written as one.

    It is only when it is one line holding a `\\n`, `\\t` or `\\"` escape and every backslash
    starts an escape that reading it once resolves.
    """
    if "\n" in s or not re.search(r'\\[nt"]', s):
        return None
    return _read_escaped(s)


def _read_escaped(s: str) -> str | None:
    """`s` with every escape resolved (a surrogate pair to its one character), or None when a
    backslash starts no escape or a surrogate is left alone."""
    bad = False

    def one(m: re.Match[str]) -> str:
        nonlocal bad
        if m.group(1):
            return chr(int(m.group(1), 16))
        out = _ESCAPED.get(m.group(2))
        bad = bad or out is None
        return out or ""

    text = _ESCAPE.sub(one, s)
    if bad:
        return None
    try:  # JSON writes a character past U+FFFF as two `\\u` escapes
        return text.encode("utf-16", "surrogatepass").decode("utf-16")
    except UnicodeDecodeError:
        return None


def _escaped(text: str, lines: Lines, old: str, new: str) -> Match | None:
    """The ladder again for an old_string that was sent escaped, reported as `escaped`.

    new_string is read as old_string was, all of it, unless the lines it keeps from old_string
    show it was sent plain (`_read_new`). One that neither reading fits is refused where
    old_string matched: written as sent, it would leave escapes in lines it does not change.
    """
    new_read = _read_new(new, old)
    written = new if new_read is None else new_read
    try:
        match = (
            _exact(text, old, written)
            or _newlines(text, old, written)
            or _tolerant(lines, old, written)
        )
    except ToolError:
        return None
    if match is None:
        return None
    if new_read is None:
        start, end = match.spans[0]
        first = lines.line_index(start)
        last = lines.line_index(max(end - 1, start), first)
        raise unmappable(
            lines,
            first,
            last - first + 1,
            "escaped",
            "new_string is neither escaped as old_string is nor plainly the file's text in the "
            "lines it keeps",
        )
    return Match("escaped", match.spans, match.replacements)


def _read_new(new: str, old: str) -> str | None:
    """new_string as the file gets it when old_string (`old`, unescaped) was sent escaped.

    One escaped line is read as old_string was. One with real line breaks, or a backslash that
    starts no escape, was not written as one literal: it is read as sent or with each line's
    escapes resolved when every line the two readings write differently is one of old_string's
    under that reading and not the other; None when any such line settles nothing (a changed
    line with a backslash) or the lines disagree.
    """
    if "\\" not in new:
        return new  # nothing to unescape: either reading writes it alike
    whole = None if "\n" in new else _read_escaped(new)
    if whole is not None:
        return whole
    kept = set(old.split("\n"))
    plain = new.split("\n")
    read = [_read_escaped(line) for line in plain]
    shown = set()
    for p, r in zip(plain, read, strict=True):
        if p == r:
            continue
        if p in kept and r not in kept:
            shown.add("plain")
        elif r is not None and r in kept and p not in kept:
            shown.add("read")
        else:
            return None
    if shown == {"plain"}:
        return new
    if shown == {"read"}:  # then every line was read: an unread one differs and shows plain
        return "\n".join(r or "" for r in read)
    return None


def _changes_nothing(text: str, match: Match, old: str) -> bool:
    if match.tier == "exact":  # every span holds old_string itself
        return old.replace("\r\n", "\n") == match.replacements[0]
    return all(
        text[a:b].replace("\r\n", "\n") == r
        for (a, b), r in zip(match.spans, match.replacements, strict=True)
    )


def _find_all(hay: str, needle: str) -> list[int]:
    """Starts of every occurrence of `needle`, overlapping ones too."""
    starts = []
    at = hay.find(needle)
    while at >= 0:
        starts.append(at)
        at = hay.find(needle, at + 1)
    return starts


def _exact(text: str, old: str, new: str) -> Match | None:
    if old not in text:
        return None
    spans = tuple([(s, s + len(old)) for s in _find_all(text, old)])
    return Match("exact", spans, (new,) * len(spans))


def _newlines(text: str, old: str, new: str) -> Match | None:
    """Match with CRLF, CR and LF treated alike, on a text folded to LF and mapped back."""
    if "\r" not in text and "\r" not in old:
        return None
    flat_text = text.replace("\r\n", "\n").replace("\r", "\n")
    flat_old = old.replace("\r\n", "\n").replace("\r", "\n")
    starts = _find_all(flat_text, flat_old)
    if not starts:
        return None
    # Each CRLF folded to one character shifts every later offset by one.
    pairs = [m.start() - k for k, m in enumerate(re.finditer("\r\n", text))]

    def back(p: int) -> int:
        return p + bisect_left(pairs, p)

    spans = tuple((back(s), back(s + len(flat_old))) for s in starts)
    return Match("newlines", spans, (new,) * len(spans))


def _tolerant(lines: Lines, old: str, new: str) -> Match | None:
    old_lines, ends_nl = split_old(old)
    new_lines, new_nl = split_old(new)
    return (
        line_tiers(lines, old_lines, ends_nl, new_lines, new_nl, None)
        or line_numbers_tier(lines, old_lines, ends_nl, new_lines, new_nl)
        or blank_lines_tier(lines, old_lines, ends_nl, new_lines, new_nl)
        or elided_tier(lines, old_lines, ends_nl, new_lines, new_nl)
    )


def _line_of(text: str, spans: tuple[tuple[int, int], ...]) -> list[int]:
    sep = "\n" if "\n" in text or "\r" not in text else "\r"
    numbers = []
    line, prev = 1, 0
    for start, _ in spans:
        line += text.count(sep, prev, start)
        prev = start
        numbers.append(line)
    return numbers


def _overlapping(match: Match) -> bool:
    return any(b[0] < a[1] for a, b in itertools.pairwise(match.spans))


def _ambiguous(text: str, match: Match) -> ToolError:
    numbers = _line_of(text, match.spans)
    lines = list(dict.fromkeys(numbers))  # several matches on one line: the line once
    shown = ", ".join(map(str, lines[:_MAX_LISTED]))
    if len(lines) > _MAX_LISTED:
        shown += f" and {len(lines) - _MAX_LISTED} more"
    how = "" if match.tier == "exact" else f" (with tolerance {match.tier})"
    where = f"line {shown}" if len(lines) == 1 else f"lines {shown}"
    detail: dict[str, object] = {"count": len(numbers), "lines": numbers, "match": match.tier}
    if _overlapping(match):
        detail["overlapping"] = True
        return ToolError(
            "ambiguous_match",
            f"old_string matches {len(numbers)} places{how}, starting at {where}, and "
            f"{overlap_of(len(numbers))}, so replace_all cannot change every one either. "
            "Add surrounding lines to old_string so it matches one place.",
            detail,
        )
    return ToolError(
        "ambiguous_match",
        f"old_string matches {len(numbers)} places{how}, starting at {where}. "
        "Add surrounding lines to old_string so it matches one place, "
        "or set replace_all to change every match.",
        detail,
    )


def _no_match(lines: Lines, old: str, tolerant: bool) -> ToolError:
    miss = describe_miss(lines, old)
    tried = "exactly or with tolerances" if tolerant else "exactly"
    message = f"old_string was not found in the file ({tried})."
    if miss is None:
        message += " No part of the file resembles it. Read the file and copy the lines to change."
        return ToolError("no_match", message, {"closest": None})
    message += (
        f" The closest lines are {miss['start_line']}-{miss['end_line']}:\n"
        + "\n".join(miss["numbered"])
        + "\nDifference (- old_string, + file):\n"
        + "\n".join(miss["diff"])
        + f"\nHint: {miss['hint']}. Copy old_string from these lines exactly and retry."
    )
    return ToolError("no_match", message, {"closest": miss})
