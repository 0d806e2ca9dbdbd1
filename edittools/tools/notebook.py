"""The edit_cell tool: replace, insert, delete or move one cell of a Jupyter notebook (nbformat 4).

A locator like any other: it parses the notebook's JSON, finds the exact span of the cell (or of
its `source` value) in the text, and replaces only that span with JSON written in the file's own
style, so every other byte is kept and the diff shows that cell alone. A code cell whose source
is replaced keeps its outputs and execution count byte for byte (they are the kernel's record, not
the editor's); a new cell gets a fresh id when the notebook's cells have ids. The read,
freshness, the commit, the undo entry and the diff are `change.execute`'s.
"""

from __future__ import annotations

import dataclasses
import json
import re
import uuid
from typing import Any

from edittools._errors import ToolError
from edittools.artifacts import ToolResult
from edittools.change import (
    Base,
    Call,
    Locate,
    Placed,
    execute,
    line_now,
    lines_of,
    refuse_placeholders,
    resolved,
)
from edittools.state import Workspace
from edittools.syntax import language_of
from edittools.tools._cells import (
    Cell,
    Notebook,
    invalid,
    new_cell,
    parse,
    retyped,
    source_value,
)
from edittools.tools._params import EditCellParams
from sandbox import TextDocument, decode

_INDEX = re.compile(r"(?:cell-)?(\d+)")
"""A cell named by position: `3`, or `cell-3` as Claude Code names the cells of a notebook
without ids."""
_SHOWN_IDS = 20


def edit_cell(ws: Workspace, params: EditCellParams, call: Call) -> ToolResult:
    """Replace, insert, delete or move the cell `params.cell` of the notebook `params.path`."""
    path = resolved(ws, call, params.path)
    if (params.to is None) == (params.mode == "move"):
        raise ToolError(
            "invalid_arguments",
            "Give `to`, the 0-based position the cell goes to, with mode=move."
            if params.to is None
            else f"`to` is for mode=move only, not {params.mode}: omit it, or give mode=move.",
            {"path": path, "mode": params.mode, "to": params.to},
        )
    fresh = uuid.uuid4().hex[:8]  # one per call: every run of the locator must agree

    def at(ref: str | int | None) -> Locate:
        def located(document: TextDocument) -> Placed:
            notebook = parse(document.text, path)
            cell = None if ref is None else find(notebook, ref, path)
            if params.mode == "delete":
                placed = _deleted(notebook, _needed(cell, params.mode), path)
            elif params.mode == "insert":
                placed = _inserted(notebook, cell, params, path, fresh)
            elif params.mode == "move":
                placed = _moved(notebook, _needed(cell, params.mode), params.to or 0, path)
            else:
                placed = _replaced(ws, notebook, _needed(cell, params.mode), params, path)
            return _validated(notebook, placed, path)

        return located

    def moved(base: Base, document: TextDocument) -> Locate:
        # A cell named by its position: cells added or removed above it since the read move it;
        # it is found again by its id, or else by where its first line went.
        read = parse(decode(base.data).text, path)
        if params.cell is None or _by_id(read, params.cell) is not None:
            return at(params.cell)
        cell = find(read, params.cell, path)
        if cell.id is not None:
            return at(cell.id)  # the cell the index named when the notebook was read
        line = line_now(path, base, document, read.text.count("\n", 0, cell.start))
        now = parse(document.text, path)
        starts = [c for c in now.cells if now.text.count("\n", 0, c.start) == line]
        return at(starts[0].index if starts else params.cell)

    return execute(ws, call, path, at(params.cell), new_text={"new_text": params.new_text},
                   moved=moved)  # fmt: skip


def find(notebook: Notebook, ref: str | int, path: str) -> Cell:
    """The cell `ref` names: an id, else a 0-based index (`3`, `"3"`, `"cell-3"`)."""
    if (cell := _by_id(notebook, ref)) is not None:
        return cell
    index = ref if isinstance(ref, int) else None
    if isinstance(ref, str) and (number := _INDEX.fullmatch(ref.strip())):
        index = int(number.group(1))
    count = len(notebook.cells)
    if index is None:
        ids = [c.id for c in notebook.cells if c.id]
        shown = ", ".join(ids[:_SHOWN_IDS]) + (" ..." if len(ids) > _SHOWN_IDS else "")
        known = f"Its cells' ids: {shown}." if ids else "Its cells have no ids: give an index."
        raise ToolError(
            "no_match",
            f"{path} has no cell with id {ref!r}. {known} Or give a 0-based index (0-{count - 1}).",
            {"path": path, "cell": ref, "ids": ids},
        )
    if not 0 <= index < count:
        raise ToolError(
            "invalid_arguments",
            f"Cell {index} is past the end: {path} has {count} cells"
            + (f" (0-{count - 1})." if count else ".")
            + " Give an index in range, or a cell's id.",
            {"path": path, "cell": ref, "cells": count},
        )
    return notebook.cells[index]


