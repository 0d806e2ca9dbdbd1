"""Tool surfaces: the tool names and parameters agents are shown, mapped onto one `Session`.

Every surface runs the same engine and answers with the same `ToolResult`s; only the tool names
(ours, or another agent's), the parameter spellings and a few conveniences (a `tail` read, a
dry-run edit that shows a diff) differ. The default surface, `edittools`, is the tool catalogue
itself. (Other runtimes' *result* shapes are `edittools.dialects`; a surface only borrows names.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Literal

from pydantic import Field

from edittools import Caller
from edittools.artifacts import CodeArtifact, DiffArtifact, ToolResult
from edittools.artifacts.builders import error_result
from edittools.dialects import (
    CLAUDE_EDIT,
    CLAUDE_NOTEBOOK_EDIT,
    CLAUDE_READ,
    CLAUDE_WRITE,
    CODEX_APPLY_PATCH,
    FS_EDIT_FILE,
    FS_READ_TEXT_FILE,
    FS_WRITE_FILE,
)
from edittools.mcp_server import _wording as wording
from edittools.mcp_server._text_editor import text_editor_tool
from edittools.mcp_server._tool import Call, SurfaceTool, like, schema_of, validated
from edittools.mcp_server._wording import Wording
from edittools.tools import OPERATIONS, PATH_HELP, STRUCTURE, TOOLS, ToolParams, ToolSpec

# The default surface: the catalogue as it is.


def _catalogue_call(name: str) -> Call:
    def call(session: Caller, arguments: Mapping[str, Any]) -> ToolResult:
        return session.call(name, arguments)

    return call


def review_tools() -> list[SurfaceTool]:
    """`changes` and `reject`: the net diff since a checkpoint and taking one hunk of it back,
    offered to clients that show the change card (its review calls them)."""
    return [_catalogue_tool(OPERATIONS["changes"]), _catalogue_tool(OPERATIONS["reject"])]


def structure_tools() -> list[SurfaceTool]:
    """The tools by structure and anchor (`tools.STRUCTURE`), in our surface's words: offered on
    request (`serve --structure`), since each costs a model's context in every `tools/list`."""
    words = WORDINGS["edittools"]
    return [
        replace(tool, call=_worded(words, tool.call))
        for tool in (_catalogue_tool(OPERATIONS[name]) for name in STRUCTURE)
    ]


def _catalogue_tool(spec: ToolSpec) -> SurfaceTool:
    return SurfaceTool(
        name=spec.name,
        title=spec.title or spec.name,
        description=spec.description,
        input_schema=schema_of(spec.params),
        call=_catalogue_call(spec.name),
        read_only=spec.read_only,
        destructive=spec.destructive,
        idempotent=spec.idempotent,
    )


def _edittools() -> list[SurfaceTool]:
    return [_catalogue_tool(spec) for spec in TOOLS.values()]


# claude-code: Read, Write, Edit, NotebookEdit.


class ClaudeReadParams(ToolParams):
    file_path: str = Field(description=PATH_HELP)
    offset: int | None = Field(
        default=None, description="Line number to start reading from (1-based)."
    )
    limit: int | None = Field(default=None, description="Number of lines to read.")


class ClaudeWriteParams(ToolParams):
    file_path: str = Field(description=PATH_HELP)
    content: str = Field(description="The complete content to write to the file.")


class ClaudeEditParams(ToolParams):
    file_path: str = Field(description=PATH_HELP)
    old_string: str = Field(
        description="The text to replace, copied from the file without line numbers."
    )
    new_string: str = Field(description="The text to replace it with; must differ from old_string.")
    replace_all: bool = Field(default=False, description="Replace every occurrence of old_string.")


class ClaudeNotebookEditParams(ToolParams):
    notebook_path: str = Field(
        description="The notebook (.ipynb), relative to the workspace root (or absolute inside it)."
    )
    cell_id: str | None = Field(
        default=None,
        description="The cell's id (or its 0-based index). For insert, the new cell goes after "
        "this one; without it, at the beginning.",
    )
    new_source: str = Field(description="The cell's new source (ignored by delete).")
    cell_type: Literal["code", "markdown"] | None = Field(
        default=None,
        description="The cell's type: for replace, the cell's own by default; for insert, code.",
    )
    edit_mode: Literal["replace", "insert", "delete"] = Field(
        default="replace", description="replace the cell's source, insert a new cell, or delete it."
    )


