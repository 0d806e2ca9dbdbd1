"""`snippet_diff`: a diff of an edit's old and new strings when the file itself is unknown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from edittools.diff._engine import line_changes
from edittools.diff._hunks import build_hunks, stats_of
from edittools.diff._lines import to_bytes
from edittools.diff._unified import unified_text

if TYPE_CHECKING:
    from edittools.artifacts import DiffPayload


def snippet_diff(
    old_string: str,
    new_string: str,
    *,
    path: str,
    start_line: int | None = None,
    context: int = 3,
) -> DiffPayload:
    """Diff an edit's `old_string` against its `new_string` at snippet granularity.

    Without `start_line` the hunk starts are null and the hunk headers carry no line numbers
    (``@@ @@``): the text is for people, not for ``git apply``. With `start_line` (the 1-based line
    where `old_string` begins in the file) the starts are filled and the text is a real unified
    diff of those lines. The snippet's end is not the file's end, so no missing-newline marker is
    printed. Stats are counted from the hunks; the full texts are unknown and stay null.
    """
    old_bytes = to_bytes(old_string)
    new_bytes = to_bytes(new_string)
    changes, minimal = line_changes(old_bytes, new_bytes)
    if start_line is not None:
        shift = start_line - 1
        changes = [
            c._replace(a0=c.a0 + shift, a1=c.a1 + shift, b0=c.b0 + shift, b1=c.b1 + shift)
            for c in changes
        ]
    hunks = build_hunks(
        old_bytes,
        new_bytes,
        changes,
        context=context,
        numbered=start_line is not None,
        eof_markers=False,
    )
    from edittools.artifacts import DiffPayload

    return DiffPayload(
        path=path,
        granularity="snippet",
        hunks=hunks,
        unified=unified_text("modify", path, None, hunks),
        stats=stats_of(hunks),
        minimal=minimal,
    )