def _by_id(notebook: Notebook, ref: str | int) -> Cell | None:
    if isinstance(ref, str):
        for cell in notebook.cells:
            if cell.id == ref.strip():
                return cell
    return None


def _needed(cell: Cell | None, mode: str) -> Cell:
    if cell is None:
        raise ToolError(
            "invalid_arguments",
            f"Give the cell to {mode}: its id or its 0-based index (only insert may omit it, "
            "to put the new cell at the top).",
        )
    return cell


def _relied(notebook: Notebook, start: int, end: int) -> list[tuple[int, int]]:
    return lines_of(notebook.text, [(start, end)])


def _replaced(
    ws: Workspace, notebook: Notebook, cell: Cell, params: EditCellParams, path: str
) -> Placed:
    """The cell's source replaced (its outputs and count kept), or the cell rewritten whole when
    its type changes."""
    source = params.new_text.replace("\r\n", "\n")
    kind = params.cell_type or cell.cell_type
    if ws.options.refuse_placeholders:
        # The file's JSON hides the comments from the guard `execute` runs on the whole text.
        language = _language(notebook, kind)
        refuse_placeholders(
            path, cell.source, source, language, where=f"{cell.describe()} of {path}"
        )
    headline = f"Replaced {cell.describe()} of {path}"
    relied = _relied(notebook, cell.start, cell.end)
    if kind != cell.cell_type or "source" not in cell.members:
        whole = retyped(cell, kind, source, sort_keys=notebook.style.sort_keys)
        headline += f", now a {kind} cell" if kind != cell.cell_type else ""
        said = _dropped(cell) if kind != "code" else ""
        return Placed(((cell.start, cell.end, notebook.dump(whole, cell.start)),), headline,
                      relied, said)  # fmt: skip
    if source == cell.source:
        return Placed((), headline, relied)  # nothing changes: execute says so
    as_list = not isinstance(cell.data.get("source"), str)
    member = cell.members["source"]
    new = notebook.dump(source_value(source, as_list=as_list), member.start)
    return Placed.span(member.value_start, member.value_end, new, relied[0], headline)


def _dropped(cell: Cell) -> str:
    """What a code cell turned into markdown lost, as the result says it (a markdown cell has no
    outputs and no execution count)."""
    outputs = cell.data.get("outputs")
    dropped = []
    if isinstance(outputs, list) and outputs:
        dropped.append(f"its {len(outputs)} output{'s' if len(outputs) != 1 else ''}")
    if cell.data.get("execution_count") is not None:
        dropped.append("its execution count")
    if not dropped:
        return ""
    return f"Dropped {' and '.join(dropped)}: a markdown cell has none."


def _inserted(
    notebook: Notebook, after: Cell | None, params: EditCellParams, path: str, fresh: str
) -> Placed:
    """A new cell after `after` (None: at the top)."""
    kind = params.cell_type or "code"
    cell_id = _unique(fresh, notebook) if notebook.uses_ids else None
    value = new_cell(notebook, kind, params.new_text.replace("\r\n", "\n"), cell_id)
    index = 0 if after is None else after.index + 1
    named = f" (id {cell_id})" if cell_id else ""
    headline = f"Inserted a {kind} cell{named} as cell {index} of {path}"
    separator = notebook.style.item_separator
    cells, array = notebook.cells, notebook.array
    if not cells:
        new = notebook.dump([value], array.start)
        return Placed.span(array.value_start, array.value_end, new,
                           _relied(notebook, array.start, array.value_end)[0], headline)  # fmt: skip
    neighbour = after or cells[0]
    lead = notebook.indentation(neighbour.start)
    gap = separator + ("\n" + lead if notebook.style.indent is not None else "")
    dumped = notebook.dump(value, neighbour.start)
    if after is None:
        at, piece = cells[0].start, dumped + gap
        relied = _relied(notebook, cells[0].start, cells[0].start + 1)[0]
    else:
        at, piece = after.end, gap + dumped
        relied = _relied(notebook, after.end - 1, after.end)[0]
    return Placed.span(at, at, piece, relied, headline)


