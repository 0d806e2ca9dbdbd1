"""Git-style unified diff text: file headers, hunk headers and hunk bodies.

The text applies with ``git apply`` and GNU ``patch -p1``. Paths are quoted the way git quotes them
(C-style escapes for control characters, quotes, backslashes and non-ASCII bytes), and a name with
a space gets git's trailing tab on the ``---``/``+++`` lines so ``patch`` reads it whole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from edittools.artifacts import Hunk
    from edittools.diff._hunks import PlainHunk

DEV_NULL = "/dev/null"
FILE_MODE = "100644"
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n"}
_ESCAPES |= {"\v": "\\v", "\f": "\\f", "\r": "\\r"}


def quote_path(name: str) -> str:
    """Quote a header path the way git does when it holds special characters."""
    if all(" " <= ch < "\x7f" and ch not in '"\\' for ch in name):
        return name
    out = []
    for ch in name:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif " " <= ch < "\x7f":
            out.append(ch)
        else:
            out.extend(f"\\{byte:03o}" for byte in ch.encode("utf-8", "surrogatepass"))
    return '"' + "".join(out) + '"'


def _side(prefix: str, path: str | None) -> str:
    return DEV_NULL if path is None else quote_path(prefix + path)


def _file_line(marker: str, name: str) -> str:
    # git ends a name holding a space with a tab so that patch does not cut it at the space.
    return f"{marker} {name}\t\n" if " " in name else f"{marker} {name}\n"


def file_header(
    operation: str, path: str, old_path: str | None, similarity: int | None = None
) -> tuple[str, str]:
    """Return the ``diff --git`` block (with mode/rename lines) and the ``---``/``+++`` lines.

    A rename's `similarity` (percent) gets git's ``similarity index`` line.

    An absolute path loses its leading ``/`` after the ``a/``/``b/`` prefix, as git prints it,
    so the text never names ``a//abs/path``.
    """
    path = path.lstrip("/") or path
    if old_path is not None:
        old_path = old_path.lstrip("/") or old_path
    source = old_path if old_path is not None else path
    lines = [f"diff --git {quote_path('a/' + source)} {quote_path('b/' + path)}\n"]
    if operation == "create":
        lines.append(f"new file mode {FILE_MODE}\n")
    elif operation == "delete":
        lines.append(f"deleted file mode {FILE_MODE}\n")
    elif operation == "rename":
        if similarity is not None:
            lines.append(f"similarity index {similarity}%\n")
        lines.append(f"rename from {quote_path(source)}\n")
        lines.append(f"rename to {quote_path(path)}\n")
    old_name = _side("a/", None if operation == "create" else source)
    new_name = _side("b/", None if operation == "delete" else path)
    files = _file_line("---", old_name) + _file_line("+++", new_name)
    return "".join(lines), files


def _range(start: int | None, count: int) -> str:
    if start is None:
        return ""
    return str(start) if count == 1 else f"{start},{count}"


def hunk_header(hunk: Hunk | PlainHunk) -> str:
    """``@@ -l,s +l,s @@`` (a count of 1 omitted) and the hunk's heading after a space, as git
    prints function context; snippet hunks without starts get ``@@ @@``."""
    if hunk.old_start is None or hunk.new_start is None:
        return "@@ @@"
    ranges = f"-{_range(hunk.old_start, hunk.old_lines)} +{_range(hunk.new_start, hunk.new_lines)}"
    heading = getattr(hunk, "heading", None)
    # A heading is one line of the file: a newline in a foreign payload's would break the text.
    if heading and "\n" not in heading:
        return f"@@ {ranges} @@ {heading}"
    return f"@@ {ranges} @@"


def render_hunks(hunks: list[Hunk] | list[PlainHunk], *, prefix: str = "") -> str:
    """The body of a unified diff: each hunk header followed by its lines.

    `prefix` (whole lines) is put in front in the same join, which spares copying a large body.
    """
    parts: list[str] = []
    for hunk in hunks:
        parts.append(hunk_header(hunk))
        parts.extend(hunk.lines)
    if not parts:
        return prefix
    parts.append("")  # the final newline
    parts[0] = prefix + parts[0]
    return "\n".join(parts)


def unified_text(
    operation: str,
    path: str,
    old_path: str | None,
    hunks: list[Hunk] | list[PlainHunk],
    *,
    binary: bool = False,
    similarity: int | None = None,
) -> str:
    """The whole unified diff of one file, or ``""`` for an unchanged, unrenamed file."""
    head, files = file_header(operation, path, old_path, similarity)
    if binary:
        old_name = _side("a/", None if operation == "create" else (old_path or path))
        new_name = _side("b/", None if operation == "delete" else path)
        return f"{head}Binary files {old_name} and {new_name} differ\n"
    if not hunks:
        # git prints headers alone for an empty create/delete or a pure rename; nothing otherwise.
        return head if operation != "modify" else ""
    return render_hunks(hunks, prefix=head + files)


SHOWN_CHARS = 4000
"""Most characters of a unified text put in front of a model (the full diff is in the artifact)."""


def unified_excerpt(unified: str) -> str:
    """`unified` as a model is shown it: cut after `SHOWN_CHARS` characters, with a note saying so."""
    if len(unified) <= SHOWN_CHARS:
        return unified
    return unified[:SHOWN_CHARS] + "\n[... diff cut; read the file to see all of it]\n"
