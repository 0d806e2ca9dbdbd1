"""What a parsed patch holds: one `FilePatch` per file, each with its hunks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class PatchHunk:
    """One hunk of a unified diff or one chunk of a Codex-style update.

    `lines` are the body lines without their line break, each starting with its tag: `" "` for
    context, `"-"` for a removed line, `"+"` for an added one. A unified hunk has the numbers of
    its `@@ -old_start,old_count +new_start,new_count @@` header; a Codex chunk has none, and may
    carry the text of its `@@ context` header and the `*** End of File` mark instead.
    `old_no_newline` and `new_no_newline` record a `\\ No newline at end of file` marker.
    `heading` is the function context a unified header prints after its second `@@` (shown,
    never used to place the hunk).
    Unlike the protocol's `Hunk`, the markers are flags, not lines, and the numbers may be absent.
    """

    lines: tuple[str, ...]
    old_start: int | None = None
    old_count: int | None = None
    new_start: int | None = None
    new_count: int | None = None
    context: str | None = None
    end_of_file: bool = False
    old_no_newline: bool = False
    new_no_newline: bool = False
    heading: str | None = None


@dataclass(frozen=True)
class FilePatch:
    """The change a patch makes to one file.

    `path` is the path as the patch writes it (git's `a/` and `b/` prefixes removed); `move_to`
    is a rename target; `new_content` is the whole text of an added file (a unified diff also
    keeps the hunks it came from).
    """

    op: Literal["add", "update", "delete"]
    path: str
    move_to: str | None = None
    hunks: tuple[PatchHunk, ...] = ()
    new_content: str | None = None
