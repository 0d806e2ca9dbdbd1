"""Tools by structure: a file's definitions (`symbols`), one of them read (`read_symbol`) or
changed (`edit_symbol`), named by their dotted path.

A definition's span takes in its decorators, attributes and the comments directly above it (see
`syntax._symbols`). New text takes the definition's indentation (its body's, for `where="body"`)
and the file's newlines; text put before or after a definition is set apart by as many blank
lines as the file has above it. A name that fits several definitions is refused with each one's
lines; a name that fits none lists the nearest.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import replace

from edittools._errors import ToolError
from edittools.artifacts import TableArtifact, TablePayload, ToolResult
from edittools.change import Call, Placed, execute, read_existing, resolved
from edittools.state import Workspace
from edittools.syntax import SYMBOL_LANGUAGES, NoSymbols, OutOfTime, Symbol, language_of, outline
from edittools.tools._params import EditSymbolParams, ReadParams, ReadSymbolParams, SymbolsParams
from edittools.tools.read import read
from sandbox import TextDocument, decode

_KEYWORDS = re.compile(r"^(?:impl|fn|def|class|func|function|struct|trait|module|mod)\s+")
_AT_LINE = re.compile(r"^(.*?):(\d+)$")


def symbols(ws: Workspace, params: SymbolsParams, call: Call) -> ToolResult:
    """The outline of `params.path`: each definition's lines, kind and dotted name."""
    path = ws.sandbox.relpath(params.path)
    before, _ = read_existing(ws, path)
    document = decode(before)
    found = _outline(path, document)
    rows: list[list[object]] = [[s.first_line, s.last_line, s.kind, s.path] for s in found]
    lines = [f"{s.first_line}-{s.last_line}\t{'  ' * s.depth}{s.kind} {s.path}" for s in found]
    head = f"{path}: {len(found)} definitions (lines, kind, name)"
    value = head + ("\n" + "\n".join(lines) if lines else "\n(none found)")
    artifact = TableArtifact(
        icon="list-tree",
        title=f"{path} outline",
        payload=TablePayload(columns=["first_line", "last_line", "kind", "symbol"], rows=rows),
    )
    return ToolResult(value=value, artifact=artifact)


def read_symbol(ws: Workspace, params: ReadSymbolParams, call: Call) -> ToolResult:
    """The numbered lines of one definition of `params.path`, recorded as a read of the file."""
    path = ws.sandbox.relpath(params.path)
    before, _ = read_existing(ws, path)
    symbol = find(path, _outline(path, decode(before)), params.symbol)
    window = ReadParams(
        path=params.path,
        offset=symbol.first_line,
        limit=symbol.last_line - symbol.first_line + 1,
    )
    result = read(ws, window, call)
    head = f"{symbol.kind} {symbol.path}, lines {symbol.first_line}-{symbol.last_line} of {path}:\n"
    body = result.value.split("\n\n[Showing lines ", 1)[0]  # the window is the definition
    return result.model_copy(update={"value": head + body})


def edit_symbol(ws: Workspace, params: EditSymbolParams, call: Call) -> ToolResult:
    """Replace a definition of `params.path` (or its body), or put text before or after it."""
    path = resolved(ws, call, params.path)
    what = {
        "replace": "Replaced",
        "body": "Replaced the body of",
        "before": "Put text before",
        "after": "Put text after",
    }[params.where]

    def locate(document: TextDocument) -> Placed:
        symbol = find(path, _outline(path, document), params.symbol)
        placed = _placed(document.text, symbol, params.new_text, params.where)
        headline = f"{what} {symbol.kind} {symbol.path} in {path}"
        return replace(placed, headline=headline)

    return execute(ws, call, path, locate, new_text={"new_text": params.new_text})


