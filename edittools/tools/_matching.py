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
from math import gcd

from edittools._errors import ToolError
from edittools.tools._closest import describe_miss
from edittools.tools._textlines import (
    Lines,
    Normalizer,
    fold_and_strip,
    indent_of,
    split_old,
    strip_both,
    strip_trailing,
)

TIERS = (
    "exact",
    "newlines",
    "trailing_whitespace",
    "indentation",
    "unicode_punctuation",
    "line_numbers",
)

_LINE_TIERS: tuple[tuple[str, Normalizer, bool], ...] = (
    ("trailing_whitespace", strip_trailing, False),
    ("indentation", strip_both, True),
    ("unicode_punctuation", fold_and_strip, True),
)

# A `cat -n` style prefix: right-aligned number then a tab, or "12→" / "12:" as other readers
# print them. A bare number is a copied blank line whose tab was lost.
_LINE_NUMBER = re.compile(r" *(\d+)(?:\t| ?→ ?|: ?|$)")

_MAX_LISTED = 20

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
    if all(
        text[a:b].replace("\r\n", "\n") == r
        for (a, b), r in zip(match.spans, match.replacements, strict=True)
    ):
        raise ToolError(
            "no_change",
            f"The text found for old_string (match: {match.tier}) already reads as new_string, "
            "so the edit would change nothing. Check new_string.",
        )
    return match


def _find_all(hay: str, needle: str) -> list[int]:
    found = []
    i = hay.find(needle)
    while i != -1:
        found.append(i)
        i = hay.find(needle, i + len(needle))
    return found


def _exact(text: str, old: str, new: str) -> Match | None:
    if old not in text:
        return None
    spans = tuple((i, i + len(old)) for i in _find_all(text, old))
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
    for tier, norm, reindent in _LINE_TIERS:
        match = _line_tier(lines, tier, norm, old_lines, ends_nl, new, reindent)
        if match is not None:
            return match
    stripped = _strip_line_numbers(old_lines)
    if stripped is None:
        return None
    new_lines, new_nl = split_old(new)
    new_stripped = _strip_line_numbers(new_lines)
    if new_stripped is not None:
        new = "\n".join(new_stripped) + ("\n" if new_nl else "")
    for _, norm, _ in _LINE_TIERS:
        match = _line_tier(lines, "line_numbers", norm, stripped, ends_nl, new, True)
        if match is not None:
            return match
    return None


def _line_tier(
    lines: Lines,
    tier: str,
    norm: Normalizer,
    old_lines: list[str],
    ends_nl: bool,
    new: str,
    reindent: bool,
) -> Match | None:
    want = [norm(line) for line in old_lines]
    m = len(want)
    if m > len(lines):
        return None
    # Search on the longest line: it is the one least likely to occur by chance.
    anchor = max(range(m), key=lambda j: len(want[j]))
    # A matching line holds the anchor's text verbatim (only whitespace and punctuation are
    # forgiven), so one substring test can rule a tier out before any per-line work.
    probe = want[anchor]
    if norm is fold_and_strip:
        probe = max(_FOLDED.split(probe), key=len)
    if probe not in lines.text:
        return None
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
        if have[i : i + m] == want and (
            not reindent or _same_shape(old_lines, lines.contents[i : i + m])
        ):
            hits.append(i)
    if not hits:
        return None
    spans = []
    replacements = []
    for i in hits:
        last = i + m - 1
        end = lines.starts[last + 1] if ends_nl else lines.content_end(last)
        repl = new
        if reindent:
            repl = _reindent(repl, old_lines, lines.contents[i : i + m])
        if ends_nl and not lines.has_ending(last) and repl.endswith("\n"):
            repl = repl[:-1]  # the file's last line has no newline: keep it that way
        spans.append((lines.starts[i], end))
        replacements.append(repl)
    return Match(tier, tuple(spans), tuple(replacements))


def _strip_line_numbers(old_lines: list[str]) -> list[str] | None:
    """The lines without `cat -n` prefixes, or None unless every line has one, numbered in a row."""
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
        out.append(line[m.end() :])
    return out


def _same_shape(old_lines: list[str], found: list[str]) -> bool:
    """Whether old_string keeps the found block's relative indentation, up to the base and unit.

    Re-indenting `new_string` is only safe when old_string's lines are nested like the file's: a
    flattened or reshuffled old_string would make a re-indented replacement silently wrong, so such
    a place is not a match (the miss then shows the closest lines and says indentation differs).
    """
    pairs = [(o, f) for o, f in zip(old_lines, found, strict=True) if o.strip()]

    def widths(texts: list[str]) -> list[int]:
        return [len(indent_of(t).expandtabs(8)) for t in texts]

    old_w = widths([o for o, _ in pairs])
    found_w = widths([f for _, f in pairs])
    return all(
        (a < b) == (c < d) and (a == b) == (c == d)
        for (a, c), (b, d) in zip(
            zip(old_w, found_w, strict=True), zip(old_w[1:], found_w[1:], strict=True), strict=False
        )
    ) and all((a < old_w[0]) == (c < found_w[0]) for a, c in zip(old_w, found_w, strict=True))


def _reindent(new: str, old_lines: list[str], found: list[str]) -> str:
    """Move `new` to the found block's indentation, keeping its relative indentation.

    The first non-blank line of old_string and of the found block fix the base of each side;
    every line of `new` keeps its offset from the old base, written in the found block's style
    (tabs or spaces).
    """
    pairs = [(o, f) for o, f in zip(old_lines, found, strict=True) if o.strip()]
    if not pairs or all(indent_of(o) == indent_of(f) for o, f in pairs):
        return new
    old_base, found_base = indent_of(pairs[0][0]), indent_of(pairs[0][1])
    new_lines = new.split("\n")
    src_indents = [indent_of(line) for line in [*old_lines, *new_lines] if line.strip()]
    found_indents = [indent_of(f) for f in found if f.strip()]
    to_tabs = any("\t" in s for s in found_indents) and not any(" " in s for s in found_indents)
    to_spaces = not any("\t" in s for s in found_indents)
    src_unit = _space_unit(src_indents)
    dst_unit = _space_unit(found_indents)

    def width(s: str) -> int:
        return sum(src_unit if c == "\t" else 1 for c in s)

    def render(rel: str) -> str:
        if to_tabs and " " in rel:
            tabs, spaces = divmod(width(rel), src_unit)
            return "\t" * tabs + " " * spaces
        if to_spaces and "\t" in rel:
            return rel.replace("\t", " " * dst_unit)
        return rel

    out = []
    for line in new_lines:
        if not line.strip():
            out.append(line)
            continue
        ind = indent_of(line)
        if ind.startswith(old_base):
            out.append(found_base + render(ind[len(old_base) :]) + line[len(ind) :])
            continue
        # Less indented than old_string's first line: remove the same width from the base.
        cut = width(old_base) - width(ind)
        base = found_base
        while cut > 0 and base:
            cut -= src_unit if base[-1] == "\t" else 1
            base = base[:-1]
        out.append(base + line[len(ind) :])
    return "\n".join(out)


def _space_unit(indents: list[str]) -> int:
    """The indentation step of space-indented lines (4 when it cannot be told)."""
    step = 0
    for s in indents:
        if s and "\t" not in s:
            step = gcd(step, len(s))
    return step if step > 1 else 4


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
