"""The diff of a streamed change, cut from windows read around its spans of a large open file."""

from __future__ import annotations

import os

from edittools._errors import ToolError
from edittools.artifacts import DiffPayload
from edittools.change._call import Call
from edittools.change._fresh import ensure_fresh
from edittools.change._streamed.scan import hash_counting
from edittools.diff import diff_spans, hunks_payload
from edittools.state import Workspace
from sandbox import Version

__all__ = ["hash_and_diff", "windowed_diff"]

_CONTEXT = 3


def hash_and_diff(
    ws: Workspace,
    call: Call,
    fd: int,
    path: str,
    size: int,
    spans: list[tuple[int, int, bytes]],
    *,
    must_have_read: bool = True,
) -> tuple[Version, str, DiffPayload]:
    """The file's version, the new content's digest and the diff of `spans` placed in the open
    large file `fd` of `size` bytes: one pass hashes both contents and numbers each span's line.

    Refuses (`stale_read`) a file that changed while the spans were placed, or since it was read.
    """
    chunk = max(ws.options.scan_chunk_bytes, 1)
    version, lines, new_digest = hash_counting(fd, spans, chunk=chunk,
                                               checkpoint=call.pass_over(path, size))  # fmt: skip
    if version.size != size:
        raise ToolError(
            "stale_read",
            f"{path} changed while the change was being placed. Read it again, then retry.",
            {"path": path},
        )
    ensure_fresh(ws, call, path, None, version, must_have_read=must_have_read)
    return version, new_digest, windowed_diff(fd, size, path, tuple(spans), lines)


def windowed_diff(
    fd: int,
    size: int,
    path: str,
    spans: tuple[tuple[int, int, bytes], ...],
    lines: list[int],
    *,
    context: int = _CONTEXT,
) -> DiffPayload:
    """The diff of `spans` replaced in the open file `fd`, from windows read around them.

    Each window runs from `context` lines before a change to `context` lines after it (merged
    where they overlap), so hunks, line numbers and `+N/-N` are those of the whole file while
    only the windows are read. The texts are left out (`truncated`).
    """
    groups: list[tuple[int, int, int, list[tuple[int, int, bytes]]]] = []
    for (start, stop, new), line in zip(spans, lines, strict=True):
        lo = _back(fd, start, context + 1)
        hi = _ahead(fd, size, stop, context + 1)
        if groups and lo <= groups[-1][1]:
            g_lo, _, g_line, members = groups[-1]
            groups[-1] = (g_lo, hi, g_line, [*members, (start, stop, new)])
        else:
            groups.append((lo, hi, line, [(start, stop, new)]))
    parts = []
    for lo, hi, line, members in groups:
        window = os.pread(fd, hi - lo, lo)
        inside = [(s - lo, e - lo, r) for s, e, r in members]
        parts.append(diff_spans(window, inside, path=path, context=context,
                                include_texts=False, first_line=line, binary=False))  # fmt: skip
    return _joined(parts, path)


def _joined(parts: list[DiffPayload], path: str) -> DiffPayload:
    """One payload of the hunks of several windows of the same file.

    Each window's new line numbers count from its own first line; the changes of the windows
    before it shift them by what they added less what they removed.
    """
    first = parts[0]
    if len(parts) > 1:
        hunks = []
        shift = 0
        for part in parts:
            for hunk in part.hunks:
                start = None if hunk.new_start is None else hunk.new_start + shift
                hunks.append(hunk.model_copy(update={"new_start": start}))
            shift += part.stats.added - part.stats.removed
        minimal = all(p.minimal for p in parts)
        first = hunks_payload(hunks, path=path).model_copy(update={"minimal": minimal})
    return first.model_copy(update={"granularity": "snippet", "truncated": True})


_WINDOW = 1 << 16
_MAX_WINDOW = 32 << 20


def _back(fd: int, at: int, count: int) -> int:
    """The start of the line `count - 1` lines before the one holding offset `at`."""
    width = _WINDOW
    while True:
        lo = max(0, at - width)
        data = os.pread(fd, at - lo, lo)
        end = len(data)
        for _ in range(count):
            end = data.rfind(b"\n", 0, end)
            if end < 0:
                break
        if end >= 0:
            return lo + end + 1
        if lo == 0 or width >= _MAX_WINDOW:
            # The file's start, or lines so long that fewer context lines are shown.
            first = data.find(b"\n")
            return lo if lo == 0 or first < 0 else lo + first + 1
        width *= 2


def _ahead(fd: int, size: int, at: int, count: int) -> int:
    """The offset just past the `count`th line end from offset `at` (or the file's end)."""
    width = _WINDOW
    while True:
        data = os.pread(fd, min(width, size - at), at)
        end = -1
        for _ in range(count):
            end = data.find(b"\n", end + 1)
            if end < 0:
                break
        if end >= 0:
            return at + end + 1
        if at + len(data) >= size or width >= _MAX_WINDOW:
            last = data.rfind(b"\n")
            return size if at + len(data) >= size or last < 0 else at + last + 1
        width *= 2
