"""The closest region of a file to a snippet that was not found, and how the two differ.

The search is bounded whatever the file's size: candidate regions come only from the lines
holding the snippet's rarest words (a few `str.count`/`str.find` calls), at most `_MAX_CANDIDATES`
of them are scored, and only the first `_MAX_WINDOW` lines of the snippet take part.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher, unified_diff
from typing import Any

from edittools.tools.matching._textlines import (
    Lines,
    fold_and_strip,
    indent_of,
    split_old,
    strip_both,
    strip_trailing,
)

_MAX_WINDOW = 40
_MAX_TOKENS = 6
_RARE_TOKENS = 3
_MAX_HITS = 64
_MAX_CANDIDATES = 150
_MAX_SCORED = 8
_MAX_CHARS = 4000
_MAX_SHOWN_CHARS = 200
_MAX_DIFF_LINES = 40


def describe_miss(lines: Lines, snippet: str) -> dict[str, Any] | None:
    """Find the region of `lines` most like `snippet`, or None when no line shares a word with it.

    The result holds 1-based `start_line` and `end_line`, the region's `lines`, the same lines
    `numbered` like `cat -n`, a `diff` from the snippet to the region, a one-phrase `hint` and a
    `similarity` between 0 and 1.
    """
    old_lines, _ = split_old(snippet)
    if not len(lines) or not old_lines:
        return None
    window = min(len(old_lines), _MAX_WINDOW, len(lines))
    view = old_lines[:window]
    starts = _candidates(lines, view, window)
    if not starts:
        return None
    key = "\n".join(strip_both(line) for line in view)[:_MAX_CHARS]
    scored = []
    for s in starts:
        region = "\n".join(strip_both(line) for line in lines.contents[s : s + window])
        sm = SequenceMatcher(None, key, region[:_MAX_CHARS], autojunk=False)
        scored.append((sm.quick_ratio(), s, sm))
    scored.sort(key=lambda t: (-t[0], t[1]))
    ratio, best = max(((sm.ratio(), -s) for _, s, sm in scored[:_MAX_SCORED]))
    start = -best
    region_lines = lines.contents[start : start + window]
    return {
        "start_line": start + 1,
        "end_line": start + window,
        "lines": region_lines,
        "numbered": [
            f"{start + 1 + k:>6}\t{line[:_MAX_SHOWN_CHARS]}" for k, line in enumerate(region_lines)
        ],
        "diff": _diff(view, region_lines),
        "hint": _hint(view, region_lines, len(old_lines) > window),
        "similarity": round(ratio, 3),
    }


def _candidates(lines: Lines, view: list[str], window: int) -> list[int]:
    """Start lines of regions that align a rare word of the snippet with that word in the file."""
    joined = "\n".join(view)
    tokens = sorted(set(re.findall(r"\w{2,}", joined)), key=lambda t: (-len(t), t))
    if not tokens:
        tokens = sorted(set(re.findall(r"\S{2,}", joined)), key=lambda t: (-len(t), t))
    counted = [(lines.text.count(t), t) for t in tokens[:_MAX_TOKENS]]
    rare = sorted((c, t) for c, t in counted if c)[:_RARE_TOKENS]
    starts: set[int] = set()
    for _, token in rare:
        j = next(k for k, line in enumerate(view) if token in line)
        pos = lines.text.find(token)
        hits = 0
        while pos != -1 and hits < _MAX_HITS and len(starts) < _MAX_CANDIDATES:
            start = lines.line_index(pos) - j
            starts.add(min(max(start, 0), len(lines) - window))
            pos = lines.text.find(token, pos + len(token))
            hits += 1
    return sorted(starts)


def _diff(view: list[str], region: list[str]) -> list[str]:
    body = [
        line
        for line in unified_diff(view, region, lineterm="", n=len(view) + len(region))
        if not line.startswith(("---", "+++", "@@"))
    ]
    if len(body) > _MAX_DIFF_LINES:
        body = [*body[:_MAX_DIFF_LINES], f"... {len(body) - _MAX_DIFF_LINES} more lines"]
    return [line[:_MAX_SHOWN_CHARS] for line in body]


def _hint(view: list[str], region: list[str], cut: bool) -> str:
    if list(map(strip_trailing, view)) == list(map(strip_trailing, region)):
        return "only trailing whitespace differs"
    if list(map(strip_both, view)) == list(map(strip_both, region)):
        old_tabs = any("\t" in indent_of(line) for line in view)
        file_tabs = any("\t" in indent_of(line) for line in region)
        if old_tabs != file_tabs:
            return "indentation differs (tabs versus spaces)"
        return "indentation differs"
    if list(map(fold_and_strip, view)) == list(map(fold_and_strip, region)):
        return "quotes, dashes or special spaces differ"
    differing = sum(a != b for a, b in zip(view, region, strict=True))
    note = f"{differing} of {len(view)} lines differ"
    if cut:
        note += f" (only the first {len(view)} lines of old_string were compared)"
    return note
