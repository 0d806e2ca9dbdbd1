"""multi_edit on a file over the `max_file_bytes` cap: exact edits placed by one streamed pass.

The edits apply in order, each to the text the ones before it made. Without that text in memory,
every needle is found in the file as it is (one pass, `find_lines`), and each edit's places are
those of its needle that no earlier edit replaced. That is the sequential result only when no
place involves an earlier edit's new bytes, so this is checked and anything else refused: every
changed span stands at least the longest needle away from every other, and a needle is looked
for in a window around each earlier replacement (its new bytes with the file's bytes either
side) — a place there would exist only in the text the earlier edit made. Then one more pass
hashes the file and the new content and numbers the lines (`hash_counting`), and the new file
is a `Splice` written by the kernel. Only exact matches, and the newlines tier in a CRLF file (an
old_string's bare LFs taken as CRLF): the tolerant tiers need the whole text.
"""

from __future__ import annotations

import bisect
import itertools
import os
from collections.abc import Sequence
from typing import Protocol

from edittools._errors import ToolError
from edittools.artifacts import ToolResult
from edittools.change._call import Call
from edittools.change._commit import change_result, commit, digest, with_refs
from edittools.change._sentence import overlap_of, summary
from edittools.change._streamed.scan import FIND_KEPT, find_lines
from edittools.change._streamed.text import check_text, crlf_variant
from edittools.change._streamed.windows import hash_and_diff
from edittools.diff import unified_excerpt
from edittools.state import Workspace
from sandbox import Splice

__all__ = ["streamed_multi_edit"]

Span = tuple[int, int, bytes]


class Replacement(Protocol):
    """One edit of a multi_edit: its text to find, the text to put there, and whether every
    place is changed (the tool's parameter model has these fields)."""

    @property
    def old_string(self) -> str: ...
    @property
    def new_string(self) -> str: ...
    @property
    def replace_all(self) -> bool: ...


def streamed_multi_edit(
    ws: Workspace, call: Call, path: str, edits: Sequence[Replacement]
) -> ToolResult:
    """Apply `edits` in order to the large file `path`, all or none (its lock held)."""
    needles = [e.old_string.encode() for e in edits]
    if not all(needles):
        raise ToolError(
            "invalid_arguments",
            f"{path} is over the size cap, where every edit needs an old_string to find.",
            {"path": path},
        )
    if all(e.old_string == e.new_string for e in edits):
        raise ToolError(
            "no_change", f"The edits together leave {path} as it was, so nothing was written."
        )
    chunk = max(ws.options.scan_chunk_bytes, 1)
    with ws.sandbox.open_reader(path) as reader:
        fd = reader.fileno()
        check_text(path, os.pread(fd, 4096, 0))
        size = os.fstat(fd).st_size
        # The newlines tier: a needle with bare LFs is also looked for with the file's CRLFs,
        # on the same pass, and used where the exact one is not found.
        variants = [crlf_variant(fd, needle) for needle in needles]
        extra = [v for v in variants if v is not None]
        found = find_lines(fd, needles + extra, chunk=chunk, anywhere=True,
                           checkpoint=call.pass_over(path, size))  # fmt: skip
        tiers = ["exact"] * len(edits)
        more = iter(found[len(needles) :])
        for k, variant in enumerate(variants):
            places = next(more) if variant is not None else []
            if variant is not None and not found[k] and places:
                needles[k], found[k], tiers[k] = variant, places, "newlines"
        spans = _place(fd, size, path, edits, needles, found[: len(edits)], tiers)
        version, new_digest, payload = hash_and_diff(ws, call, fd, path, size, spans)
        new_version = commit(ws, call, path, None, version, Splice(tuple(spans), size, new_digest))
    payload = with_refs(ws, payload, version.digest, digest(new_version))
    tier = next((t for t in tiers if t != "exact"), "exact")
    payload = payload.model_copy(update={"match": tier})
    first = summary(f"Applied {len(edits)} edits to", payload)
    if tier != "exact":
        first += " Matched with tolerance: newlines."
    return change_result(f"{first}\n{unified_excerpt(payload.unified)}", payload, None)


