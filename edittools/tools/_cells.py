"""A Jupyter notebook's cells as spans of its JSON text, and new cells written in its own style.

The notebook is parsed twice: whole by `json.loads` (which judges it valid), and walked once
for the offsets of the `cells` array, of each cell object and of each cell's members, the
standard library's decoder finding where each key and value ends. New JSON is written as the file
writes it (nbformat: indent 1, keys sorted, non-ASCII kept, separators `,` and `: `), found
from the text itself: the indentation unit, the separators, whether non-ASCII is escaped and
whether keys are sorted; a source is a list of lines, each ending in "\\n" but the last (or a
string, in a cell that has one).
"""

from __future__ import annotations

import copy
import json
import re
import warnings
from dataclasses import dataclass
from typing import Any

from edittools._errors import ToolError

_WHITESPACE = " \t\n\r"
_DECODER = json.JSONDecoder()
# A \\u escape of a non-ASCII character (not itself an escaped backslash followed by "u").
_ESCAPED_NON_ASCII = re.compile(
    r"(?<!\\)(?:\\\\)*\\u(?:00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})"
)
_CODE_KEYS = ("cell_type", "execution_count", "id", "metadata", "outputs", "source")
_MARKDOWN_KEYS = ("cell_type", "id", "metadata", "source")


@dataclass(frozen=True)
class Member:
    """One member of a JSON object: its key, and where its key and its value are in the text."""

    key: str
    start: int
    """The offset of the key's opening quote."""
    value_start: int
    value_end: int


@dataclass(frozen=True)
class Cell:
    """One cell: its position, its span in the text, its members' spans and its parsed value."""

    index: int
    start: int
    end: int
    members: dict[str, Member]
    order: tuple[str, ...]
    data: dict[str, Any]

    @property
    def id(self) -> str | None:
        value = self.data.get("id")
        return value if isinstance(value, str) else None

    @property
    def cell_type(self) -> str:
        return str(self.data.get("cell_type", ""))

    @property
    def source(self) -> str:
        return source_text(self.data.get("source", ""))

    def describe(self) -> str:
        """`cell 3 (id a1b2c3d4)`, or `cell 3` in a notebook without ids."""
        return f"cell {self.index}" + (f" (id {self.id})" if self.id else "")


@dataclass(frozen=True)
class Style:
    """How the file writes its JSON."""

    indent: str | None
    """The indentation unit (None: all on one line)."""
    item_separator: str
    key_separator: str
    ensure_ascii: bool
    sort_keys: bool


@dataclass(frozen=True)
class Notebook:
    """A notebook's text, its parsed value, its cells and where its `cells` array is."""

    text: str
    data: dict[str, Any]
    cells: list[Cell]
    array: Member
    """The `cells` member of the notebook object."""
    style: Style

    @property
    def uses_ids(self) -> bool:
        """Whether new cells get an id: a cell has one, or the format's minor version is 5+."""
        minor = self.data.get("nbformat_minor")
        return any(c.id for c in self.cells) or (isinstance(minor, int) and minor >= 5)

    def indentation(self, offset: int) -> str:
        """The whitespace from the start of the line holding `offset` up to it."""
        line = self.text.rfind("\n", 0, offset) + 1
        lead = self.text[line:offset]
        return lead if not lead.strip() else ""

    def dump(self, value: Any, at: int) -> str:
        """`value` as JSON in the file's style, for a place whose line is indented as `at`'s."""
        style = self.style
        text = json.dumps(
            value,
            indent=style.indent,
            ensure_ascii=style.ensure_ascii,
            separators=(style.item_separator, style.key_separator),
        )
        if style.indent is None:
            return text
        return text.replace("\n", "\n" + self.indentation(at))


def parse(text: str, path: str) -> Notebook:
    """The notebook `text` holds; `invalid_arguments` (reason `not_a_notebook`) when it is not
    nbformat 4 JSON, saying where it is not."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        where = (
            f" (line {exc.lineno}, column {exc.colno}: {exc.msg})"
            if isinstance(exc, json.JSONDecodeError)
            else ""
        )
        raise not_a_notebook(path, f"it is not valid JSON{where}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise not_a_notebook(path, 'it is not a JSON object with a "cells" list')
    if data.get("nbformat") != 4:
        raise not_a_notebook(path, f"it is nbformat {data.get('nbformat')!r}; only 4 is edited")
    if not all(isinstance(cell, dict) for cell in data["cells"]):
        raise not_a_notebook(path, "one of its cells is not a JSON object")
    top, order = _members(text, _skip(text, 0))
    array = top["cells"]
    cells = []
    for index, (start, end) in enumerate(_elements(text, array.value_start)):
        members, keys = _members(text, start)
        cells.append(Cell(index, start, end, members, keys, data["cells"][index]))
    return Notebook(text, data, cells, array, _style(text, top, order, cells))


def not_a_notebook(path: str, why: str) -> ToolError:
    return ToolError(
        "invalid_arguments",
        f"{path} cannot be edited by cell: {why}. Read it and use edit or write instead.",
        {"path": path, "reason": "not_a_notebook"},
    )


def invalid(data: Any) -> str | None:
    """Why the notebook `data` is not valid nbformat 4 (None: it is), as nbformat's validator
    says it. A missing or repeated cell id, which the validator repairs in its copy with a
    warning, is invalid here: the file would keep it."""
    import nbformat  # here: a tenth of a second to import, paid by the first cell edit only

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            nbformat.validate(copy.deepcopy(data), version=4)
        except nbformat.ValidationError as exc:
            where = "".join(
                f"[{part}]" if isinstance(part, int) else f".{part}"
                for part in getattr(exc, "absolute_path", ())
            )
            return f"{exc.message} (at {where.lstrip('.')})" if where else str(exc.message)
    for warning in caught:
        if type(warning.message).__name__ in ("MissingIDFieldWarning", "DuplicateCellId"):
            return str(warning.message).split(" You may want", 1)[0]
    return None


def source_text(source: Any) -> str:
    """A cell's source as one string (nbformat allows a list of lines or a string)."""
    if isinstance(source, list):
        return "".join(str(line) for line in source)
    return str(source)


