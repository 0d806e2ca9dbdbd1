"""LSP diagnostics as the package's models: 1-based lines, columns in characters."""

from __future__ import annotations

import re
from collections.abc import Iterable

from lsprotocol import types

from edittools.diagnostics._model import Diagnostic, Severity

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SEVERITY: dict[int, Severity] = {1: "error", 2: "warning", 3: "information", 4: "hint"}


def to_models(
    found: Iterable[types.Diagnostic], text: str, *, server: str, utf16: bool
) -> list[Diagnostic]:
    """The diagnostics `server` reported for `text`, hints left out (they are editor decoration).

    `utf16` says the server counted columns in UTF-16 code units, the protocol's default.
    """
    lines = _LINE_BREAK.split(text)
    models = []
    for item in found:
        severity = _SEVERITY.get(int(item.severity), "error") if item.severity else "error"
        if severity == "hint":
            continue
        start, end = item.range.start, item.range.end
        models.append(
            Diagnostic(
                line=start.line + 1,
                column=_column(lines, start, utf16) + 1,
                end_line=end.line + 1,
                end_column=_column(lines, end, utf16) + 1,
                severity=severity,
                code=None if item.code is None else str(item.code),
                message=item.message,
                source=server,
            )
        )
    return models


def _column(lines: list[str], position: types.Position, utf16: bool) -> int:
    """The position's column in code points."""
    if not utf16 or position.line >= len(lines):
        return position.character
    line = lines[position.line]
    if line.isascii():
        return position.character
    units = 0
    for index, char in enumerate(line):
        if units >= position.character:
            return index
        units += 2 if ord(char) > 0xFFFF else 1
    return len(line)
