"""Finding an edit's `old_string` in a file's text: exactly first, then with stated tolerances.

Tiers are tried in the order of `TIERS`; a tier runs only when every earlier one found nothing,
and each tolerant tier also forgives what the earlier ones did (a CRLF file with trailing spaces
matches at `trailing_whitespace`). The tolerant tiers compare whole lines. A tier that finds
more than one place is an ambiguity unless `replace_all` is set, never a silent pick.

The exact tier is a handful of `str.count`/`str.find` calls, so a miss-free edit of a large
file costs no per-line Python work; the line view is built only when the exact tier fails.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

from edittools._errors import ToolError
from edittools.tools._closest import describe_miss
from edittools.tools._linemap import LineMap, Unmappable
from edittools.tools._numbering import numbered
from edittools.tools._textlines import LINE_TIERS, Lines, Tier, split_old

TIERS = (
    "exact",
    "newlines",
    "trailing_whitespace",
    "indentation",
    "unicode_punctuation",
    "line_numbers",
)

# A `cat -n` style prefix: right-aligned number then a tab, or "12→" / "12:" as other readers
# print them. A bare number is a copied blank line whose tab was lost.
# The separator is taken alone: a space after it is the line's own indentation, and whatever
# else differs is forgiven by the indentation mapping like any other drift.
_LINE_NUMBER = re.compile(r" *(\d+)(?:\t|→|:|$)")

_MAX_LISTED = 20
_MAX_WINDOW = 40

# What punctuation folding produces; text between these survives folding unchanged.
_FOLDED = re.compile(r"[\s'\"\-.]+")


@dataclass(frozen=True)
class Match:
    """Where an edit applies: the tier that found it, the spans to replace and what goes there.

    `spans` are `(start, end)` offsets into the text, sorted and non-overlapping. Each
    replacement uses `\\n` line breaks only; the caller turns them into the file's newline style.
    """

    tier: str
    spans: tuple[tuple[int, int], ...]
    replacements: tuple[str, ...]


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
    if match is None:
        raise _no_match(lines or Lines.of(text), old_string, tolerant)
    if len(match.spans) > 1 and not replace_all:
        raise _ambiguous(text, match)
    if _changes_nothing(text, match, old_string):
        raise ToolError(
            "no_change",
            f"The text found for old_string (match: {match.tier}) already reads as new_string, "
            "so the edit would change nothing. Check new_string.",
        )
    return match


def _changes_nothing(text: str, match: Match, old: str) -> bool:
    if match.tier == "exact":  # every span holds old_string itself
        return old.replace("\r\n", "\n") == match.replacements[0]
    return all(
        text[a:b].replace("\r\n", "\n") == r
        for (a, b), r in zip(match.spans, match.replacements, strict=True)
    )


def _find_all(hay: str, needle: str) -> list[int]:
    """Starts of the non-overlapping occurrences of `needle`, found by one C-level scan."""
    return [m.start() for m in re.finditer(re.escape(needle), hay)]


def _exact(text: str, old: str, new: str) -> Match | None:
    if old not in text:
        return None
    n = len(old)
    spans = tuple([(m.start(), m.start() + n) for m in re.finditer(re.escape(old), text)])
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
    match = _line_tiers(lines, old_lines, ends_nl, new_lines, new_nl, None)
    if match is not None:
        return match
    # A reader may print a space after the number's separator; it is taken as the line's own
    # first column unless only its removal gives lines the mapping can place.
    refusal: ToolError | None = None
    for space in (False, True):
        stripped = _strip_line_numbers(old_lines, space)
        if stripped is None:
            continue
        new_stripped = _strip_line_numbers(new_lines, space)
        try:
            match = _line_tiers(
                lines, stripped, ends_nl, new_stripped or new_lines, new_nl, "line_numbers"
            )
        except ToolError as exc:
            refusal = refusal or exc
            continue
        if match is not None:
            return match
    if refusal is not None:
        raise refusal
    return None


def _line_tiers(
    lines: Lines,
    old_lines: list[str],
    ends_nl: bool,
    new_lines: list[str],
    new_nl: bool,
    name: str | None,
) -> Match | None:
    """The first line tier that finds old_lines, with new_lines carried through its mapping.

    Raises `ToolError` (`no_match`) when the tier finds the lines but its mapping does not
    determine how new_lines are written: a looser tier would map them no better.
    """
    m = len(old_lines)
    for tier in LINE_TIERS:
        hits = _hits(lines, tier, old_lines)
        if not hits:
            continue
        spans = []
        replacements = []
        for i in hits:
            last = i + m - 1
            found = lines.contents[i : i + m]
            try:
                mapping = LineMap(old_lines, found, indentation=tier.indentation, fold=tier.fold)
                repl = "\n".join(mapping.transfer(new_lines)) if new_lines != [""] else ""
            except Unmappable as exc:
                raise _unmappable(lines, i, m, name or tier.name, exc.reason) from None
            if new_nl:
                repl += "\n"
            if ends_nl and not lines.has_ending(last) and repl.endswith("\n"):
                repl = repl[:-1]  # the file's last line has no newline: keep it that way
            end = lines.starts[last + 1] if ends_nl else lines.content_end(last)
            spans.append((lines.starts[i], end))
            replacements.append(repl)
        return Match(name or tier.name, tuple(spans), tuple(replacements))
    return None


def _hits(lines: Lines, tier: Tier, old_lines: list[str]) -> list[int]:
    """Start lines of the non-overlapping places where old_lines occur under the tier."""
    norm = tier.normalize
    want = [norm(line) for line in old_lines]
    m = len(want)
    if m > len(lines):
        return []
    # Search on the longest line: it is the one least likely to occur by chance.
    anchor = max(range(m), key=lambda j: len(want[j]))
    # A matching line holds the anchor's text verbatim (only whitespace and punctuation are
    # forgiven), so one substring test can rule a tier out before any per-line work.
    probe = want[anchor]
    if tier.fold is not None:
        probe = max(_FOLDED.split(probe), key=len)
    if probe not in lines.text:
        return []
    have = [norm(line) for line in lines.contents]
    hits: list[int] = []
    k = anchor - 1
    while True:
        try:
            k = have.index(want[anchor], k + 1)
        except ValueError:
            break
        i = k - anchor
        if i < 0 or i + m > len(lines) or (hits and i < hits[-1] + m):
            continue
        if have[i : i + m] == want:
            hits.append(i)
    return hits


def _strip_line_numbers(old_lines: list[str], space: bool) -> list[str] | None:
    """The lines without `cat -n` prefixes, or None unless every line has one, numbered in a row.

    With `space`, one space after each separator belongs to the prefix (every line must have it).
    """
    out = []
    expected = None
    for line in old_lines:
        m = _LINE_NUMBER.match(line)
        if m is None:
            return None
        number = int(m.group(1))
        if expected is not None and number != expected:
            return None
        expected = number + 1
        rest = line[m.end() :]
        if space:
            if not rest.startswith(" "):
                return None
            rest = rest[1:]
        out.append(rest)
    return out


def _unmappable(lines: Lines, i: int, m: int, tier: str, reason: str) -> ToolError:
    region = lines.contents[i : i + m]
    return ToolError(
        "no_match",
        f"old_string matches lines {i + 1}-{i + m} only with tolerance {tier}, but "
        f"{reason}, so the edit was not applied. The lines are:\n"
        + numbered(region[:_MAX_WINDOW], i + 1)
        + "\nHint: copy old_string from these lines exactly, and indent new_string as the file "
        "does.",
        {
            "closest": describe_miss(lines, "\n".join(region)),
            "match": tier,
            "reason": reason,
        },
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


def _ambiguous(text: str, match: Match) -> ToolError:
    numbers = _line_of(text, match.spans)
    shown = ", ".join(map(str, numbers[:_MAX_LISTED]))
    if len(numbers) > _MAX_LISTED:
        shown += f" and {len(numbers) - _MAX_LISTED} more"
    how = "" if match.tier == "exact" else f" (with tolerance {match.tier})"
    return ToolError(
        "ambiguous_match",
        f"old_string matches {len(numbers)} places{how}, starting at lines {shown}. "
        "Add surrounding lines to old_string so it matches one place, "
        "or set replace_all to change every match.",
        {"count": len(numbers), "lines": numbers, "match": match.tier},
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
