"""The change machinery every changing tool goes through, between the state and the tools.

A tool only locates: where its change goes and what goes there. This package owns the rest,
once: a call's context (`Call`), reading the file and judging it fresh or stale (the whole-file
rule, or the region rule with its three-way merge of lines), the refusal of NUL characters, the
syntax check, the commit (compare-and-swap, all files or none, the undo history in the same
transaction), the size regime and the streamed passes over files above the cap, the diff's
refs and the sentence the model reads. `execute` runs one located change of one file from start
to end (a `Locate` gives its `Placed` spans); `execute_all` commits whole new contents
(write, rewind, reject); `execute_undo` takes a change back; `execute_staged` commits a patch's
staged files (`read_for_patch` reads each, or places it by a streamed pass). The rest are their
parts, for the tools whose change is not (yet) located spans of one file.
"""

from edittools.change._bytematch import ByteSpan, exact_byte_spans, plain_utf8
from edittools.change._call import PROGRESS_EVERY, Call, Progress
from edittools.change._commit import (
    BYTES_PATH_MIN,
    change_result,
    diff_contents,
    digest,
    kept_text,
    open_for_change,
    refuse_nul,
    refuse_placeholders,
    syntax_note,
    text_or_bytes,
    unchecked_note,
    vet,
    wants_texts,
    with_syntax,
)
from edittools.change._diagnose import diagnosed, diagnostics_note, with_diagnostics
from edittools.change._execute import Locate, OnBytes, Placed, apply, execute
from edittools.change._format import Formatting, formatted
from edittools.change._fresh import (
    changed_by,
    decoded,
    ensure_fresh,
    fresh_or_base,
    read_existing,
    read_existing_at,
    read_existing_deferred,
    read_if_exists,
    read_if_exists_deferred,
    resolved,
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
    already_made,
    already_note,
    carried,
    hunks,
    line_count,
    line_now,
    lines_of,
    made_elsewhere,
    merge,
    stale_if,
)
from edittools.change._sentence import COARSE_NOTE, overlap_of, tolerance_note
from edittools.change._splice import splice_spans, splice_views
from edittools.change._staged import StreamedPatch, execute_staged, read_for_patch
from edittools.change._streamed import streamed_edit, streamed_multi_edit
from edittools.change._undo import execute_undo
from edittools.change._whole import Done, Whole, execute_all

__all__ = [
    "BYTES_PATH_MIN",
    "COARSE_NOTE",
    "CUT_MARKER",
    "PROGRESS_EVERY",
    "Base",
    "ByteSpan",
    "Call",
    "Done",
    "Formatting",
    "Hunk",
    "Lines",
    "Locate",
    "OnBytes",
    "Overlap",
    "Placed",
    "Progress",
    "StreamedPatch",
    "Whole",
    "already_made",
    "already_note",
    "apply",
    "as_lf_lines",
    "carried",
    "change_result",
    "changed_by",
    "decoded",
    "diagnosed",
    "diagnostics_note",
    "diff_contents",
    "digest",
    "ensure_fresh",
    "exact_byte_spans",
    "excerpt",
    "execute",
    "execute_all",
    "execute_staged",
    "execute_undo",
    "formatted",
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
    "overlap_of",
    "plain_numbered",
    "plain_utf8",
    "read_existing",
    "read_existing_at",
    "read_existing_deferred",
    "read_for_patch",
    "read_if_exists",
    "read_if_exists_deferred",
    "refuse_nul",
    "refuse_placeholders",
    "resolved",
    "splice_spans",
    "splice_views",
    "stale_if",
    "streamed_edit",
    "streamed_multi_edit",
    "syntax_note",
    "text_or_bytes",
    "tolerance_note",
    "unchecked_note",
    "vet",
    "wants_texts",
    "with_diagnostics",
    "with_syntax",
]
