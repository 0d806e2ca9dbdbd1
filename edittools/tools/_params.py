"""Parameter models of the tools: validation, and the JSON Schema hosts hand to models."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

PATH_HELP = "File path, relative to the workspace root (or absolute inside it)."


class ToolParams(BaseModel):
    """Base of every agent input model, ours and the MCP surfaces': unknown fields are refused so
    typos surface as errors, and a field with a wire spelling (an alias) takes its Python name too."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


SYMBOL_HELP = (
    "A definition's dotted name as symbols lists it (`Parser.parse`); a unique last part will do "
    "(`parse`), and `NAME:LINE` picks one of several."
)


class ReadParams(ToolParams):
    """Read a text file (numbered lines) or an image."""

    path: str = Field(description=PATH_HELP)
    offset: int = Field(default=1, ge=1, description="1-based line number to start reading from.")
    limit: int = Field(default=2000, ge=1, description="Maximum number of lines to return.")
    anchors: bool = Field(
        default=False,
        description="Tag each line with an anchor (`12#a3f|text`) that edit_lines takes.",
    )


class WriteParams(ToolParams):
    """Create a file or replace its whole content."""

    path: str = Field(description=PATH_HELP)
    content: str = Field(description="The complete new content of the file.")


class EditParams(ToolParams):
    """Replace one exact occurrence of a string in a file."""

    path: str = Field(description=PATH_HELP)
    old_string: str = Field(
        description="Text to find, copied from the file (without line-number prefixes); must be unique "
        "unless replace_all is true. Empty creates a new file."
    )
    new_string: str = Field(description="Replacement text; must differ from old_string.")
    replace_all: bool = Field(default=False, description="Replace every occurrence.")


class EditOperation(ToolParams):
    """One replacement of a multi_edit."""

    old_string: str = Field(
        description="Text to find in the file as changed by the previous edits."
    )
    new_string: str = Field(description="Replacement text; must differ from old_string.")
    replace_all: bool = Field(default=False, description="Replace every occurrence.")


class MultiEditParams(ToolParams):
    """Several replacements in one file, applied in order, all or nothing."""

    path: str = Field(description=PATH_HELP)
    edits: list[EditOperation] = Field(min_length=1, description="Edits applied in order.")


class ApplyPatchParams(ToolParams):
    """Apply a unified diff or a Codex-style patch to one or more files, all or nothing."""

    patch: str = Field(
        description="A git-style unified diff, or a patch between '*** Begin Patch' and '*** End Patch'."
    )
    strip: int | None = Field(
        default=None,
        ge=0,
        description=(
            "Leading path components to remove from a unified diff's file names as written, "
            "as `patch -p N`. Default: git's a/ and b/ prefixes are removed, and names that do "
            "not exist are tried without their leading folders (the result says so)."
        ),
    )


class InsertParams(ToolParams):
    """Insert text after a line of an existing file."""

    path: str = Field(description=PATH_HELP)
    line: int = Field(ge=0, description="The line after which to insert; 0 for the top.")
    text: str = Field(description="The text to insert; it takes the file's newline style.")


class SymbolsParams(ToolParams):
    """The definitions of a source file: kind, dotted name and lines."""

    path: str = Field(description=PATH_HELP)


class ReadSymbolParams(ToolParams):
    """Read one definition of a source file."""

    path: str = Field(description=PATH_HELP)
    symbol: str = Field(description=SYMBOL_HELP)


class EditSymbolParams(ToolParams):
    """Replace a definition, its body, or put text before or after it."""

    path: str = Field(description=PATH_HELP)
    symbol: str = Field(description=SYMBOL_HELP)
    new_text: str = Field(
        description="The new text, indented as you like: it takes the definition's indentation "
        "(its body's, for where=body) and the file's newlines."
    )
    where: Literal["replace", "body", "before", "after"] = Field(
        default="replace",
        description="replace: the whole definition, with its decorators and the comments "
        "directly above it; body: what is inside it; before or after: new text beside it.",
    )


class EditLinesParams(ToolParams):
    """Replace the lines between two anchors of a read with anchors."""

    path: str = Field(description=PATH_HELP)
    start: str = Field(description="Anchor of the first line to replace, as read: `12#a3f`.")
    end: str = Field(description="Anchor of the last line to replace (the same for one line).")
    new_text: str = Field(description="The lines that take their place (empty deletes them).")


class EditCellParams(ToolParams):
    """Replace, insert, delete or move one cell of a Jupyter notebook (.ipynb)."""

    path: str = Field(description=PATH_HELP)
    cell: str | int | None = Field(
        default=None,
        description="The cell: its id, or its 0-based index. For insert, the cell the new one "
        "goes after (omit it to insert at the top).",
    )
    new_text: str = Field(
        default="", description="The cell's new source, for replace and insert (not delete, move)."
    )
    mode: Literal["replace", "insert", "delete", "move"] = Field(
        default="replace",
        description="replace: the cell's source (a code cell's outputs and execution count are "
        "kept); insert: a new cell after `cell`; delete: the cell; move: the cell, to `to`.",
    )
    to: int | None = Field(
        default=None,
        ge=0,
        description="For move only: the 0-based position the cell is at once moved.",
    )
    cell_type: Literal["code", "markdown"] | None = Field(
        default=None,
        description="The cell's type: for replace, the cell's own by default (another turns it "
        "into that type); for insert, code by default.",
    )


class UndoParams(ToolParams):
    """Restore a file to its content before this session's last change to it."""

    path: str = Field(description=PATH_HELP)


_SINCE_HELP = (
    "Checkpoint id to compare with (default: the checkpoint taken when the session began)."
)
_HUNK_HELP = (
    "A hunk of the file's net diff: its 0-based index, or the hunk object itself as `changes` "
    "returned it (matched by its lines, so it still names the same change after others moved)."
)
HunkRef = int | dict[str, Any]


class ChangesParams(ToolParams):
    """The net diff of every file the tools changed since a checkpoint."""

    since: int | None = Field(default=None, description=_SINCE_HELP)
    include_accepted: bool = Field(
        default=True, description="Keep the hunks already accepted in a review."
    )
    by: str | None = Field(
        default=None,
        description="Only the files this agent (by name) changed since the checkpoint, each "
        "with that agent's own changes (the hunks reject counts with the same by).",
    )


class RewindParams(ToolParams):
    """Put every file the tools changed since a checkpoint back as it was then."""

    checkpoint: int = Field(description="The checkpoint id to go back to.")
    force: bool = Field(
        default=False, description="Overwrite files changed outside the tools since."
    )
    by: str | None = Field(
        default=None,
        description="Take back only this agent's changes since the checkpoint, keeping every "
        "other change; refused where a later change meets one of them.",
    )


class RejectParams(ToolParams):
    """Revert one hunk of a file's net diff since a checkpoint."""

    path: str = Field(description=PATH_HELP)
    hunk: HunkRef = Field(description=_HUNK_HELP)
    since: int | None = Field(default=None, description=_SINCE_HELP)
    by: str | None = Field(
        default=None,
        description="Take the hunk from this agent's changes alone (their net diff), keeping "
        "every other change.",
    )


class AcceptParams(ToolParams):
    """Mark hunks of a file's net diff since a checkpoint as reviewed."""

    path: str = Field(description=PATH_HELP)
    hunks: list[HunkRef] | None = Field(default=None, description="The hunks; default: all.")
    since: int | None = Field(default=None, description=_SINCE_HELP)