def _claude_notebook_edit(session: Caller, p: ClaudeNotebookEditParams) -> ToolResult:
    source = "" if p.edit_mode == "delete" else p.new_source
    return session.edit_cell(p.notebook_path, p.cell_id, source, mode=p.edit_mode,
                             cell_type=p.cell_type)  # fmt: skip


def _claude_read(session: Caller, p: ClaudeReadParams) -> ToolResult:
    window = {k: v for k, v in (("offset", p.offset), ("limit", p.limit)) if v is not None}
    return session.call("read", {"path": p.file_path, **window})


def _claude_code() -> list[SurfaceTool]:
    return [
        SurfaceTool(
            name=CLAUDE_READ,
            title="Read a file",
            description=TOOLS["read"].description,
            input_schema=schema_of(ClaudeReadParams),
            call=validated(CLAUDE_READ, ClaudeReadParams, _claude_read),
            **like("read"),
        ),
        SurfaceTool(
            name=CLAUDE_WRITE,
            title="Write a file",
            description=TOOLS["write"].description,
            input_schema=schema_of(ClaudeWriteParams),
            call=validated(
                CLAUDE_WRITE, ClaudeWriteParams, lambda s, p: s.write(p.file_path, p.content)
            ),
            **like("write"),
        ),
        SurfaceTool(
            name=CLAUDE_EDIT,
            title="Edit a file",
            description=TOOLS["edit"].description,
            input_schema=schema_of(ClaudeEditParams),
            call=validated(
                CLAUDE_EDIT,
                ClaudeEditParams,
                lambda s, p: s.edit(
                    p.file_path, p.old_string, p.new_string, replace_all=p.replace_all
                ),
            ),
            **like("edit"),
        ),
        SurfaceTool(
            name=CLAUDE_NOTEBOOK_EDIT,
            title="Edit a notebook cell",
            description=(
                "Change one cell of a Jupyter notebook (.ipynb) you have read: replace its source "
                "(a code cell's outputs and execution count are kept), insert a new cell after "
                "cell_id (edit_mode=insert; without cell_id, at the beginning), or delete it "
                "(edit_mode=delete). cell_id is the cell's id, or its 0-based index. Every other "
                "byte of the file is kept; the result is a diff of that cell."
            ),
            input_schema=schema_of(ClaudeNotebookEditParams),
            call=validated(CLAUDE_NOTEBOOK_EDIT, ClaudeNotebookEditParams, _claude_notebook_edit),
            **like("edit_cell"),
        ),
    ]


# mcp-filesystem: read_text_file, write_file, edit_file.


class FsReadParams(ToolParams):
    path: str = Field(description=PATH_HELP)
    head: int | None = Field(default=None, ge=1, description="Read only the first N lines.")
    tail: int | None = Field(default=None, ge=1, description="Read only the last N lines.")


class FsWriteParams(ToolParams):
    path: str = Field(description=PATH_HELP)
    content: str = Field(description="The complete content to write to the file.")


class FsEdit(ToolParams):
    old_text: str = Field(alias="oldText", description="Text to find; must match exactly once.")
    new_text: str = Field(alias="newText", description="Text to put in its place.")


class FsEditParams(ToolParams):
    path: str = Field(description=PATH_HELP)
    edits: list[FsEdit] = Field(min_length=1, description="Edits applied in order, all or none.")
    dry_run: bool = Field(
        default=False, alias="dryRun", description="Show the diff without writing the file."
    )


def _fs_read(session: Caller, p: FsReadParams) -> ToolResult:
    if p.head is not None and p.tail is not None:
        return error_result(
            "invalid_arguments", "Give head or tail, not both. Call again with one of them."
        )
    if p.head is not None:
        return session.read(p.path, limit=p.head)
    if p.tail is None:
        return session.read(p.path)
    first = session.read(p.path, limit=1)
    if first.is_error or not isinstance(first.artifact, CodeArtifact):
        return first
    total = first.artifact.payload.total_lines or 0
    if total <= 1:
        return first
    return session.read(p.path, offset=max(1, total - p.tail + 1), limit=p.tail)