def _outline(path: str, document: TextDocument) -> list[Symbol]:
    language = language_of(path)
    if language not in SYMBOL_LANGUAGES:
        known = "Python, JavaScript, TypeScript, Go, Rust, Java, C, C++, Ruby and Bash"
        raise ToolError(
            "invalid_arguments",
            f"{path}: definitions are found in {known} files, and this one is "
            f"{'of no known language' if language is None else language}. Use read and edit.",
        )
    source = document.text.encode("utf-8", "surrogatepass")
    try:
        found = outline(str(language), source)
    except (NoSymbols, OutOfTime) as exc:
        raise ToolError(
            "too_large" if isinstance(exc, OutOfTime) else "invalid_arguments",
            f"{path} could not be parsed for its definitions"
            + (" in time. Use read and edit." if isinstance(exc, OutOfTime) else "."),
        ) from exc
    if len(source) == len(document.text):
        return found
    chars = _in_characters(source, found)
    return [
        replace(
            symbol,
            start=chars[symbol.start],
            end=chars[symbol.end],
            body=None if symbol.body is None else (chars[symbol.body[0]], chars[symbol.body[1]]),
        )
        for symbol in found
    ]


def _in_characters(source: bytes, found: list[Symbol]) -> dict[int, int]:
    """Each byte offset of `found` in the UTF-8 `source`, counted in characters instead: one
    pass from offset to offset in order (decoding each prefix anew would be quadratic)."""
    offsets = {symbol.start for symbol in found} | {symbol.end for symbol in found}
    offsets |= {edge for symbol in found if symbol.body for edge in symbol.body}
    chars: dict[int, int] = {}
    at = count = 0
    for offset in sorted(offsets):
        count += len(source[at:offset].decode("utf-8", "surrogatepass"))
        chars[offset], at = count, offset
    return chars


def find(path: str, found: list[Symbol], query: str) -> Symbol:
    """The one definition `query` names: its dotted path, a unique last part of it, or either
    with `:LINE`. Refuses a name that fits several (`ambiguous_match`) or none (`no_match`)."""
    wanted = _KEYWORDS.sub("", query.strip()).replace("::", ".")
    line = None
    if at := _AT_LINE.match(wanted):
        wanted, line = at.group(1), int(at.group(2))
    fits: list[Symbol] = []
    # `#` is part of a JavaScript private name (`Box.#open`), or Ruby's `Class#method`.
    for name in dict.fromkeys([wanted, re.sub(r"(?<=\w)#(?=\w)", ".", wanted)]):
        exact = [s for s in found if s.path == name]
        fits = exact or [s for s in found if s.path.endswith("." + name)]
        if fits:
            wanted = name
            break
    if line is not None:
        fits = [s for s in fits if s.first_line <= line <= s.last_line]
    if len(fits) == 1:
        return fits[0]
    if fits:
        places = ", ".join(f"{s.kind} {s.path} at lines {s.first_line}-{s.last_line}" for s in fits)
        raise ToolError(
            "ambiguous_match",
            f"{query!r} names {len(fits)} definitions in {path}: {places}. Give the full "
            f"dotted name, or NAME:LINE (e.g. {fits[0].path}:{fits[0].first_line}).",
            {"candidates": [[s.path, s.first_line, s.last_line] for s in fits]},
        )
    names = sorted({s.path for s in found} | {s.name for s in found})
    near = difflib.get_close_matches(wanted, names, n=5, cutoff=0.5)
    hint = f" Nearest: {', '.join(near)}." if near else ""
    raise ToolError(
        "no_match",
        f"{path} defines no {query!r}.{hint} The symbols tool lists every definition.",
        {"nearest": near},
    )


def _placed(text: str, symbol: Symbol, new_text: str, where: str) -> Placed:
    """Where `new_text` goes for `where` around or in `symbol`, indented to fit.

    A definition is changed by whole lines, the lines `read_symbol` shows: what shares its first
    or last line (the `;` after a C struct, a `typedef`) is in the text shown, and so in the text
    sent back."""
    line_start = text.rfind("\n", 0, symbol.start) + 1
    end_of_line = text.find("\n", symbol.end)
    line_end = len(text) if end_of_line == -1 else end_of_line
    indent = _indent(text, line_start)
    lines = (symbol.first_line, symbol.last_line)
    if where == "replace" and not new_text.strip():
        return _removed(text, line_start, line_end, lines)
    if where == "replace":
        return Placed.span(line_start, line_end, _indented(new_text, indent), lines)
    if where == "body":
        return _body(text, symbol, new_text, indent, lines)
    gap = "\n" * (1 + _blank_lines_above(text, line_start))
    piece = _indented(new_text, indent)
    if where == "before":
        return Placed.span(line_start, line_start, piece + gap, lines)
    if end_of_line == -1:  # the definition ends the file, with no newline
        return Placed.span(len(text), len(text), gap + piece, lines)
    return Placed.span(end_of_line + 1, end_of_line + 1, gap[1:] + piece + "\n", lines)


