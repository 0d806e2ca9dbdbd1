"""The line tiers of the matching ladder: each pairs old_string's lines with the file's.

Every tier here finds whole lines, then writes `new_string` through the pairing (`LineMap`, or
the blank-line rule of `_blanklines`); a tier that finds the lines but cannot pair `new_string`
refuses with the lines, never guessing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from edittools._errors import ToolError
from edittools.change import numbered
from edittools.tools.matching._blanklines import blank_line_hits, carry_blank_lines
from edittools.tools.matching._closest import describe_miss
from edittools.tools.matching._linemap import LineMap, Unmappable
from edittools.tools.matching._textlines import LINE_TIERS, Lines, Tier, identity

_MAX_WINDOW = 40

# A `cat -n` style prefix: right-aligned number then a tab, or "12→" / "12:" as other readers
# print them. A bare number is a copied blank line whose tab was lost. Whether a space after the
# separator is the prefix's or the line's first column is settled by `line_numbers_tier`.
_LINE_NUMBER = re.compile(r" *(\d+)(?:\t|→|:|$)")

# The line tiers that compare indentation as it is: a match there places every line's columns.
_PLAIN = frozenset(tier.name for tier in LINE_TIERS if not tier.indentation)


# What punctuation folding produces; text between these survives folding unchanged.
_FOLDED = re.compile(r"[\s'\"\-.]+")


@dataclass(frozen=True)
class Match:
    """Where an edit applies: the tier that found it, the spans to replace and what goes there.

    `spans` are `(start, end)` offsets into the text, sorted by start; a tier reports every
    place it finds, so two may overlap (`locate` refuses that, never returns it). Each
    replacement uses `\\n` line breaks only; the caller turns them into the file's newline style.
    """

    tier: str
    spans: tuple[tuple[int, int], ...]
    replacements: tuple[str, ...]


def line_tiers(
    lines: Lines,
    old_lines: list[str],
    ends_nl: bool,
    new_lines: list[str],
    new_nl: bool,
    name: str | None,
) -> Match | None:
    """The first line tier that finds old_lines, with new_lines carried through its mapping.

    The match names its own tier; `name`, if given, is the tolerance a refusal names.
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
                raise unmappable(lines, i, m, name or tier.name, exc.reason) from None
            span, repl = _place(lines, i, last, ends_nl, repl, new_nl)
            spans.append(span)
            replacements.append(repl)
        return Match(tier.name, tuple(spans), tuple(replacements))
    return None


def _place(
    lines: Lines, first: int, last: int, ends_nl: bool, repl: str, new_nl: bool
) -> tuple[tuple[int, int], str]:
    """The span of file lines first..last as old_string covers it, and the replacement for it."""
    if new_nl:
        repl += "\n"
    if ends_nl and not lines.has_ending(last) and repl.endswith("\n"):
        repl = repl[:-1]  # the file's last line has no newline: keep it that way
    end = lines.starts[last + 1] if ends_nl else lines.content_end(last)
    return (lines.starts[first], end), repl


def blank_lines_tier(
    lines: Lines, old_lines: list[str], ends_nl: bool, new_lines: list[str], new_nl: bool
) -> Match | None:
    """old_lines found with blank lines missing or added; new_lines keep the file's blank lines."""
    hits = blank_line_hits(lines, old_lines)
    spans = []
    replacements = []
    for paired in hits:
        first, last = paired[0], paired[-1]
        try:
            body = carry_blank_lines(lines.contents, old_lines, paired, new_lines)
        except Unmappable as exc:
            raise unmappable(lines, first, last - first + 1, "blank_lines", exc.reason) from None
        span, repl = _place(lines, first, last, ends_nl, "\n".join(body), new_nl)
        spans.append(span)
        replacements.append(repl)
    return Match("blank_lines", tuple(spans), tuple(replacements)) if hits else None


# An elision marker line: "...", "…", "// ...", "# ... existing code ...", "/* ... */" and the like.
_ELISION = re.compile(
    r"[ \t]*(?:(?://+|#+|--|;+|/\*+|<!--|\*)[ \t]*)?(?:\.\.\.|…)[\w \t,'-]*(?:\.\.\.|…)?"
    r"[ \t]*(?:\*/|-->)?[ \t]*"
)
_MAX_ELIDED = 2000
_EXACT = Tier("exact", identity)


