"""The change machinery every changing tool goes through, between the state and the tools.

A tool only locates: where its change goes and what goes there. This package owns the rest,
once: a call's context (`Call`), reading the file and judging it fresh or stale (the whole-file
rule, or the region rule with its three-way merge of lines), the refusal of NUL characters, the
syntax check, the commit (compare-and-swap, all files or none, the undo history in the same
transaction), the diff's refs and the sentence the model reads. `execute` runs one located
change of one file from start to end; the rest are its parts, for the tools whose change is not
(yet) one located span.
"""

from edittools.change._call import PROGRESS_EVERY, Call, Progress
from edittools.change._commit import (
    BYTES_PATH_MIN,
    COARSE_NOTE,
    by_bytes,
    change_result,
    commit,
    commit_all,
    digest,
    kept_text,
    open_for_change,
    refuse_nul,
    summary,
    syntax_note,
    text_or_bytes,
    unchecked_note,
    vet,
    wants_texts,
    with_blobs,
    with_refs,
    with_syntax,
)
from edittools.change._execute import Locate, Placed, replace_placed
from edittools.change._fresh import (
    changed_by,
    ensure_fresh,
    fresh_or_base,
    read_existing,
    read_existing_at,
    read_existing_deferred,
    read_if_exists,
    read_if_exists_deferred,
)
from edittools.change._numbering import (
    CUT_MARKER,
    as_lf_lines,
    excerpt,
    line_of,
    numbered,
    plain_numbered,
)
from edittools.change._region import (
    Base,
    Hunk,
    Lines,
    Overlap,
    hunks,
    line_count,
    line_now,
    lines_of,
    made_elsewhere,
    merge,
    stale_if,
    widened,
)
from edittools.change._splice import splice_spans, splice_views

__all__ = [
    "BYTES_PATH_MIN",
    "COARSE_NOTE",
    "CUT_MARKER",
    "PROGRESS_EVERY",
    "Base",
    "Call",
    "Hunk",
    "Lines",
    "Locate",
    "Overlap",
    "Placed",
    "Progress",
    "as_lf_lines",
    "by_bytes",
    "change_result",
    "changed_by",
    "commit",
    "commit_all",
    "digest",
    "ensure_fresh",
    "excerpt",
    "fresh_or_base",
    "hunks",
    "kept_text",
    "line_count",
    "line_now",
    "line_of",
    "lines_of",
    "made_elsewhere",
    "merge",
    "numbered",
    "open_for_change",
    "plain_numbered",
    "read_existing",
    "read_existing_at",
    "read_existing_deferred",
    "read_if_exists",
    "read_if_exists_deferred",
    "refuse_nul",
    "replace_placed",
    "splice_spans",
    "splice_views",
    "stale_if",
    "summary",
    "syntax_note",
    "text_or_bytes",
    "unchecked_note",
    "vet",
    "wants_texts",
    "widened",
    "with_blobs",
    "with_refs",
    "with_syntax",
]
