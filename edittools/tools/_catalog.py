"""The tool catalogue: names, descriptions a model can act on, parameter models, and functions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

from edittools.tools._params import (
    AcceptParams,
    ApplyPatchParams,
    ChangesParams,
    EditCellParams,
    EditLinesParams,
    EditParams,
    EditSymbolParams,
    InsertParams,
    MultiEditParams,
    ReadParams,
    ReadSymbolParams,
    RejectParams,
    RewindParams,
    SymbolsParams,
    ToolParams,
    UndoParams,
    WriteParams,
)

if TYPE_CHECKING:
    from edittools.artifacts import ToolResult
    from edittools.change import Call
    from edittools.state import Workspace


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name, what it does (for the model), its parameters and its function.

    The function is the attribute `name` of module `home`, imported when first called: a process
    runs few of the tools, and loading them all would lengthen every start.
    """

    name: str
    description: str
    params: type[ToolParams]
    home: str
    read_only: bool
    destructive: bool
    idempotent: bool
    title: str = ""
    """What a client's list shows for it ("Edit a file"); the name when empty."""

    @property
    def function(self) -> Callable[[Workspace, Any, Call], ToolResult]:
        """The function that runs the tool: `(workspace, params, call)`."""
        function: Callable[[Workspace, Any, Call], ToolResult] = getattr(
            import_module(self.home), self.name
        )
        return function


TOOLS: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        ToolSpec(
            "read",
            "Read a text file as numbered lines (`cat -n` style: number, tab, text), or an image. "
            "Shows up to `limit` lines from line `offset`; the footer says how to read more. "
            "Read a file before you change it.",
            ReadParams, "edittools.tools.read", read_only=True, destructive=False, idempotent=True,
            title="Read a file",
        ),
        ToolSpec(
            "write",
            "Create a file (and its folders) or replace its whole content. Replacing needs an "
            "earlier read of the file. Keeps the file's encoding, BOM and line endings. Prefer "
            "edit for changes to part of a file.",
            WriteParams, "edittools.tools.write", read_only=False, destructive=True,
            idempotent=True,
            title="Write a file",
        ),
        ToolSpec(
            "edit",
            "Replace old_string with new_string in a file you have read. old_string must match "
            "the file exactly once (give more surrounding lines to make it unique) unless "
            "replace_all is true. Do not include line-number prefixes. If the exact text is not "
            "found, differences in whitespace, indentation, line endings, quotes and dashes, "
            "blank lines and string escaping are tolerated when each line still maps to one "
            "line of the file, and the result says so; a miss shows the closest lines. If the "
            "file changed since your read away from these lines, the edit is made and the "
            "result shows that other change.",
            EditParams, "edittools.tools.edit", read_only=False, destructive=True, idempotent=False,
            title="Edit a file",
        ),
        ToolSpec(
            "multi_edit",
            "Several edits to one file in one call, applied in order to the result of the "
            "previous ones. Either all apply or none does; an error names the failing edit.",
            MultiEditParams, "edittools.tools.edit", read_only=False, destructive=True,
            idempotent=False,
            title="Edit a file in several places",
        ),
        ToolSpec(
            "apply_patch",
            "Apply a patch to one or more files: a git-style unified diff, or a patch between "
            "'*** Begin Patch' and '*** End Patch' with '*** Add File:', '*** Update File:' "
            "(optionally '*** Move to:'), '*** Delete File:' sections and '@@' chunks of "
            "' '/'-'/'+' lines. All files change together or none does. Adding a file that "
            "exists, or moving a file onto one, is refused: update or delete it instead.",
            ApplyPatchParams, "edittools.tools.apply_patch", read_only=False, destructive=True,
            idempotent=False,
            title="Apply a patch",
        ),
        ToolSpec(
            "undo",
            "Undo this session's last change to a file (write, edit, patch); call again to go "
            "further back. Refused if the file was changed by something else since.",
            UndoParams, "edittools.tools.undo", read_only=False, destructive=True, idempotent=False,
            title="Undo the last change to a file",
        ),
    )
}  # fmt: skip
"""Every tool, by name, in the order they are listed to models."""

