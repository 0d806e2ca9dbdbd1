"""Line diffs for edittools: minimal hunks, git-compatible unified text and +N/-N stats.

`diff_texts` diffs two versions of a file, `diff_buffers` the same held as bytes or memory maps
of any size, `diff_span`/`diff_spans` diff an edit whose replaced spans are known at the cost of
the change, and `snippet_diff` diffs an edit's old and new strings when the file is unknown. All
return the `DiffPayload` of the artifact protocol. `line_diff` is the same diff as plain data
(`LineDiff`, made a payload by `payload_of`), for callers that print it without the models;
`tree_diff` diffs two trees of files, renames included. The engine knows no tools and no files:
it takes texts (``str`` or ``bytes``) or buffers and works on bytes end to end. Its one edge to
the file system is `diff_files`/`diff_dirs` (and their plain-data twins), which open and map
files for it. `hunk_header` prints a hunk's `@@` line as the unified text has it,
`unified_excerpt` cuts a long unified text for a model; `parse_unified` reads unified diff text
back into `FilePatch`es (`strip_components` removes leading names as ``patch -p``);
`hunks_payload` makes a payload of hunks whose full texts are unknown. `inline_spans` finds a
hunk's word-level highlights (the payload's hunks carry them; plain hunks do not).
`shared_budget` gives the diffs of one call one time budget together.

Names are imported on first use (PEP 562), and the artifact models only where a payload is
built: importing this package for `line_diff` or `line_diff_dirs` loads neither pydantic, the
models, nor the patch parser.
"""

import typing as _typing

from edittools._lazy import lazy_names as _lazy_names

if _typing.TYPE_CHECKING:
    from edittools.diff._budget import shared_budget
    from edittools.diff._defaults import DEFAULT_BUDGET, RENAME_THRESHOLD
    from edittools.diff._errors import DiffError
    from edittools.diff._files import diff_dirs, diff_files, line_diff_dirs, line_diff_files
    from edittools.diff._inline import InlineSpans, inline_spans
    from edittools.diff._line_diff import LineDiff, line_diff
    from edittools.diff._parse import is_unified, parse_unified, strip_components
    from edittools.diff._patch_model import FilePatch, PatchHunk
    from edittools.diff._payload import hunks_payload, payload_of
    from edittools.diff._snippet import snippet_diff
    from edittools.diff._span import diff_span, diff_spans
    from edittools.diff._texts import diff_buffers, diff_texts
    from edittools.diff._tree import TreeEntry, tree_diff
    from edittools.diff._unified import hunk_header, unified_excerpt

__all__ = [
    "DEFAULT_BUDGET",
    "RENAME_THRESHOLD",
    "DiffError",
    "FilePatch",
    "InlineSpans",
    "LineDiff",
    "PatchHunk",
    "TreeEntry",
    "diff_buffers",
    "diff_dirs",
    "diff_files",
    "diff_span",
    "diff_spans",
    "diff_texts",
    "hunk_header",
    "hunks_payload",
    "inline_spans",
    "is_unified",
    "line_diff",
    "line_diff_dirs",
    "line_diff_files",
    "parse_unified",
    "payload_of",
    "shared_budget",
    "snippet_diff",
    "strip_components",
    "tree_diff",
    "unified_excerpt",
]

_HOMES = {
    "DEFAULT_BUDGET": "edittools.diff._defaults",
    "RENAME_THRESHOLD": "edittools.diff._defaults",
    "DiffError": "edittools.diff._errors",
    "FilePatch": "edittools.diff._patch_model",
    "InlineSpans": "edittools.diff._inline",
    "LineDiff": "edittools.diff._line_diff",
    "PatchHunk": "edittools.diff._patch_model",
    "TreeEntry": "edittools.diff._tree",
    "diff_buffers": "edittools.diff._texts",
    "diff_dirs": "edittools.diff._files",
    "diff_files": "edittools.diff._files",
    "diff_span": "edittools.diff._span",
    "diff_spans": "edittools.diff._span",
    "diff_texts": "edittools.diff._texts",
    "hunk_header": "edittools.diff._unified",
    "hunks_payload": "edittools.diff._payload",
    "inline_spans": "edittools.diff._inline",
    "is_unified": "edittools.diff._parse",
    "line_diff": "edittools.diff._line_diff",
    "line_diff_dirs": "edittools.diff._files",
    "line_diff_files": "edittools.diff._files",
    "parse_unified": "edittools.diff._parse",
    "payload_of": "edittools.diff._payload",
    "shared_budget": "edittools.diff._budget",
    "snippet_diff": "edittools.diff._snippet",
    "strip_components": "edittools.diff._parse",
    "tree_diff": "edittools.diff._tree",
    "unified_excerpt": "edittools.diff._unified",
}


__getattr__, __dir__ = _lazy_names(__name__, _HOMES, __all__)
