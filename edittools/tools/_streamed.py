"""`edit` on a file over the `max_file_bytes` cap: found by a streamed scan, written by the kernel.

The file is never held in memory. One pass (`_scan.scan`) finds the matches with their line
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
from edittools._workspace import Change, Planned, Workspace
from edittools.artifacts import DiffPayload, ToolResult
from edittools.diff import diff_spans, hunks_payload, unified_excerpt
from edittools.tools._change import change_result, commit, digest, summary, with_refs
from edittools.tools._guard import ensure_fresh
from edittools.tools._params import EditParams
from edittools.tools._scan import Scan, hash_counting, scan
from sandbox import SandboxError, Version, bom_candidates, looks_binary

__all__ = ["check_text", "crlf_variant", "streamed_edit", "streamed_undo", "windowed_diff"]

_CONTEXT = 3
_BARE_LF = re.compile(rb"(?<!\r)\n")
_SKIPPED = (
    "The file is over the size cap for whole-file matching, so only the exact and newline-style "
    "matches were tried; the tolerant tiers (whitespace, indentation, elisions) were skipped."
)


def streamed_edit(ws: Workspace, path: str, params: EditParams) -> ToolResult:
    """Apply `params` to the large file `path` without reading it into memory (lock held)."""
    step = max(ws.options.scan_chunk_bytes, 1)
    with ws.sandbox.splice_writer(path) as writer:
        fd = writer.fileno()
        check_text(path, os.pread(fd, 4096, 0))
        needle, replacement = params.old_string.encode(), params.new_string.encode()
        if needle == replacement:
            raise ToolError(
                "no_change",
                "old_string and new_string are identical, so the edit would change nothing. "
                "Put the text you want in new_string.",
            )
        tier = "exact"
        # The new file is written by the kernel on another thread while the scan reads on.
        live = None if ws.dry_run else writer
        found = scan(fd, needle, replacement, replace_all=params.replace_all, chunk=step,
                     writer=live, checkpoint=ws.stop_if_cancelled)  # fmt: skip
        if not found.count and _BARE_LF.search(needle) and crlf_file(fd):
            tier = "newlines"
            needle, replacement = _crlf(needle), _crlf(replacement)
            if live is not None:
                writer.reset()
            found = scan(fd, needle, replacement, replace_all=params.replace_all, chunk=step,
                         writer=live, checkpoint=ws.stop_if_cancelled)  # fmt: skip
        version = found.version
        assert version is not None
        ensure_fresh(ws, path, None, version)
        _check_found(path, found, params.replace_all)
        assert found.new_digest is not None
        spans = tuple((s, s + len(needle), replacement) for s in found.starts)
        payload = windowed_diff(fd, version.size, path, spans, found.lines)
        staged = None if live is None else writer.finish(version.size, found.new_digest)
        new_version = commit(ws, path, None, version, staged)
    payload = with_refs(ws, payload, version.digest, digest(new_version))
    payload = payload.model_copy(update={"match": tier})
    first = summary("Edited", payload)
    if len(spans) > 1:
        first = summary(f"Replaced {len(spans)} occurrences in", payload)
    if tier != "exact":
        first += " Matched with tolerance: newlines."
    return change_result(f"{first}\n{unified_excerpt(payload.unified)}", payload, None)


def check_text(path: str, head: bytes) -> None:
    """Refuse what a byte match cannot edit faithfully: UTF-16/32 text, binary files."""
    if any(encoding != "utf-8-sig" for encoding, _ in bom_candidates(head)):
        raise ToolError(
            "undecodable",
            f"{path} is over the size cap and is not UTF-8; a file this large is edited only "
            "when it is UTF-8. Convert it, or edit it with another tool.",
            {"path": path},
        )
    if looks_binary(head):
        raise ToolError(
            "binary",
            f"{path} looks binary (a NUL byte near the start); edit changes text files only.",
            {"path": path},
        )


def crlf_file(fd: int) -> bool:
    """Whether the file's first line ends with CRLF (its newline style, for the newlines tier)."""
    head = os.pread(fd, 1 << 16, 0)
    at = head.find(b"\n")
    return at > 0 and head[at - 1 : at] == b"\r"


def _crlf(data: bytes) -> bytes:
    return _BARE_LF.sub(b"\r\n", data)


def crlf_variant(fd: int, data: bytes) -> bytes | None:
    """`data` with its bare LFs as CRLF, when the file's newline style is CRLF and `data` has
    any (the newlines tier: a model writes LF); else None."""
    return _crlf(data) if _BARE_LF.search(data) and crlf_file(fd) else None