def _removed(text: str, line_start: int, line_end: int, lines: tuple[int, int]) -> Placed:
    """The definition's lines taken out whole, with the blank lines that set it apart above it
    (those below it then set apart what follows)."""
    end = line_end + 1 if line_end < len(text) else line_end
    start = line_start
    while start > 0:
        previous = text.rfind("\n", 0, start - 1) + 1
        if text[previous : start - 1].strip():
            break
        start = previous
    if end == len(text) and start > 0:  # the last definition: the file still ends with a newline
        start, end = start - 1, len(text) - (1 if text.endswith("\n") else 0)
    return Placed.span(start, end, "", lines)


def _body(text: str, symbol: Symbol, new_text: str, indent: str, lines: tuple[int, int]) -> Placed:
    if symbol.body is None:
        raise ToolError(
            "invalid_arguments",
            f"{symbol.kind} {symbol.path} has no body to replace. Use where='replace'.",
        )
    start, end = symbol.body
    braced = text[start : start + 1] == "{" and text[end - 1 : end] == "}"
    if braced:
        start, end = start + 1, end - 1
    inner = text[start:end]
    first_inner = next((ln for ln in inner.split("\n") if ln.strip()), "")
    own_line = (
        "\n" in text[text.rfind("\n", 0, start) + 1 : start]
        or not text[text.rfind("\n", 0, start) + 1 : start].strip()
    )
    unit = _indent_unit(text)
    body_indent = (
        first_inner[: len(first_inner) - len(first_inner.lstrip())]
        if "\n" in inner or own_line
        else ""
    ) or indent + unit
    piece = _indented(new_text, body_indent)
    if braced:
        closing = text.rfind("\n", 0, end)
        if closing >= start and not text[closing + 1 : end].strip():  # `}` on its own line
            opening = text.find("\n", start)
            return Placed.span(opening + 1, closing + 1, piece + "\n", lines)
        return Placed.span(start, end, "\n" + piece + "\n" + indent, lines)
    line_start = text.rfind("\n", 0, start) + 1
    if not text[line_start:start].strip():  # a block on lines of its own
        return Placed.span(line_start, end, piece, lines)
    header_end = line_start + len(text[line_start:start].rstrip())  # `def f(): pass`
    return Placed.span(header_end, end, "\n" + piece, lines)


def _indent(text: str, line_start: int) -> str:
    line = text[line_start : text.find("\n", line_start) if "\n" in text[line_start:] else None]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _indent_unit(text: str) -> str:
    """One level of indentation as the file writes it: a tab, or its first indent's spaces."""
    for line in text.split("\n", 2000):
        stripped = line.lstrip(" \t")
        if stripped and stripped != line:
            lead = line[: len(line) - len(stripped)]
            return "\t" if lead.startswith("\t") else " " * max(2, min(len(lead), 8))
    return "    "


def _indented(new_text: str, indent: str) -> str:
    """`new_text` (outer blank lines left out) at `indent`. Text whose first line already starts
    with `indent` is kept as it is (sent back as read, or deeper on purpose). Other text is moved
    right by what its first line lacks: every line that starts with the first line's indentation
    gets `indent` in its place; lines indented less (a string's lines at column 0) and blank ones
    are kept as they are."""
    body = new_text.replace("\r\n", "\n").strip("\n")
    first = next((line for line in body.split("\n") if line.strip()), "")
    if first.startswith(indent):
        return body
    base = first[: len(first) - len(first.lstrip(" \t"))]
    return "\n".join(
        indent + line[len(base) :] if line.strip() and line.startswith(base) else line
        for line in body.split("\n")
    )


def _blank_lines_above(text: str, line_start: int) -> int:
    count, at = 0, line_start
    while at > 0:
        previous = text.rfind("\n", 0, at - 1) + 1
        if text[previous : at - 1].strip():
            break
        count, at = count + 1, previous
    return min(count, 2) if at > 0 else 0
