"""Diff payloads from other runtimes' patch shapes: structured-patch hunk lists and unified text.

These shapes carry real line numbers but not the full texts, so the payload has `file`
granularity with `old`/`new` null. Hunks whose counts disagree with their lines are refused
(None), so the caller can fall back to a snippet diff or plain text. Unified text is read by the
diff package's parser, the same one the patch tool applies.
"""

from __future__ import annotations

import re
from typing import Any

from edittools.artifacts import DiffPayload, Hunk
from edittools.dialects._fields import integer, items, relative_path
from edittools.diff import DiffError, PatchHunk, hunks_payload, parse_unified

_NO_NEWLINE = "\\ No newline at end of file"
_FENCE = re.compile(r"^(`{3,})[^\n]*\n(.*?)^\1[ \t]*$", re.MULTILINE | re.DOTALL)


def payload_from_hunks(hunks: list[Hunk], *, path: str) -> DiffPayload:
    """A file-granularity payload of known hunks whose full texts are unknown."""
    return hunks_payload(hunks, path=path)


def structured_patch_hunks(patch: Any) -> list[Hunk] | None:
    """Hunks from a `[{oldStart, oldLines, newStart, newLines, lines}]` list; None if unsound."""
    if not isinstance(patch, list) or not patch:
        return None
    hunks: list[Hunk] = []
    for entry in patch:
        numbers = [integer(entry, k) for k in ("oldStart", "oldLines", "newStart", "newLines")]
        counts = [n for n in numbers if n is not None and n >= 0]
        lines = items(entry, "lines")
        if len(counts) != len(numbers) or not all(isinstance(x, str) for x in lines):
            return None
        old_start, old_lines, new_start, new_lines = counts
        hunk = _sound_hunk(old_start, old_lines, new_start, new_lines, lines)
        if hunk is None:
            return None
        hunks.append(hunk)
    return hunks


def payload_from_unified(text: str, *, root: str | None = None) -> list[DiffPayload] | None:
    """Parse unified diff text (optionally inside a Markdown code fence) into one payload per
    file; None when it holds no parsable diff."""
    fenced = _FENCE.search(text)
    body = fenced.group(2) if fenced else text
    try:
        patches = parse_unified(body)
    except DiffError:
        return None
    payloads: list[DiffPayload] = []
    for patch in patches:
        hunks: list[Hunk] = []
        for h in patch.hunks:
            if h.old_start is None or h.new_start is None:
                return None
            hunk = _sound_hunk(
                h.old_start,
                h.old_count or 0,
                h.new_start,
                h.new_count or 0,
                _marked(h),
                heading=h.heading,
            )
            if hunk is None:
                return None
            hunks.append(hunk)
        path = relative_path(patch.move_to or patch.path, root)
        payloads.append(payload_from_hunks(hunks, path=path))
    return payloads or None


def _marked(hunk: PatchHunk) -> list[str]:
    """The hunk's lines with its `\\ No newline at end of file` markers put back as lines."""
    lines = list(hunk.lines)
    old_last = max((k for k, line in enumerate(lines) if line[:1] in " -"), default=None)
    new_last = max((k for k, line in enumerate(lines) if line[:1] in " +"), default=None)
    ends = {
        k
        for k, missing in ((old_last, hunk.old_no_newline), (new_last, hunk.new_no_newline))
        if k is not None and missing
    }
    for k in sorted(ends, reverse=True):
        lines.insert(k + 1, _NO_NEWLINE)
    return lines


def _sound_hunk(
    old_start: int,
    old_lines: int,
    new_start: int,
    new_lines: int,
    lines: list[str],
    *,
    heading: str | None = None,
) -> Hunk | None:
    kept = [line.rstrip("\r\n") for line in lines]
    old_count = sum(1 for line in kept if line[:1] in (" ", "-"))
    new_count = sum(1 for line in kept if line[:1] in (" ", "+"))
    markers_ok = all(line[:1] in (" ", "-", "+") or line == _NO_NEWLINE for line in kept)
    if not markers_ok or old_count != old_lines or new_count != new_lines:
        return None
    return Hunk(
        old_start=old_start,
        old_lines=old_lines,
        new_start=new_start,
        new_lines=new_lines,
        lines=kept,
        heading=heading,
    )
