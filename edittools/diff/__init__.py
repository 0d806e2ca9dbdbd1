"""Line diffs for edittools: minimal hunks, git-compatible unified text and +N/-N stats.

`diff_texts` diffs two versions of a file, `diff_span`/`diff_spans` diff an edit whose replaced
spans are known at the cost of the change, and `snippet_diff` diffs an edit's old and new strings
when the file is unknown. All return the `DiffPayload` of the artifact protocol. The engine knows
no tools and no files: it takes texts (``str`` or ``bytes``) and works on bytes end to end.
`hunk_header` prints a hunk's `@@` line as the unified text has it, `unified_excerpt` cuts a
long unified text for a model; `parse_unified` reads unified diff text back into `FilePatch`es; `hunks_payload` makes a payload
of hunks whose full texts are unknown.
"""

from edittools.diff._errors import DiffError
from edittools.diff._parse import is_unified, parse_unified
from edittools.diff._patch_model import FilePatch, PatchHunk
from edittools.diff._payload import hunks_payload
from edittools.diff._snippet import snippet_diff
from edittools.diff._span import diff_span, diff_spans
from edittools.diff._texts import DEFAULT_BUDGET, diff_texts
from edittools.diff._unified import hunk_header, unified_excerpt

__all__ = [
    "DEFAULT_BUDGET",
    "DiffError",
    "FilePatch",
    "PatchHunk",
    "diff_span",
    "diff_spans",
    "diff_texts",
    "hunk_header",
    "hunks_payload",
    "is_unified",
    "parse_unified",
    "snippet_diff",
    "unified_excerpt",
]
