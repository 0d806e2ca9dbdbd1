"""The `anthropic` surface: one `str_replace_based_edit_tool` whose `command` picks the action.

`view` reads a file (or lists a folder), `create` writes one, `str_replace` edits, `insert` adds
text after a line (the `insert` tool), `undo_edit` undoes: each command is one session call.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from edittools import Caller
from edittools.artifacts import ErrorArtifact, ToolResult
from edittools.artifacts.builders import error_result
from edittools.dialects import TEXT_EDITOR
from edittools.mcp_server._listing import list_directory
from edittools.mcp_server._tool import SurfaceTool, schema_of, validated
from edittools.tools import PATH_HELP, ToolParams
from sandbox import SandboxError

NAME = TEXT_EDITOR

Command = Literal["view", "create", "str_replace", "insert", "undo_edit"]


class TextEditorParams(ToolParams):
    command: Command = Field(
        description="The action: view, create, str_replace, insert or undo_edit."
    )
    path: str = Field(description=PATH_HELP + " For view, a folder lists its entries.")
    view_range: list[int] | None = Field(
        default=None,
        min_length=2,
        max_length=2,
        description="view: [first, last] line to show, 1-based; last -1 means to the end.",
    )
    file_text: str | None = Field(default=None, description="create: the content of the file.")
    old_str: str | None = Field(
        default=None, description="str_replace: text to replace; must match exactly once."
    )
    new_str: str | None = Field(
        default=None,
        description="str_replace: the replacement (empty deletes); insert: the text to insert.",
    )
    insert_line: int | None = Field(
        default=None, ge=0, description="insert: the line after which to insert; 0 for the top."
    )
    insert_text: str | None = Field(default=None, description="insert: the text to insert.")


_NEEDS: dict[str, tuple[str, ...]] = {
    "create": ("file_text",),
    "str_replace": ("old_str",),
    "insert": ("insert_line",),
}


def _run(session: Caller, p: TextEditorParams) -> ToolResult:
    missing = [name for name in _NEEDS.get(p.command, ()) if getattr(p, name) is None]
    if missing:
        return error_result(
            "invalid_arguments",
            f"The {p.command} command needs {' and '.join(missing)}. Call again with "
            f"{'it' if len(missing) == 1 else 'them'}.",
        )
    if p.command == "view":
        return _view(session, p)
    if p.command == "create":
        assert p.file_text is not None
        if _exists(session, p.path):
            return error_result(
                "exists",
                f"{p.path} already exists, and create only makes new files. View it, then change "
                "it with str_replace or insert.",
                {"path": p.path},
            )
        return session.write(p.path, p.file_text)
    if p.command == "str_replace":
        assert p.old_str is not None
        if p.old_str == "":
            return error_result(
                "invalid_arguments",
                "old_str is empty. str_replace replaces text in an existing file: give the exact "
                "text to replace, or use the create command to make a new file.",
            )
        return session.edit(p.path, p.old_str, p.new_str or "")
    if p.command == "insert":
        assert p.insert_line is not None
        text = p.insert_text if p.insert_text is not None else p.new_str
        if text is None:
            return error_result(
                "invalid_arguments",
                "The insert command needs insert_text (or new_str). Call again with it.",
            )
        result = session.insert(p.path, p.insert_line, text)
        total = _past_the_end(result)
        if total is not None:  # the tools' message names `line`; this surface's is insert_line
            return _reworded(result, f"insert_line {p.insert_line} is past the end: {p.path} has "
                             f"{total} lines. Give an insert_line between 0 and {total}.")  # fmt: skip
        return result
    return session.undo(p.path)


def _view(session: Caller, p: TextEditorParams) -> ToolResult:
    if p.view_range is None:
        result = session.read(p.path)
    else:
        first, last = p.view_range
        if first < 1 or (last != -1 and last < first):
            return error_result(
                "invalid_arguments",
                f"view_range {p.view_range} is not a range of lines. Give [first, last] with "
                "1 <= first <= last, or last = -1 for the end of the file.",
            )
        if last == -1:
            result = session.read(p.path, offset=first)
        else:
            result = session.read(p.path, offset=first, limit=last - first + 1)
    artifact = result.artifact
    if isinstance(artifact, ErrorArtifact) and artifact.payload.code == "is_directory":
        return list_directory(session.sandbox, p.path)
    total = _past_the_end(result)
    if total is not None and p.view_range is not None:  # the tools' message names `offset`
        return _reworded(result, f"view_range {p.view_range} starts past the end: {p.path} has "
                         f"{total} lines. Give view_range [first, last] with first between 1 and "
                         f"{total} (last = -1 for the end).")  # fmt: skip
    return result


def _past_the_end(result: ToolResult) -> int | None:
    """The file's line count when `result` refused a line past its end (else None)."""
    artifact = result.artifact
    if not isinstance(artifact, ErrorArtifact) or artifact.payload.code != "invalid_arguments":
        return None
    detail = artifact.payload.detail
    total = detail.get("total_lines") if isinstance(detail, dict) else None
    return total if isinstance(total, int) else None


def _reworded(result: ToolResult, message: str) -> ToolResult:
    """The same refusal in this surface's words (its parameters' names)."""
    assert isinstance(result.artifact, ErrorArtifact)
    return error_result("invalid_arguments", message, result.artifact.payload.detail)


def _exists(session: Caller, path: str) -> bool:
    """Whether `path` exists; a path the sandbox refuses is left for the write to report."""
    try:
        return session.sandbox.exists(path)
    except SandboxError:
        return False


def text_editor_tool() -> SurfaceTool:
    """The one tool of the `anthropic` surface."""
    return SurfaceTool(
        name=NAME,
        title="View and edit files",
        description=(
            "View, create and edit files. command=view shows a file as numbered lines "
            "(view_range=[first, last] for a part) or lists a folder two levels deep; create "
            "writes file_text to a new file (an existing one is refused); str_replace replaces old_str (which must match exactly "
            "once; copy it without line numbers) with new_str; insert puts insert_text after line "
            "insert_line (0 for the top); undo_edit undoes the last change to path. View a file "
            "before you change it."
        ),
        input_schema=schema_of(TextEditorParams),
        call=validated(NAME, TextEditorParams, _run),
        read_only=False,
        destructive=True,
        idempotent=False,
    )
