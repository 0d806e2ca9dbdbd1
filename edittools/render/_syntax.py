"""Server-side syntax colouring for the HTML report: pygments tokens as a few span classes.

Only token classes from a fixed set reach the markup; every token's text is escaped. Input that
names no known language, or is too large to colour quickly, is shown escaped and uncoloured.
"""

from __future__ import annotations

import html

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Comment, Keyword, Name, Number, Operator, String, _TokenType
from pygments.util import ClassNotFound

# Checked in order: the first ancestor that matches gives the class.
_CLASSES: tuple[tuple[_TokenType, str], ...] = (
    (Comment, "tc"),
    (String, "ts"),
    (Number, "tn"),
    (Keyword, "tk"),
    (Name.Builtin, "tb"),
    (Name.Function, "tf"),
    (Name.Class, "tf"),
    (Name.Decorator, "td"),
    (Operator, "to"),
)

# Colouring is a nicety: beyond this many characters a side is shown plain.
MAX_COLOURED_CHARS = 200_000


def lexer_for(*, filename: str | None = None, lang: str | None = None) -> Lexer | None:
    """Return a lexer for a language name or, failing that, a file name; None when unknown."""
    options = {"stripnl": False, "stripall": False, "ensurenl": False}
    try:
        if lang:
            return get_lexer_by_name(lang, **options)
    except ClassNotFound:
        pass
    try:
        if filename:
            return get_lexer_for_filename(filename, **options)
    except ClassNotFound:
        pass
    return None


def _css_class(token: _TokenType) -> str | None:
    for parent, name in _CLASSES:
        if token in parent:
            return name
    return None


Ranges = tuple[tuple[int, int], ...]


def marked(text: str, at: int, ranges: Ranges) -> str:
    """`text`, which starts at column `at` of its line, escaped, with the parts that fall in
    `ranges` (columns of the line) wrapped in ``<mark>``."""
    if not ranges:
        return html.escape(text, quote=True)
    parts: list[str] = []
    cursor = 0
    for start, end in ranges:
        start, end = max(start - at, cursor), min(end - at, len(text))
        if start >= end:
            continue
        parts.append(html.escape(text[cursor:start], quote=True))
        parts.append(f"<mark>{html.escape(text[start:end], quote=True)}</mark>")
        cursor = end
    parts.append(html.escape(text[cursor:], quote=True))
    return "".join(parts)


def highlight_lines(
    lines: list[str], lexer: Lexer | None, marks: list[Ranges] | None = None
) -> list[str]:
    """Return each line as escaped HTML, coloured with span classes when `lexer` is given.

    The lines are tokenised together so a string or comment spanning lines is coloured whole.
    `marks` gives each line's changed ranges (columns), wrapped in ``<mark>`` inside the
    colouring. The result has exactly one entry per input line.
    """
    ranges: list[Ranges] = marks if marks is not None else [()] * len(lines)
    escaped = [marked(line, 0, line_marks) for line, line_marks in zip(lines, ranges, strict=True)]
    if lexer is None or not lines or sum(map(len, lines)) > MAX_COLOURED_CHARS:
        return escaped
    out: list[str] = []
    current: list[str] = []
    run_class: str | None = None
    run: list[str] = []
    column = 0  # where the run starts in its line

    def close_run() -> None:
        nonlocal column
        if run:
            joined = "".join(run)
            text = marked(joined, column, ranges[len(out)] if len(out) < len(ranges) else ())
            current.append(f'<span class="{run_class}">{text}</span>' if run_class else text)
            column += len(joined)
            run.clear()

    # Adjacent tokens of one class (the quotes and body of a string) share one span.
    for token, value in lexer.get_tokens("\n".join(lines)):
        name = _css_class(token)
        for index, part in enumerate(value.split("\n")):
            if index:
                close_run()
                out.append("".join(current))
                current.clear()
                column = 0
            if part:
                if name != run_class:
                    close_run()
                    run_class = name
                run.append(part)
    close_run()
    out.append("".join(current))
    # A lexer that changed the text (some normalise tabs or newlines) is not trusted to align.
    if len(out) != len(lines):
        return escaped
    return out
