"""The insert tool: put text after a line of an existing file, keeping its encoding and newlines."""

from __future__ import annotations

from edittools._errors import ToolError
from edittools.artifacts import ToolResult
from edittools.change import Base, Call, Locate, Placed, execute, line_now, resolved
from edittools.state import Workspace
from edittools.tools._params import InsertParams
from sandbox import TextDocument


def insert(ws: Workspace, params: InsertParams, call: Call) -> ToolResult:
    """Insert `params.text` after line `params.line` of `params.path` (0: at the top).

    The inserted lines take the file's newline style; a text without a final newline gets one,
    except at the end of a file that has none. Like every change, it needs a fresh read.
    """
    path = resolved(ws, call, params.path)
    headline = f"Inserted text after line {params.line} of {path}"

    def after(line: int) -> Locate:
        def located(document: TextDocument) -> Placed:
            at, piece = _placement(document, line, params.text)
            return Placed.span(at, at, piece, (params.line + 1, params.line), headline)

        return located

    def moved(base: Base, document: TextDocument) -> Locate:
        # The line the model read: lines added or removed above it since move it.
        return after(line_now(path, base, document, params.line))

    return execute(ws, call, path, after(params.line), new_text={"text": params.text},
                   moved=moved)  # fmt: skip


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
