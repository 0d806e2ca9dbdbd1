"""Diff payloads from other runtimes' patch shapes: structured-patch hunk lists and unified text.

These shapes carry real line numbers but not the full texts, so the payload has `file`
granularity with `old`/`new` null. Hunks whose counts disagree with their lines are refused
(None), so the caller can fall back to a snippet diff or plain text.
"""

from __future__ import annotations

import re
from typing import Any

from unidiff.errors import UnidiffParseError
from unidiff.patch import PatchSet

from edittools.artifacts import DiffPayload, Hunk
from edittools.dialects._fields import integer, items, relative_path

# The diff package renders and counts hunks; its helpers are reused so the unified text and
# stats of a foreign patch follow the same rules as the engine's own.
from edittools.diff._hunks import stats_of
from edittools.diff._unified import unified_text

_NO_NEWLINE = "\\ No newline at end of file"
_FENCE = re.compile(r"^(`{3,})[^\n]*\n(.*?)^\1[ \t]*$", re.MULTILINE | re.DOTALL)


def payload_from_hunks(hunks: list[Hunk], *, path: str) -> DiffPayload:
    """A file-granularity payload of known hunks whose full texts are unknown."""
    return DiffPayload(
        path=path,
        hunks=hunks,
        unified=unified_text("modify", path, None, hunks),
        stats=stats_of(hunks),
    )


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
        patch = PatchSet(body)
    except (UnidiffParseError, ValueError, IndexError):
        return None
    payloads: list[DiffPayload] = []
    for patched in patch:
        hunks: list[Hunk] = []
        for h in patched:
            lines = [
                _NO_NEWLINE if line.line_type == "\\" else line.line_type + line.value.rstrip("\n")
                for line in h
            ]
            hunk = _sound_hunk(
                h.source_start, h.source_length, h.target_start, h.target_length, lines
            )
            if hunk is None:
                return None
            hunks.append(hunk)
        path = relative_path(_strip_prefix(patched.target_file or patched.path), root)
        payloads.append(payload_from_hunks(hunks, path=path))
    return payloads or None


def _strip_prefix(name: str) -> str:
    for prefix in ("b/", "a/"):
        if name.startswith(prefix):
            return name[len(prefix) :]
    return name


def _sound_hunk(
    old_start: int, old_lines: int, new_start: int, new_lines: int, lines: list[str]
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
    )
