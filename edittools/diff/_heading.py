"""Function context for hunk headers: the line git prints after ``@@ -l,s +l,s @@``.

By default that is the nearest line above the hunk (in the old text) that starts with a letter,
``_`` or ``$``, as git's default. For a few languages, told apart by the file's extension, a
line that opens a function, class or similar section is preferred, as git's built-in drivers
do (Python's is git's own pattern, so ``*.py diff=python`` gives the same headings). The search
looks back at most `REACH` characters, and one `Headings` serves the hunks of one diff in order,
so each stretch of the file is searched once.
"""

from __future__ import annotations

import re
from typing import Generic, TypeVar

T = TypeVar("T", str, bytes)

REACH = 100_000
"""Most characters (bytes for byte texts) above a hunk searched for its heading."""
_STEPS = (1024, 16384, REACH)
MAX_HEADING = 80
"""Most bytes of a heading, as git keeps."""

_DEFAULT = r"[A-Za-z_$][^\n]*"
_C_LABEL = r"(?![A-Za-z_][A-Za-z_0-9]*:[ \t]*(?:$|//|/\*))"
_MODIFIERS = (
    r"(?:(?:public|protected|private|static|abstract|final|sealed|synchronized|native)[ \t]+)"
)
_JS_NOT = r"(?!(?:if|for|while|switch|catch|return|with|do|else|typeof|new)\b)"
_PATTERNS = {
    "python": r"[ \t]*((?:class|(?:async[ \t]+)?def)[ \t][^\n]*)",
    "c": rf"{_C_LABEL}((?:::[ \t]*)?[A-Za-z_][^\n]*)",
    "go": r"[ \t]*((?:func[ \t(]|type[ \t][^\n]*(?:struct|interface)\b)[^\n]*)",
    "rust": (
        r"[ \t]*((?:pub(?:\([^)\n]*\))?[ \t]+)?(?:(?:async|const|unsafe|extern(?:[ \t]+\"[^\"\n]*\")?)[ \t]+)*"
        r"(?:struct|enum|union|mod|trait|fn|impl|macro_rules!)[< \t][^;\n]*)"
    ),
    "java": (
        rf"[ \t]*({_MODIFIERS}*(?:class|interface|enum|record|@interface)[ \t][^\n]*"
        rf"|{_MODIFIERS}+[^=;\n]*\([^\n]*)"
    ),
    "javascript": (
        r"[ \t]*((?:export[ \t]+)?(?:default[ \t]+)?(?:async[ \t]+)?"
        r"(?:function\b|class[ \t])[^\n]*"
        r"|(?:export[ \t]+)?(?:const|let|var)[ \t]+[\w$]+[ \t]*=[ \t]*(?:async[ \t]*)?"
        r"(?:function\b|\([^\n]*\)[ \t]*=>|[\w$]+[ \t]*=>)[^\n]*"
        rf"|(?:(?:public|private|protected|static|async|get|set|override)[ \t]+)*{_JS_NOT}"
        r"[\w$]+[ \t]*\([^;\n]*\)[ \t]*(?::[^;{\n]*)?\{[ \t]*)"
    ),
}
_LANGUAGES = {
    "py": "python",
    "pyi": "python",
    "pyw": "python",
    "c": "c",
    "h": "c",
    "cc": "c",
    "cpp": "c",
    "cxx": "c",
    "hh": "c",
    "hpp": "c",
    "hxx": "c",
    "go": "go",
    "rs": "rust",
    "java": "java",
    "js": "javascript",
    "jsx": "javascript",
    "mjs": "javascript",
    "cjs": "javascript",
    "ts": "javascript",
    "tsx": "javascript",
    "mts": "javascript",
    "cts": "javascript",
}
_COMPILED: dict[tuple[str | None, type], re.Pattern[str] | re.Pattern[bytes]] = {}


def language_of(path: str | None) -> str | None:
    """The heading rules' language for a path, by its extension; None for git's default."""
    if not path:
        return None
    name = path.rsplit("/", 1)[-1]
    if "." not in name:
        return None
    return _LANGUAGES.get(name.rsplit(".", 1)[-1].lower())


def _pattern(language: str | None, kind: type) -> re.Pattern[str] | re.Pattern[bytes]:
    """A pattern whose group 1 is the last heading line of a text that starts at a line start.

    The greedy ``.*`` runs to the end and gives back one character at a time, so the match is
    the last line that qualifies, found in one pass from the end.
    """
    key = (language, kind)
    compiled = _COMPILED.get(key)
    if compiled is None:
        line = _PATTERNS.get(language or "", f"({_DEFAULT})")
        source = rf"(?:.*\n)?{line}"
        if kind is bytes:
            compiled = re.compile(source.encode("ascii"), re.DOTALL)
        else:
            compiled = re.compile(source, re.DOTALL | re.ASCII)
        _COMPILED[key] = compiled
    return compiled


class Headings(Generic[T]):
    """Finds the heading of each hunk of one diff of `data` (the old text), in file order."""

    __slots__ = ("_data", "_heading", "_pattern", "_searched")

    def __init__(self, data: T, path: str | None) -> None:
        self._data: T = data
        self._pattern = _pattern(language_of(path), str if isinstance(data, str) else bytes)
        self._searched = 0  # everything above this offset has been searched
        self._heading: str | None = None

    def above(self, offset: int) -> str | None:
        """The heading for a hunk whose first line starts at `offset` of the text."""
        floor = max(self._searched, offset - REACH)
        if offset < self._searched:  # out of order: start afresh
            floor = max(0, offset - REACH)
            self._heading = None
        elif floor > self._searched:
            self._heading = None  # the previous find lies beyond the reach
        whole = floor in (0, self._searched)  # the floor is a line start
        self._searched = offset
        # Headings are usually near: small windows first, so the usual search reads a few lines.
        for size in _STEPS:
            start = max(floor, offset - size)
            window = self._data[start:offset]
            if start != floor or not whole:
                # Start at a whole line: drop the part of a line the window cut.
                cut = window.find(b"\n" if isinstance(window, bytes) else "\n")
                window = window[cut + 1 :] if cut >= 0 else window[:0]
            # The pattern was compiled for the text's own type (str or bytes).
            found = self._pattern.match(window)  # type: ignore[call-overload]
            if found is not None:
                self._heading = _clean(found.group(1))
                break
            if start == floor:
                break
        return self._heading


def _clean(line: str | bytes) -> str:
    """The heading as printed: trailing blanks dropped, cut to `MAX_HEADING` bytes."""
    raw = line.encode("utf-8", "surrogatepass") if isinstance(line, str) else bytes(line)
    raw = raw.rstrip(b" \t\r\f\v")[:MAX_HEADING]
    return raw.decode("utf-8", "ignore")