def source_value(text: str, *, as_list: bool) -> list[str] | str:
    """`text` as a cell's `source`: lines each ending in "\\n" but the last, as nbformat writes."""
    if not as_list:
        return text
    return [line for line in re.split(r"(?<=\n)", text) if line]


def new_cell(
    notebook: Notebook, cell_type: str, source: str, cell_id: str | None
) -> dict[str, Any]:
    """A fresh cell of `cell_type`, its keys in the order the notebook's cells have them."""
    as_list = all(isinstance(c.data.get("source"), list) for c in notebook.cells)
    fields: dict[str, Any] = {
        "cell_type": cell_type,
        "id": cell_id,
        "metadata": {},
        "source": source_value(source, as_list=as_list),
    }
    if cell_type == "code":
        fields |= {"execution_count": None, "outputs": []}
    if cell_id is None:
        del fields["id"]
    keys: tuple[str, ...] = _CODE_KEYS if cell_type == "code" else _MARKDOWN_KEYS
    if not notebook.style.sort_keys:
        like = [c for c in notebook.cells if c.cell_type == cell_type] or notebook.cells
        if like:
            known = [k for k in like[0].order if k in fields]
            keys = (*known, *(k for k in keys if k not in known))
    return {key: fields[key] for key in keys if key in fields}


def retyped(cell: Cell, cell_type: str, source: str, *, sort_keys: bool) -> dict[str, Any]:
    """`cell` turned into a cell of `cell_type` holding `source`: its id and metadata kept, the
    members the new type has not dropped, those it needs added."""
    out = {k: v for k, v in cell.data.items() if k not in ("outputs", "execution_count")}
    out["cell_type"] = cell_type
    out["source"] = source_value(source, as_list=not isinstance(cell.data.get("source"), str))
    if cell_type == "code":
        out.pop("attachments", None)  # nbformat 4 allows attachments on markdown and raw only
        out |= {"execution_count": None, "outputs": []}
    order = sorted(out) if sort_keys else [*(k for k in cell.order if k in out)]
    order += [k for k in _CODE_KEYS if k in out and k not in order]
    return {key: out[key] for key in order}


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _WHITESPACE:
        at += 1
    return at


def _members(text: str, at: int) -> tuple[dict[str, Member], tuple[str, ...]]:
    """The members of the object whose "{" is at `at` (in a text `json.loads` accepted)."""
    members: dict[str, Member] = {}
    order: list[str] = []
    at = _skip(text, at + 1)
    while text[at] != "}":
        start = at
        key, at = _DECODER.raw_decode(text, at)
        at = _skip(text, _skip(text, at) + 1)  # past the colon
        _, end = _DECODER.raw_decode(text, at)
        members[key] = Member(key, start, at, end)
        order.append(key)
        at = _skip(text, end)
        if text[at] == ",":
            at = _skip(text, at + 1)
    return members, tuple(order)


def _elements(text: str, at: int) -> list[tuple[int, int]]:
    """The spans of the elements of the array whose "[" is at `at`."""
    spans = []
    at = _skip(text, at + 1)
    while text[at] != "]":
        _, end = _DECODER.raw_decode(text, at)
        spans.append((at, end))
        at = _skip(text, end)
        if text[at] == ",":
            at = _skip(text, at + 1)
    return spans


def _style(text: str, top: dict[str, Member], order: tuple[str, ...], cells: list[Cell]) -> Style:
    first = top[order[0]]
    opening = text.rfind("{", 0, first.start)
    lead = text[opening + 1 : first.start]
    indent = lead.rsplit("\n", 1)[1] if "\n" in lead else None
    key_end = _DECODER.raw_decode(text, first.start)[1]
    key_separator = text[key_end : first.value_start]
    item_separator = ","
    if len(order) > 1:
        between = text[first.value_end : top[order[1]].start]
        item_separator = between.split("\n", 1)[0].rstrip("\r") if "\n" in between else between
    ensure_ascii = text.isascii() and _ESCAPED_NON_ASCII.search(text) is not None
    orders = [order, *(cell.order for cell in cells)]
    sort_keys = all(list(keys) == sorted(keys) for keys in orders)
    return Style(indent, item_separator, key_separator, ensure_ascii, sort_keys)
