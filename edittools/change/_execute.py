"""One span of a file's text replaced where a tool finds it: the core of edit_symbol and edit_lines.

The tool gives a `Locate`: where its change goes in a document and what goes there. It is run on
the file as it is now and, when the file changed since this session read it, on the content read
too, so the change is judged on its own region like every other (`_region.made_elsewhere`).
Everything else is the common path of a change: the lock, the file's encoding and newlines (the
splice adopts them), the syntax check (`vet`: refused or warned as the policy says) and the commit
(`_executor`), the diff and its refs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from edittools._errors import ToolError
from edittools._workspace import Workspace
from edittools.artifacts import ToolResult
from edittools.change._call import Call
from edittools.change._commit import (
    change_result,
    commit,
    digest,
    refuse_nul,
    vet,
    wants_texts,
    with_refs,
)
from edittools.change._fresh import fresh_or_base, read_existing
from edittools.change._numbering import excerpt
from edittools.change._region import Lines, made_elsewhere
from edittools.diff import diff_spans
from sandbox import TextDocument, decode


@dataclass(frozen=True)
class Placed:
    """Where a change goes in a document's text and what goes there."""

    start: int
    end: int
    """Offsets in the document's text: `text[start:end]` is replaced."""
    text: str
    """What takes its place, with "\\n" newlines (the file's own are put in by the splice)."""
    lines: Lines
    """The lines it replaces or relies on (1-based, inclusive; `(k + 1, k)`: after line k)."""
    headline: str = ""
    """What the change did, for the result's first sentence ("Replaced method P.parse in a.py")."""
    said: str = ""
    """A sentence the result adds (a range found where it moved to, say)."""


Locate = Callable[[TextDocument], Placed]
"""Finds a change's place in a document; raises ToolError when it has none there."""


def replace_placed(ws: Workspace, call: Call, path: str, locate: Locate, field: str) -> ToolResult:
    """Make the change `locate` places in `path` (relative to the root): "headline (+a -r).",
    what the file holds there now, and what else changed since the read. `field` names the
    parameter holding the new text, for a refusal of NUL characters."""
    sb = ws.sandbox
    with sb.lock(path):
        before, version = read_existing(ws, path)
        document = decode(before)
        base = fresh_or_base(ws, call, path, before, version)
        placed = locate(document)
        refuse_nul(placed.text, field, path)
        changed = document.splice(placed.start, placed.end, placed.text)
        if changed.text == document.text:
            raise ToolError(
                "no_change",
                f"The new text is what {path} already holds there, so nothing was written.",
            )

        def made(read: TextDocument) -> tuple[TextDocument, list[Lines]]:
            again = locate(read)
            return read.splice(again.start, again.end, again.text), [again.lines]

        drift = "" if base is None else made_elsewhere(path, base, document, changed, made)
        after = changed.encode()
        check = vet(ws, path, document.text, changed.text)
        new_version = commit(ws, call, path, before, version, after)
    # What was put in, as the file now spells it (its newlines).
    stop = placed.end + len(changed.text) - len(document.text)
    put = changed.text[placed.start : stop]
    include = wants_texts(ws, len(before), len(after))
    payload = diff_spans(
        document.text, [(placed.start, placed.end, put)], path=path, include_texts=include
    )
    payload = with_refs(ws, payload, version.digest, digest(new_version))
    said = f" {placed.said}" if placed.said else ""
    value = (
        f"{placed.headline} (+{payload.stats.added} -{payload.stats.removed}).{said}\n"
        + excerpt(changed.text, placed.start, stop)
        + drift
    )
    return change_result(value, payload, check)
