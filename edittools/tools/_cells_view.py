"""A notebook as `read` shows it: its cells numbered, each with its kind, id and execution count,
its source whole in a fence, and each output summed up in one line (what it is, and the first line
of its text); the notebook's JSON is for a read with a range."""

from __future__ import annotations

import re
from typing import Any

from edittools.change import CUT_MARKER
from edittools.tools._cells import Notebook, source_text

_SUMMARY_CHARS = 160
"""The most of an output's text a summary shows (its first line, cut)."""
_BACKTICKS = re.compile(r"`{3,}")


def cells_view(notebook: Notebook, path: str, line_chars: int) -> str:
    """The text a read of the notebook `path` shows; a source line over `line_chars` is cut."""
    data = notebook.data
    minor = data.get("nbformat_minor")
    version = f"4.{minor}" if isinstance(minor, int) else "4"
    count = len(notebook.cells)
    parts = [
        f"{path}: a Jupyter notebook (nbformat {version}), {count} cell{'s' if count != 1 else ''}."
        " Change a cell with edit_cell (cell: its id, or the number shown); read with offset or"
        " limit other than the defaults for the notebook's JSON lines."
    ]
    language = _language(data)
    for cell in notebook.cells:
        header = f"## cell {cell.index} · {cell.cell_type or 'unknown'}"
        if cell.id:
            header += f" · id {cell.id}"
        if isinstance(cell.data.get("execution_count"), int):
            header += f" · execution_count {cell.data['execution_count']}"
        source = _cut(cell.source, line_chars)
        fence = "`" * max([3, *(len(run) + 1 for run in _BACKTICKS.findall(source))])
        tag = language if cell.cell_type == "code" else ""
        block = [header, f"{fence}{tag}", *([source.removesuffix("\n")] if source else []), fence]
        outputs = cell.data.get("outputs")
        if isinstance(outputs, list):
            block += [f"[output {n}] {output_line(output)}" for n, output in enumerate(outputs)]
        if isinstance(cell.data.get("attachments"), dict) and cell.data["attachments"]:
            block.append(f"[attachments] {', '.join(sorted(cell.data['attachments']))}")
        parts.append("\n".join(block))
    return "\n\n".join(parts) + "\n"


def output_line(output: Any) -> str:
    """One line for one output: its type, then what it holds."""
    if not isinstance(output, dict):
        return "(not an output object)"
    kind = str(output.get("output_type", "output"))
    if kind == "stream":
        text = source_text(output.get("text", ""))
        lines = text.count("\n") + (not text.endswith("\n") and bool(text))
        return f"stream {output.get('name', '')}: {_first(text)} ({lines} line{'s' * (lines != 1)})"
    if kind == "error":
        return f"error: {output.get('ename', '')}: {_first(str(output.get('evalue', '')))}"
    bundle = output.get("data")
    if not isinstance(bundle, dict) or not bundle:
        return kind
    shown = []
    for mime, value in bundle.items():
        text = source_text(value) if isinstance(value, (str, list)) else str(value)
        if mime == "text/plain" or (mime.startswith("text/") and "text/plain" not in bundle):
            shown.append(f"{mime} {_first(text)}")
        else:
            shown.append(f"{mime} ({len(text)} characters)")
    return f"{kind}: {', '.join(shown)}"


def _first(text: str) -> str:
    line = text.strip("\n").split("\n", 1)[0]
    return line if len(line) <= _SUMMARY_CHARS else line[:_SUMMARY_CHARS] + "…"


def _cut(source: str, line_chars: int) -> str:
    lines = source.split("\n")
    if all(len(line) <= line_chars for line in lines):
        return source
    cut = CUT_MARKER.format
    return "\n".join(
        line if len(line) <= line_chars else line[:line_chars] + cut(more=len(line) - line_chars)
        for line in lines
    )


def _language(data: dict[str, Any]) -> str:
    info = data.get("metadata", {})
    info = info.get("language_info", {}) if isinstance(info, dict) else {}
    name = info.get("name") if isinstance(info, dict) else None
    return name if isinstance(name, str) and name.isidentifier() else "python"