def _fs_edit(session: Caller, p: FsEditParams) -> ToolResult:
    edits = [{"old_string": e.old_text, "new_string": e.new_text} for e in p.edits]
    result = session.call("multi_edit", {"path": p.path, "edits": edits}, dry_run=p.dry_run)
    artifact = result.artifact
    if result.is_error or not isinstance(artifact, DiffArtifact) or not artifact.payload.unified:
        return result
    stats = artifact.payload.stats
    counts = f"{artifact.payload.path} (+{stats.added} -{stats.removed})"
    head = (
        f"Dry run: would edit {counts}; nothing was written." if p.dry_run else f"Edited {counts}."
    )
    value = f"{head}\n\n```diff\n{artifact.payload.unified}```"
    return result.model_copy(update={"value": value})


def _mcp_filesystem() -> list[SurfaceTool]:
    return [
        SurfaceTool(
            name=FS_READ_TEXT_FILE,
            title="Read a text file",
            description=(
                "Read a text file as numbered lines. Give head=N for the first N lines or tail=N "
                "for the last N (not both). Long files are shown in windows; the footer says how "
                "to read more. Read a file before you change it."
            ),
            input_schema=schema_of(FsReadParams),
            call=validated(FS_READ_TEXT_FILE, FsReadParams, _fs_read),
            **like("read"),
        ),
        SurfaceTool(
            name=FS_WRITE_FILE,
            title="Write a file",
            description=TOOLS["write"].description,
            input_schema=schema_of(FsWriteParams),
            call=validated(FS_WRITE_FILE, FsWriteParams, lambda s, p: s.write(p.path, p.content)),
            **like("write"),
        ),
        SurfaceTool(
            name=FS_EDIT_FILE,
            title="Edit a file",
            description=(
                "Replace text in a file you have read: each edit's oldText must match exactly once "
                "(whitespace and line-ending differences are tolerated and reported). Edits apply "
                "in order, all or none. Returns a git-style diff; with dryRun the diff is shown and "
                "nothing is written."
            ),
            input_schema=schema_of(FsEditParams),
            call=validated(FS_EDIT_FILE, FsEditParams, _fs_edit),
            **like("multi_edit"),
        ),
    ]


# codex: apply_patch.


class CodexPatchParams(ToolParams):
    input: str = Field(
        description="The patch, from '*** Begin Patch' to '*** End Patch' (a unified diff also works)."
    )


def _codex() -> list[SurfaceTool]:
    return [
        SurfaceTool(
            name=CODEX_APPLY_PATCH,
            title="Apply a patch",
            description=(
                "Apply a patch between '*** Begin Patch' and '*** End Patch' with '*** Add File:', "
                "'*** Update File:' (optionally '*** Move to:'), '*** Delete File:' sections and "
                "'@@' chunks of ' '/'-'/'+' lines (a git-style unified diff also works). All files "
                "change together or none does. '*** Add File:' or '*** Move to:' onto an existing "
                "file replaces it; the result shows what it held."
            ),
            input_schema=schema_of(CodexPatchParams),
            call=validated(
                CODEX_APPLY_PATCH,
                CodexPatchParams,
                lambda s, p: s.apply_patch(p.input, overwrite=True),
            ),
            **like("apply_patch"),
        )
    ]


def _anthropic() -> list[SurfaceTool]:
    return [text_editor_tool()]


SURFACES: dict[str, Callable[[], list[SurfaceTool]]] = {
    "edittools": _edittools,
    "claude-code": _claude_code,
    "anthropic": _anthropic,
    "mcp-filesystem": _mcp_filesystem,
    "codex": _codex,
}
"""Every tool surface by name, each giving its tools."""


WORDINGS: dict[str, Wording] = {
    "edittools": wording.PLAIN,
    "claude-code": wording.CLAUDE_CODE,
    "anthropic": wording.TEXT_EDITOR,
    "mcp-filesystem": wording.MCP_FILESYSTEM,
    "codex": wording.CODEX,
}
"""How each surface words the tools' hints and errors."""


def surface_tools(name: str) -> list[SurfaceTool]:
    """The tools surface `name` shows, their messages in its words; raises ValueError for an
    unknown surface."""
    try:
        make = SURFACES[name]
    except KeyError:
        known = ", ".join(SURFACES)
        raise ValueError(f"unknown surface {name!r}; choose one of: {known}") from None
    words = WORDINGS[name]
    return [replace(tool, call=_worded(words, tool.call)) for tool in make()]


def _worded(words: Wording, call: Call) -> Call:
    def worded_call(session: Caller, arguments: Mapping[str, Any]) -> ToolResult:
        return words.result(call(session, arguments))

    return worded_call
