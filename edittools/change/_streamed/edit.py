"""`edit` on a file over the `max_file_bytes` cap: found by a streamed scan, written by the kernel.

The file is never held in memory. One pass (`scan.scan`) finds the matches with their line
numbers and hashes both the file (its version, for the read check and the compare-and-swap) and
the content the edit makes; the new file is then written as a `Splice` — unchanged ranges copied
by the kernel, the replacements written between them — through the same all-or-nothing commit as
every change, which links the old inode into the store as the undo snapshot.

Only the exact tier runs, and the newline-style tier for a CRLF file (old_string's bare LFs taken
as CRLF, on a second pass when the first found nothing): the tolerant tiers need the whole text
as lines, so the result says they were skipped. The artifact is a diff at snippet granularity:
its hunks are cut from windows of a few lines read around each change, with true line numbers.
"""

from __future__ import annotations

import os
import re
from contextlib import ExitStack

from edittools._errors import ToolError
from edittools.artifacts import ToolResult
from edittools.change._call import Call
from edittools.change._commit import change_result, commit, digest, open_for_change, with_refs
from edittools.change._fresh import ensure_fresh
from edittools.change._sentence import overlap_of, summary
from edittools.change._streamed.scan import Scan, scan
from edittools.change._streamed.text import check_text, crlf, crlf_file
from edittools.change._streamed.windows import windowed_diff
from edittools.diff import unified_excerpt
from edittools.state import Workspace
from sandbox import Splice

__all__ = ["streamed_edit"]

_BARE_LF = re.compile(rb"(?<!\r)\n")
_SKIPPED = (
    "The file is over the size cap for whole-file matching, so only the exact and newline-style "
    "matches were tried; the tolerant tiers (whitespace, indentation, elisions) were skipped."
)


def streamed_edit(
    ws: Workspace, call: Call, path: str, old_string: str, new_string: str, *, replace_all: bool
) -> ToolResult:
    """Replace `old_string` with `new_string` in the large file `path` (every place with
    `replace_all`) without reading it into memory (lock held)."""
    step = max(ws.options.scan_chunk_bytes, 1)
    with ExitStack() as held:
        # The new file is written by the kernel on another thread while the scan reads on.
        writer, fd = open_for_change(ws, call, path, held)
        check_text(path, os.pread(fd, 4096, 0))
        needle, replacement = old_string.encode(), new_string.encode()
        if needle == replacement:
            raise ToolError(
                "no_change",
                "old_string and new_string are identical, so the edit would change nothing. "
                "Put the text you want in new_string.",
            )
        tier = "exact"
        size = os.fstat(fd).st_size
        found = scan(fd, needle, replacement, replace_all=replace_all, chunk=step,
                     writer=writer, checkpoint=call.pass_over(path, size))  # fmt: skip
        if not found.count and _BARE_LF.search(needle) and crlf_file(fd):
            tier = "newlines"
            needle, replacement = crlf(needle), crlf(replacement)
            if writer is not None:
                writer.reset()
            found = scan(fd, needle, replacement, replace_all=replace_all, chunk=step,
                         writer=writer, checkpoint=call.pass_over(path, size))  # fmt: skip
        version = found.version
        assert version is not None
        ensure_fresh(ws, call, path, None, version)
        _check_found(path, found, replace_all)
        assert found.new_digest is not None
        spans = tuple((s, s + len(needle), replacement) for s in found.starts)
        payload = windowed_diff(fd, version.size, path, spans, found.lines)
        new = (
            Splice(spans, version.size, found.new_digest)
            if writer is None
            else writer.finish(version.size, found.new_digest)
        )
        new_version = commit(ws, call, path, None, version, new)
    payload = with_refs(ws, payload, version.digest, digest(new_version))
    payload = payload.model_copy(update={"match": tier})
    first = summary("Edited", payload)
    if len(spans) > 1:
        first = summary(f"Replaced {len(spans)} occurrences in", payload)
    if tier != "exact":
        first += " Matched with tolerance: newlines."
    return change_result(f"{first}\n{unified_excerpt(payload.unified)}", payload, None)


def _check_found(path: str, found: Scan, replace_all: bool) -> None:
    if not found.count:
        raise ToolError(
            "no_match",
            f"old_string was not found in {path} (exactly, or with CRLF line ends). {_SKIPPED} "
            "Read the lines to change (read with offset and limit) and copy them exactly.",
            {"closest": None, "skipped_tiers": True},
        )
    if found.count > 1 and (not replace_all or found.overlapping):
        lines = list(dict.fromkeys(found.lines))
        shown = ", ".join(map(str, lines))
        if found.count > len(found.lines):
            shown += " and more"
        detail: dict[str, object] = {"count": found.count, "lines": found.lines, "match": "exact"}
        if found.overlapping:
            detail["overlapping"] = True
            raise ToolError(
                "ambiguous_match",
                f"old_string matches {found.count} places, starting at lines {shown}, and "
                f"{overlap_of(found.count)}, so replace_all cannot change every one either. "
                "Add surrounding lines to old_string so it matches one place.",
                detail,
            )
        raise ToolError(
            "ambiguous_match",
            f"old_string matches {found.count} places, starting at lines {shown}. Add "
            "surrounding lines to old_string so it matches one place, or set replace_all to "
            "change every match.",
            detail,
        )