def _check_found(path: str, found: Scan, replace_all: bool) -> None:
    if not found.count:
        raise ToolError(
            "no_match",
            f"old_string was not found in {path} (exactly, or with CRLF line ends). {_SKIPPED} "
            "Read the lines to change (read with offset and limit) and copy them exactly.",
            {"closest": None, "skipped_tiers": True},
        )
    if found.count > 1 and not replace_all:
        lines = list(dict.fromkeys(found.lines))
        shown = ", ".join(map(str, lines))
        if found.count > len(found.lines):
            shown += " and more"
        raise ToolError(
            "ambiguous_match",
            f"old_string matches {found.count} places, starting at lines {shown}. Add "
            "surrounding lines to old_string so it matches one place, or set replace_all to "
            "change every match.",
            {"count": found.count, "lines": found.lines, "match": "exact"},
        )


def settled(
    ws: Workspace,
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
                                               checkpoint=ws.stop_if_cancelled)  # fmt: skip
    if version.size != size:
        raise ToolError(
            "stale_read",
            f"{path} changed while the change was being placed. Read it again, then retry.",
            {"path": path},
        )
    ensure_fresh(ws, path, None, version, must_have_read=must_have_read)
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


def streamed_undo(ws: Workspace, change: Change) -> ToolResult:
    """Undo `change` of a file over the cap by putting its replaced spans back (lock held).

    Possible when the change's new content is kept as a recipe on the old one (a few spans of at
    most 64 KiB of new bytes in all): the file is hashed in one pass and must still be what the
    change wrote; the restored content is then that file with the recipe's spans holding the old
    bytes again, hashed on the same pass, and must be the old content (the undo snapshot's id)
    or nothing is written. Anything else is refused with too_large.
    """
    path = change.path
    recipe = ws.recipe(change.after_digest or "")
    if change.before_blob is None or recipe is None or recipe.base != change.before_blob:
        raise ToolError(
            "too_large",
            f"{path} is over the size cap, and its last change (a replacement of very many "
            "places or of a large text) cannot be undone by splicing spans back. Edit it back "
            "instead.",
            {"path": path},
        )
    spans = []  # in the file as it is now: the change's new bytes, to hold the old ones again
    shift = 0
    try:
        for start, stop, middle in recipe.spans:
            old = ws.sandbox.store.read_range(recipe.base, start, stop)
            spans.append((start + shift, start + shift + len(middle), old))
            shift += len(middle) - (stop - start)
    except SandboxError as exc:
        raise ToolError.from_sandbox(exc) from exc
    with ExitStack() as held:
        # The kernel writes the restored file while the pass below checks and hashes this one;
        # a check that fails closes the writer without a commit, which removes its temp file.
        writer = None if ws.dry_run else held.enter_context(ws.sandbox.splice_writer(path))
        fd = (writer or held.enter_context(ws.sandbox.open_reader(path))).fileno()
        if writer is not None:
            for start, stop, old in spans:
                writer.replace(start, stop, old)
            writer.keep(os.fstat(fd).st_size)
        version, lines, restored = hash_counting(
            fd, spans, chunk=max(ws.options.scan_chunk_bytes, 1), checkpoint=ws.stop_if_cancelled
        )
        wrote = all(
            os.pread(fd, len(middle), at) == middle
            for (at, _, _), (_, _, middle) in zip(spans, recipe.spans, strict=True)
        )
        if version.digest != change.after_digest or not wrote:
            raise ToolError(
                "stale_read",
                f"{path} changed after this session's last change to it, so undo would discard "
                "that newer work. Read the file and edit it instead.",
                {"path": path},
            )
        if restored != change.before_blob:
            # The spans read from the snapshot are not what the change replaced: the snapshot
            # was damaged or tampered with. Their bytes are never committed.
            raise ToolError.from_sandbox(
                SandboxError(
                    "blob_corrupt",
                    f"The undo snapshot of {path} no longer holds what the change replaced; the "
                    "file was left as it is. Edit it back instead.",
                    path=path,
                )
            )
        put_back = tuple(spans)
        payload = windowed_diff(fd, version.size, path, put_back, lines)
        if writer is None:
            ws.sandbox.check_write(path)
        else:
            staged = writer.finish(version.size, change.before_blob)
            ws.commit([Planned(path, None, version, staged)], undoes=change)
    new_id = None if ws.dry_run else change.before_blob
    payload = with_refs(ws, payload, version.digest, new_id)
    return change_result(summary("Undid the last change to", payload), payload, None)