def elided_tier(
    lines: Lines, old_lines: list[str], ends_nl: bool, new_lines: list[str], new_nl: bool
) -> Match | None:
    """old_lines whose middle line elides lines of the file, the same marker in new_lines.

    The parts before and after the marker must each occur exactly once, in order, at most
    `_MAX_ELIDED` lines apart; the elided lines are kept where new_lines has the marker.
    """
    marks = [k for k, line in enumerate(old_lines) if _ELISION.fullmatch(line)]
    if len(marks) != 1 or not 0 < marks[0] < len(old_lines) - 1:
        return None
    k = marks[0]
    head, tail = old_lines[:k], old_lines[k + 1 :]
    heads, tails = _hits(lines, _EXACT, head), _hits(lines, _EXACT, tail)
    if not heads or not tails:
        return None
    first, stop = heads[0], heads[0] + len(head)
    if len(heads) > 1 or len(tails) > 1 or not 0 <= tails[0] - stop <= _MAX_ELIDED:
        raise unmappable(
            lines,
            first,
            len(head),
            "elided",
            f"the lines before the elision occur {len(heads)} times and the lines after it "
            f"{len(tails)} times, not once each in order and close together",
        )
    at = [j for j, line in enumerate(new_lines) if line.strip() == old_lines[k].strip()]
    if len(at) != 1:
        raise unmappable(
            lines,
            first,
            len(head),
            "elided",
            f"new_string must carry the elision line {old_lines[k].strip()!r} exactly once, "
            "where the elided lines stay",
        )
    last = tails[0] + len(tail) - 1
    body = [*new_lines[: at[0]], *lines.contents[stop : tails[0]], *new_lines[at[0] + 1 :]]
    span, repl = _place(lines, first, last, ends_nl, "\n".join(body), new_nl)
    return Match("elided", (span,), (repl,))


def _hits(lines: Lines, tier: Tier, old_lines: list[str]) -> list[int]:
    """Start lines of every place where old_lines occur under the tier, overlapping ones too."""
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
        if i < 0 or i + m > len(lines):
            continue
        if have[i : i + m] == want:
            hits.append(i)
    return hits


def strip_line_numbers(old_lines: list[str], space: bool) -> list[str] | None:
    """The lines without `cat -n` prefixes, or None unless every line has one, numbered in a row.

    With `space`, one space after each separator belongs to the prefix (every line that goes on
    after its prefix must have it; an empty line may have lost it with its trailing whitespace).
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
        rest = _after_prefix(line, m.end(), space)
        if rest is None:
            return None
        out.append(rest)
    return out


def _after_prefix(line: str, end: int, space: bool) -> str | None:
    rest = line[end:]
    if not space or not rest:
        return rest
    return rest[1:] if rest.startswith(" ") else None


def _strip_new_numbers(new_lines: list[str], space: bool) -> list[str] | None:
    """new_lines without their prefixes read as old_string's were, or as sent if none has one.

    Their numbers need not run in a row (added lines shift them). None when some lines are
    numbered and others not, or a separator lacks the space the reading takes with it.
    """
    found = [_LINE_NUMBER.match(line) for line in new_lines]
    if not any(found):
        return list(new_lines)
    out = []
    for line, m in zip(new_lines, found, strict=True):
        rest = None if m is None else _after_prefix(line, m.end(), space)
        if rest is None:
            return None
        out.append(rest)
    return out


def line_numbers_tier(
    lines: Lines, old_lines: list[str], ends_nl: bool, new_lines: list[str], new_nl: bool
) -> Match | None:
    """old_lines copied with line-number prefixes, new_lines read the same way as them.

    A space after every separator is either the prefix's or the lines' first column. Each
    reading that strips old_lines is tried, stripping new_lines alike (or taking them as sent
    when none is numbered); when both place the edit and write it differently, the file decides
    only if one of them finds old_string's lines at their own columns, else the edit is refused.
    Raises `ToolError` (`no_match`) when the lines are found but new_lines cannot be written.
    """
    found: dict[bool, Match] = {}
    refusal: ToolError | None = None
    numbered = [_LINE_NUMBER.match(line) is not None for line in new_lines]
    mixed = any(numbered) and not all(numbered)
    for space in (False, True):
        stripped = strip_line_numbers(old_lines, space)
        if stripped is None:
            continue
        new_stripped = _strip_new_numbers(new_lines, space)
        if new_stripped is None:
            at = _found_at(lines, stripped) if mixed else None
            if at is not None:
                raise unmappable(
                    lines,
                    at,
                    len(stripped),
                    "line_numbers",
                    "new_string numbers some of its lines and not others, so which part of a "
                    "line is its text is not certain (send new_string without the prefixes)",
                )
            continue
        try:
            match = line_tiers(lines, stripped, ends_nl, new_stripped, new_nl, "line_numbers")
        except ToolError as exc:
            refusal = refusal or exc
            continue
        if match is not None:
            found[space] = match
    if not found:
        if refusal is not None:
            raise refusal
        return None
    chosen = list(found.values())
    a, b = chosen[0], chosen[-1]
    if (a.spans, a.replacements) != (b.spans, b.replacements):
        chosen = [m for m in chosen if m.tier in _PLAIN]
        if len(chosen) != 1:
            first = lines.line_index(found[False].spans[0][0])
            raise unmappable(
                lines,
                first,
                len(old_lines),
                "line_numbers",
                "the space after each line number may be the prefix's or the lines' first "
                "column, the two readings write new_string differently, and neither finds "
                "old_string's lines at their own columns",
            )
    return Match("line_numbers", chosen[0].spans, chosen[0].replacements)


def _found_at(lines: Lines, old_lines: list[str]) -> int | None:
    """The first file line where a line tier finds old_lines, if any does."""
    for tier in LINE_TIERS:
        hits = _hits(lines, tier, old_lines)
        if hits:
            return hits[0]
    return None


def unmappable(lines: Lines, i: int, m: int, tier: str, reason: str) -> ToolError:
    """The refusal of a tolerance that found file lines i..i+m-1 but cannot write the edit."""
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
