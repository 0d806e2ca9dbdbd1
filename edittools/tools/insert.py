"""The insert tool: put text after a line of an existing file, keeping its encoding and newlines."""

from __future__ import annotations

from edittools._errors import ToolError
from edittools._workspace import Workspace
from edittools.artifacts import ToolResult
from edittools.change import (
    Call,
    Lines,
    change_result,
    commit,
    digest,
    excerpt,
    fresh_or_base,
    line_now,
    made_elsewhere,
    read_existing,
    refuse_nul,
    resolved,
    vet,
    wants_texts,
    with_refs,
)
from edittools.diff import diff_spans
from edittools.tools._params import InsertParams
from sandbox import TextDocument, decode


def insert(ws: Workspace, params: InsertParams, call: Call) -> ToolResult:
    """Insert `params.text` after line `params.line` of `params.path` (0: at the top).

    The inserted lines take the file's newline style; a text without a final newline gets one,
    except at the end of a file that has none. Like every change, it needs a fresh read.
    """
    sb = ws.sandbox
    path = resolved(ws, call, params.path)
    refuse_nul(params.text, "text", path)
    with sb.lock(path):
        before, version = read_existing(ws, path)
        document = decode(before)
        base = fresh_or_base(ws, call, path, before, version)
        # The line the model read: lines added or removed above it since move it.
        line = params.line if base is None else line_now(path, base, document, params.line)

        def made(doc: TextDocument) -> tuple[TextDocument, list[Lines]]:
            at, piece = _placement(doc, params.line, params.text)
            return doc.splice(at, at, piece), [(params.line + 1, params.line)]

        at, piece = _placement(document, line, params.text)
        changed = document.splice(at, at, piece)
        drift = "" if base is None else made_elsewhere(path, base, document, changed, made)
        after = changed.encode()
        check = vet(ws, path, document.text, changed.text)
        new_version = commit(ws, call, path, before, version, after)
    # The inserted text as the file now spells it (newlines adopted by the splice).
    inserted = changed.text[at : at + len(changed.text) - len(document.text)]
    include = wants_texts(ws, len(before), len(after))
    payload = diff_spans(document.text, [(at, at, inserted)], path=path, include_texts=include)
    payload = with_refs(ws, payload, version.digest, digest(new_version))
    value = (
        f"Inserted text after line {params.line} of {payload.path} "
        f"(+{payload.stats.added} -{payload.stats.removed}).\n"
        + excerpt(changed.text, at, at + len(inserted))
        + drift
    )
    return change_result(value, payload, check)


def _placement(document: TextDocument, line: int, text: str) -> tuple[int, str]:
    """Where the text goes (an offset in the document's text) and the piece to put there."""
    ends = _line_ends(document.text)
    total = len(ends) + (0 if document.final_newline or not document.text else 1)
    if line > total:
        raise ToolError(
            "invalid_arguments",
            f"Line {line} is past the end: the file has {total} lines. "
            f"Give a line between 0 and {total}.",
            {"total_lines": total},
        )
    if line == 0:
        at = 0
    elif line <= len(ends):
        at = ends[line - 1]
    else:
        at = len(document.text)
    if at == len(document.text) and document.text and not document.final_newline:
        return at, "\n" + text  # after a last line that has no newline
    if not document.text or text.endswith("\n"):
        return at, text
    return at, text + "\n"


def _line_ends(text: str) -> list[int]:
    """The offset just past each "\\n" of `text` (lines split on "\\n" only, as the tools do)."""
    ends = []
    at = text.find("\n")
    while at != -1:
        ends.append(at + 1)
        at = text.find("\n", at + 1)
    return ends
