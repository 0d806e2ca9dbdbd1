"""apply_patch's update of a file over the `max_file_bytes` cap: hunks placed by a streamed pass.

Each hunk's old lines (context and removed), spelt with the file's newline style, are looked
for as bytes that start and end on line boundaries; all hunks in one pass over the file (see
`find_lines`), every occurrence with its line. A unified hunk takes the occurrence nearest the
line its header states (shifted by how far the hunks before it were found from theirs), a Codex
hunk the first after the hunk before it. Then one more pass hashes the file and the patched
content and numbers each hunk's line (`hash_counting`) while the kernel writes the new file beside
it (a `SpliceWriter`, kept open by the caller until the all-or-nothing commit of the patch's
files; a dry run writes nothing and hands back the `Splice`).

Only exact context is matched (the tolerant tiers need the whole text as lines, so a miss says
they were skipped), and a hunk must have context or removed lines to be placed.
"""

from __future__ import annotations

import os
from contextlib import ExitStack

from edittools._errors import ToolError
from edittools.artifacts import DiffPayload
from edittools.change._call import Call
from edittools.change._commit import open_for_change
from edittools.change._streamed.scan import FIND_KEPT, find_lines
from edittools.change._streamed.text import check_text, crlf_file
from edittools.change._streamed.windows import hash_and_diff
from edittools.diff import FilePatch, PatchHunk
from edittools.state import Workspace
from sandbox import Splice, Staged, Version

__all__ = ["streamed_patch"]

Span = tuple[int, int, bytes]


def streamed_patch(
    ws: Workspace, call: Call, path: str, patch: FilePatch, held: ExitStack
) -> tuple[Splice | Staged, Version, DiffPayload]:
    """The new content (staged, or a splice in a dry run), the file's version and the diff of
    `patch` (an update) on the large file `path` (its lock held); raises `patch_conflict` when a
    hunk does not match exactly. `held` keeps the staged file's writer open for the commit."""
    if patch.op != "update" or patch.move_to is not None:
        raise ToolError(
            "too_large",
            f"{path} is over the size cap; a patch may only update it in place (hunks), not "
            "delete, move or replace it whole. Use an update section.",
            {"path": path},
        )
    chunk = max(ws.options.scan_chunk_bytes, 1)
    writer, fd = open_for_change(ws, call, path, held)
    check_text(path, os.pread(fd, 4096, 0))
    nl = b"\r\n" if crlf_file(fd) else b"\n"
    blocks = [_blocks(path, number, hunk, nl) for number, hunk in enumerate(patch.hunks, 1)]
    size = os.fstat(fd).st_size
    found = find_lines(fd, [old for old, _ in blocks], chunk=chunk,
                       checkpoint=call.pass_over(path, size))  # fmt: skip
    spans = _place(path, patch.hunks, blocks, found, size)
    if writer is not None:
        for start, stop, new in spans:  # the kernel writes the new file from now on
            writer.replace(start, stop, new)
        writer.keep(size)
    version, new_digest, payload = hash_and_diff(
        ws, call, fd, path, size, spans, must_have_read=False
    )
    content: Splice | Staged = (
        Splice(tuple(spans), size, new_digest)
        if writer is None
        else writer.finish(size, new_digest)
    )
    return content, version, payload.model_copy(update={"match": "exact"})


def _blocks(path: str, number: int, hunk: PatchHunk, nl: bytes) -> tuple[bytes, bytes]:
    """A hunk's old and new lines as bytes, each line ended with `nl` (but a last line the
    patch marks as having no newline)."""
    old = [_body(line) for line in hunk.lines if line[0] in " -"]
    new = [_body(line) for line in hunk.lines if line[0] in " +"]
    if not old:
        raise ToolError(
            "too_large",
            f"Hunk {number} of {path} has no context or removed lines, and the file is over the "
            "size cap, where a hunk is placed by its lines. Add a few context lines to it.",
            {"path": path, "hunk": number},
        )
    return _joined(old, nl, hunk.old_no_newline), _joined(new, nl, hunk.new_no_newline)


def _joined(lines: list[str], nl: bytes, no_newline: bool) -> bytes:
    if not lines:
        return b""
    data = nl.join(line.encode() for line in lines) + nl
    return data[: -len(nl)] if no_newline else data


def _body(line: str) -> str:
    body = line[1:]
    return body[:-1] if body.endswith("\r") else body


def _place(
    path: str,
    hunks: tuple[PatchHunk, ...],
    blocks: list[tuple[bytes, bytes]],
    found: list[list[tuple[int, int]]],
    size: int,
) -> list[Span]:
    """The byte span each hunk replaces, in order and not overlapping."""
    spans: list[Span] = []
    pos = 0  # where the next hunk may start
    delta = 0  # lines between where the hunks so far were found and where they said they were
    for number, (hunk, (old, new), places) in enumerate(zip(hunks, blocks, found, strict=True), 1):
        ok = [
            (at, line)
            for at, line in places
            if at >= pos and (not hunk.old_no_newline or at + len(old) == size)
        ]
        if hunk.old_start is not None and ok and len(places) < FIND_KEPT:
            want = hunk.old_start + delta
            at, line = min(ok, key=lambda p: (abs(p[1] - want), p[0]))
            delta = line - hunk.old_start
        elif hunk.old_start is None and len(ok) == 1 and len(places) < FIND_KEPT:
            at, line = ok[0]
        else:
            lines = [line for _, line in ok[:10]]
            raise ToolError(
                "patch_conflict",
                f"Hunk {number} of {path} "
                + (
                    "does not match the file exactly"
                    if not ok
                    else f"matches {len(ok)} places (lines {', '.join(map(str, lines))})"
                )
                + ". The file is over the size cap, so only exact context is matched (the "
                "tolerant tiers were skipped) and a hunk without line numbers must match one "
                "place. Read the lines (read with offset and limit) and make the patch from them.",
                {"path": path, "hunk": number, "lines": lines, "skipped_tiers": True},
            )
        spans.append((at, at + len(old), new))
        pos = at + len(old)
    return spans