def _place(
    fd: int,
    size: int,
    path: str,
    edits: Sequence[Replacement],
    needles: list[bytes],
    found: list[list[tuple[int, int]]],
    tiers: list[str],
) -> list[Span]:
    """Every span the edits replace, in file order; raises when the result would not be the
    sequential one for certain, or an edit misses or is ambiguous."""
    gap = max(map(len, needles))
    starts: list[int] = []  # the spans so far, sorted by start
    spans: list[Span] = []
    for number, (edit, needle, places) in enumerate(zip(edits, needles, found, strict=True), 1):
        new = edit.new_string.encode()
        if tiers[number - 1] == "newlines":
            new = crlf_variant(fd, new) or new
        left = [
            (at, line) for at, line in places if not _overlaps(starts, spans, at, at + len(needle))
        ]
        if len(places) >= FIND_KEPT:
            raise _refused(number, edits, path, "its old_string is found in too many places")
        overlapping = any(b[0] < a[0] + len(needle) for a, b in itertools.pairwise(left))
        for start, stop, middle in spans:
            if _in_window(fd, size, needle, start, stop, middle):
                raise _refused(number, edits, path, "its old_string would match text an "
                               "earlier edit writes")  # fmt: skip
        if not left:
            raise _failed(number, edits, path, "no_match", "old_string was not found (exactly; "
                          "the file is over the size cap, so the tolerant tiers were skipped).",
                          {"skipped_tiers": True})  # fmt: skip
        if overlapping:
            lines = [line for _, line in left[:50]]
            raise _failed(number, edits, path, "ambiguous_match",
                          f"old_string matches {len(left)} places, starting at lines "
                          f"{', '.join(map(str, lines))}, and {overlap_of(len(left))}, so "
                          "replace_all cannot change every one either. Add surrounding text so "
                          "it matches one place.",
                          {"lines": lines, "overlapping": True})  # fmt: skip
        if len(left) > 1 and not edit.replace_all:
            lines = [line for _, line in left[:50]]
            raise _failed(number, edits, path, "ambiguous_match",
                          f"old_string matches {len(left)} places, starting at lines "
                          f"{', '.join(map(str, lines))}. Add surrounding text so it matches "
                          "one place, or set replace_all.", {"lines": lines})  # fmt: skip
        for at, _ in left:
            k = bisect.bisect(starts, at)
            before = spans[k - 1] if k else None
            after = spans[k] if k < len(spans) else None
            if (before is not None and at - before[1] < gap) or (
                after is not None and after[0] - (at + len(needle)) < gap
            ):
                raise _refused(number, edits, path, "it changes text too close to another "
                               "change")  # fmt: skip
            starts.insert(k, at)
            spans.insert(k, (at, at + len(needle), new))
    return spans


def _overlaps(starts: list[int], spans: list[Span], lo: int, hi: int) -> bool:
    """Whether ``[lo, hi)`` overlaps a span. Spans stand further apart than any needle is long,
    so only the one starting before `lo` and the next can."""
    k = bisect.bisect(starts, lo)
    return any(s < hi and lo < e for s, e, _ in spans[max(k - 1, 0) : k + 1])


def _in_window(fd: int, size: int, needle: bytes, start: int, stop: int, middle: bytes) -> bool:
    """Whether `needle` occurs, overlapping the new bytes `middle` (or across their place when
    empty), in the text an edit makes by writing `middle` over ``[start, stop)``."""
    reach = len(needle) - 1
    lo = max(0, start - reach)
    head = os.pread(fd, start - lo, lo)
    tail = os.pread(fd, min(reach, size - stop), stop)
    window = head + middle + tail
    at = window.find(needle)
    while at >= 0:
        if at < len(head) + len(middle) and at + len(needle) > len(head):
            return True
        at = window.find(needle, at + 1)
    return False


def _refused(number: int, edits: Sequence[Replacement], path: str, why: str) -> ToolError:
    return _failed(number, edits, path, "too_large",
                   f"{path} is over the size cap, where the edits are placed in the file as it "
                   f"is, and {why}, so the order of the edits could matter. Make it a separate "
                   "edit call, or use apply_patch.", {"path": path})  # fmt: skip


def _failed(number: int, edits: Sequence[Replacement], path: str, code: str, message: str,
            detail: dict[str, object]) -> ToolError:  # fmt: skip
    return ToolError(
        code,
        f"Edit {number} of {len(edits)} failed, so no edit was applied and {path} is unchanged. "
        + message,
        {**detail, "edit_index": number - 1},
    )