def _deleted(notebook: Notebook, cell: Cell, path: str) -> Placed:
    """The cell taken out with the separator that set it apart."""
    cells = notebook.cells
    if len(cells) == 1:
        start, end = notebook.array.value_start + 1, notebook.array.value_end - 1
    elif cell.index + 1 < len(cells):
        start, end = cell.start, cells[cell.index + 1].start
    else:
        start, end = cells[cell.index - 1].end, cell.end
    headline = f"Deleted {cell.cell_type} {cell.describe()} of {path}"
    return Placed.span(start, end, "", _relied(notebook, cell.start, cell.end)[0], headline)


def _moved(notebook: Notebook, cell: Cell, to: int, path: str) -> Placed:
    """The cell taken out with the separator on one side and put, with it, where it is the
    `to`-th: two spans, so every byte of every cell is kept and the cells it passes are not
    relied on (a change to them since the read is kept)."""
    cells, text = notebook.cells, notebook.text
    if not 0 <= to < len(cells):
        raise ToolError(
            "invalid_arguments",
            f"Position {to} is past the end: {path} has {len(cells)} cells (0-{len(cells) - 1}).",
            {"path": path, "to": to, "cells": len(cells)},
        )
    headline = f"Moved {cell.cell_type} {cell.describe()} of {path} to position {to}"
    relied = _relied(notebook, cell.start, cell.end)
    piece = text[cell.start : cell.end]
    if to == cell.index:
        return Placed((), headline, relied)  # nothing changes: execute says so
    if to > cell.index:  # out with the separator after it, in after the cell now at `to`
        gap = text[cell.end : cells[cell.index + 1].start]
        target = cells[to].end
        spans = [(cell.start, cells[cell.index + 1].start, ""), (target, target, gap + piece)]
        relied += _relied(notebook, target - 1, target)
    else:  # out with the separator before it, in before the cell now at `to`
        gap = text[cells[cell.index - 1].end : cell.start]
        target = cells[to].start
        spans = [(target, target, piece + gap), (cells[cell.index - 1].end, cell.end, "")]
        relied = _relied(notebook, target, target + 1) + relied
    return Placed(spans, headline, relied)


def _validated(notebook: Notebook, placed: Placed, path: str) -> Placed:
    """`placed`, when the notebook it makes is valid nbformat 4; refused (`invalid_arguments`,
    reason `invalid_notebook`) when it is not. A notebook that was not valid before the change
    can still be changed, and the result says what nbformat finds wrong with it."""
    if not placed.spans:
        return placed
    text, last = [], 0
    for start, end, new in placed.spans:
        text += [notebook.text[last:start], new]
        last = end
    why = invalid(json.loads("".join(text) + notebook.text[last:]))
    if why is None:
        return placed
    if (before := invalid(notebook.data)) is not None:
        note = f"{path} was not valid nbformat before this change either: {before}."
        return dataclasses.replace(placed, said=" ".join(filter(None, (placed.said, note))))
    raise ToolError(
        "invalid_arguments",
        f"Not changed: {placed.headline[:1].lower()}{placed.headline[1:]} would make it invalid "
        f"nbformat: {why}. The notebook must stay valid; change the call (another cell type, "
        "say) or edit the cell's JSON with edit.",
        {"path": path, "reason": "invalid_notebook", "message": why},
    )


def _unique(fresh: str, notebook: Notebook) -> str:
    taken = {c.id for c in notebook.cells}
    candidate, n = fresh, 0
    while candidate in taken:
        n += 1
        candidate = f"{fresh}-{n}"
    return candidate


def _language(notebook: Notebook, kind: str) -> str | None:
    if kind == "markdown":
        return "markdown"
    info: Any = notebook.data.get("metadata", {})
    info = info.get("language_info", {}) if isinstance(info, dict) else {}
    extension = info.get("file_extension", ".py") if isinstance(info, dict) else ".py"
    return language_of(f"cell{extension}") if isinstance(extension, str) else "python"