OPERATIONS: dict[str, ToolSpec] = {
    **TOOLS,
    "insert": ToolSpec(
        "insert",
        "Insert text after a line of a file you have read (line 0: at the top). The text takes "
        "the file's line endings.",
        InsertParams, "edittools.tools.insert", read_only=False, destructive=True, idempotent=False,
    ),
    "apply_patch_overwriting": ToolSpec(
        "apply_patch_overwriting",
        "apply_patch where '*** Add File:' or '*** Move to:' onto an existing file replaces it "
        "(as Codex does); the result shows what the replaced file held.",
        ApplyPatchParams, "edittools.tools.apply_patch", read_only=False, destructive=True,
        idempotent=False,
    ),
    "changes": ToolSpec(
        "changes",
        "The net diff of every file the tools changed since a checkpoint (intermediate steps "
        "collapsed; files also changed outside the tools are marked).",
        ChangesParams, "edittools.tools.review", read_only=True, destructive=False, idempotent=True,
        title="Net changes since a checkpoint",
    ),
    "rewind": ToolSpec(
        "rewind",
        "Put every file the tools changed since a checkpoint back as it was then, all or none: "
        "every agent's changes, not only yours (by: one agent's alone); the result says whose "
        "it took back. Refused for files changed outside the tools since, unless force is true.",
        RewindParams, "edittools.tools.review", read_only=False, destructive=True, idempotent=False,
    ),
    "reject": ToolSpec(
        "reject",
        "Revert one hunk of a file's net diff since a checkpoint, if it still applies, whoever "
        "made it: any agent may take back another's (by: from one agent's changes alone).",
        RejectParams, "edittools.tools.review", read_only=False, destructive=True, idempotent=False,
        title="Take back one hunk of a change",
    ),
    "symbols": ToolSpec(
        "symbols",
        "The definitions of a source file (functions, methods, classes...): each one's lines, "
        "kind and dotted name, as read_symbol and edit_symbol take it.",
        SymbolsParams, "edittools.tools.symbols", read_only=True, destructive=False,
        idempotent=True,
        title="List a file's definitions",
    ),
    "read_symbol": ToolSpec(
        "read_symbol",
        "Read one definition of a source file by its dotted name (`Parser.parse`), with its "
        "decorators and the comments directly above it, as numbered lines. Counts as a read.",
        ReadSymbolParams, "edittools.tools.symbols", read_only=True, destructive=False,
        idempotent=True,
        title="Read one definition",
    ),
    "edit_symbol": ToolSpec(
        "edit_symbol",
        "Change one definition of a file you have read, found by its dotted name: replace it "
        "whole (decorators and the comments directly above it go with it), replace its body, or "
        "put new text before or after it. The text takes the definition's indentation.",
        EditSymbolParams, "edittools.tools.symbols", read_only=False, destructive=True,
        idempotent=False,
        title="Change one definition",
    ),
    "edit_lines": ToolSpec(
        "edit_lines",
        "Replace the lines from anchor start to anchor end (as read with anchors=True, e.g. "
        "'12#a3f') while they still read as they did; lines that moved are found by their "
        "anchors.",
        EditLinesParams, "edittools.tools.anchors", read_only=False, destructive=True,
        idempotent=False,
        title="Replace lines between anchors",
    ),
    "edit_cell": ToolSpec(
        "edit_cell",
        "Change one cell of a Jupyter notebook (.ipynb) you have read: replace its source "
        "(mode=replace; a code cell's outputs and execution count are kept), insert a new "
        "cell after it (mode=insert; no cell: at the top), delete it (mode=delete), or move it "
        "to the 0-based position `to` (mode=move). Name the cell by its id or its 0-based "
        "index. Every other byte of the file is kept.",
        EditCellParams, "edittools.tools.notebook", read_only=False, destructive=True,
        idempotent=False,
        title="Change one notebook cell",
    ),
    "accept": ToolSpec(
        "accept",
        "Mark hunks of a file's net diff since a checkpoint as reviewed.",
        AcceptParams, "edittools.tools.review", read_only=False, destructive=False, idempotent=True,
    ),
}  # fmt: skip
"""Everything the runner runs: the listed tools, and operations only some surfaces or the review
show (insert, apply_patch_overwriting; changes, rewind, reject, accept; the tools by structure
and anchor: symbols, read_symbol, edit_symbol, edit_lines; edit_cell, for notebooks)."""


def input_schema(params: type[ToolParams]) -> dict[str, Any]:
    """The JSON Schema of a parameter model as models are shown it: self-contained (every `$ref`
    replaced by what it names, so strict function-calling modes take it), without the model's
    own title and description (the tool description says that), and without the titles pydantic
    makes of parameter names ("Old String"), which tell a model nothing the name does not."""
    schema = params.model_json_schema(by_alias=True)
    defs = schema.pop("$defs", {})
    schema.pop("title", None)
    schema.pop("description", None)
    inlined: dict[str, Any] = _untitled(_inline(schema, defs))
    return inlined


def _untitled(node: Any) -> Any:
    """`node` with the `title` of every property schema left out."""
    if isinstance(node, list):
        return [_untitled(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _untitled(value) for key, value in node.items() if key != "properties"}
    properties = node.get("properties")
    if isinstance(properties, dict):
        out["properties"] = {
            name: _untitled({k: v for k, v in schema.items() if k != "title"})
            if isinstance(schema, dict)
            else schema
            for name, schema in properties.items()
        }
    return out


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_inline(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = dict(defs[ref.removeprefix("#/$defs/")])
        target.pop("title", None)
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        return _inline({**target, **siblings}, defs)
    return {key: _inline(value, defs) for key, value in node.items()}


STRUCTURE = ("symbols", "read_symbol", "edit_symbol", "edit_lines")
"""The tools by structure and by anchor: offered on request (each costs a model's context)."""


def definitions(style: str = "openai", *, structure: bool = False) -> list[dict[str, Any]]:
    """The tools as function-calling definitions: `openai` (`function` objects) or `anthropic`
    (`input_schema` objects); with `structure`, the tools by structure and anchor too."""
    out = []
    specs = [*TOOLS.values(), *(OPERATIONS[name] for name in STRUCTURE if structure)]
    for spec in specs:
        schema = input_schema(spec.params)
        if style == "openai":
            out.append(
                {
                    "type": "function",
                    "function": {
                        "name": spec.name,
                        "description": spec.description,
                        "parameters": schema,
                    },
                }
            )
        elif style == "anthropic":
            out.append({"name": spec.name, "description": spec.description, "input_schema": schema})
        else:
            raise ValueError(f"unknown definition style {style!r}; use 'openai' or 'anthropic'")
    return out
