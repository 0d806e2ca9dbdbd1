"""Parsing git-style unified diffs: one or several files, creates, deletes and renames.

`diff --git` headers are optional (plain `---`/`+++` pairs work too); text before the first file
and between files is ignored as `git apply` and `patch` do. Hunk bodies are read by the counts
in their headers (a count of 1 may be omitted); an empty line inside a hunk is read as an empty
context line. This is the one reader of unified diff text: the patch tool applies what it
returns and the dialects turn it into diff payloads.
"""

from __future__ import annotations

import re

from edittools.diff._errors import DiffError
from edittools.diff._patch_model import FilePatch, PatchHunk

_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_IGNORED = (
    "index ",
    "old mode ",
    "new mode ",
    "similarity index ",
    "dissimilarity index ",
)
_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


def is_unified(text: str) -> bool:
    """Whether the text holds a file header of a unified diff."""
    lines = text.split("\n")
    return any(
        line.startswith("diff --git ")
        or (line.startswith("--- ") and k + 1 < len(lines) and lines[k + 1].startswith("+++ "))
        for k, line in enumerate(lines)
    )


def _invalid(lineno: int, message: str) -> DiffError:
    return DiffError("invalid_patch", f"Line {lineno} of the patch: {message}", line=lineno)


def parse_unified(text: str, *, strip: int | None = None) -> list[FilePatch]:
    """Parse a unified diff into file patches, in the order they appear.

    `strip` removes that many leading components from the `---`/`+++` names as written, as
    ``patch -p N`` does; None removes git's ``a/`` and ``b/`` prefixes where the patch has them.
    Raises `DiffError` with code `invalid_patch` and the line it names when the text is malformed.
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    patches: list[FilePatch] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("diff --git ") or (
            line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ ")
        ):
            i, fp = _file(lines, i, strip)
            patches.append(fp)
        else:
            i += 1
    if not patches:
        raise _invalid(1, "no file header ('diff --git' or '---'/'+++') was found.")
    return patches


def _file(lines: list[str], i: int, strip: int | None) -> tuple[int, FilePatch]:
    old_path = new_path = None
    created = deleted = git = False
    rename_from = rename_to = None
    if lines[i].startswith("diff --git "):
        git = True
        old_path, new_path = _git_paths(lines[i][len("diff --git ") :].rstrip("\r"))
        i += 1
        while i < len(lines):
            line = lines[i].rstrip("\r")
            if line.startswith(("--- ", "@@", "diff --git ")):
                break
            if line.startswith("new file mode"):
                created = True
            elif line.startswith("deleted file mode"):
                deleted = True
            elif line.startswith("rename from "):
                rename_from = _unquote(line[len("rename from ") :])
            elif line.startswith("rename to "):
                rename_to = _unquote(line[len("rename to ") :])
            elif line.startswith(("GIT binary patch", "Binary files ")):
                raise _invalid(i + 1, "binary patches are not supported.")
            elif line.startswith(("copy from ", "copy to ")):
                raise _invalid(i + 1, "copies are not supported; add the new file instead.")
            elif not line.startswith(_IGNORED):
                break
            i += 1
    if i < len(lines) and lines[i].startswith("--- "):
        if i + 1 >= len(lines) or not lines[i + 1].startswith("+++ "):
            raise _invalid(i + 2, "a '---' line must be followed by a '+++' line.")
        old_path = _header_path(lines[i][4:])
        new_path = _header_path(lines[i + 1][4:])
        created = created or old_path is None
        deleted = deleted or new_path is None
        i += 2
    hunks: list[PatchHunk] = []
    while i < len(lines) and lines[i].startswith("@@"):
        i, hunk = _hunk(lines, i)
        hunks.append(hunk)
    if strip is not None:
        old_path = _stripped(old_path, strip, i)
        new_path = _stripped(new_path, strip, i)
    elif git or _prefixed(old_path, new_path):
        old_path = _strip_prefix(old_path, "a/")
        new_path = _strip_prefix(new_path, "b/")
    old_path = rename_from or old_path
    new_path = rename_to or new_path
    if created:
        if new_path is None:
            raise _invalid(i, "a created file needs a path.")
        content = "".join(
            line[1:] + "\n" for h in hunks for line in h.lines if line.startswith("+")
        )
        if hunks and hunks[-1].new_no_newline:
            content = content[:-1]
        return i, FilePatch("add", new_path, hunks=tuple(hunks), new_content=content)
    if old_path is None:
        raise _invalid(i, "a changed file needs a path.")
    if deleted:
        return i, FilePatch("delete", old_path, hunks=tuple(hunks))
    move_to = new_path if new_path is not None and new_path != old_path else None
    return i, FilePatch("update", old_path, move_to=move_to, hunks=tuple(hunks))


def _hunk(lines: list[str], i: int) -> tuple[int, PatchHunk]:
    m = _HUNK.match(lines[i])
    if m is None:
        raise _invalid(i + 1, f"bad hunk header {lines[i][:60]!r}; expected '@@ -l,s +l,s @@'.")
    old_start, new_start = int(m.group(1)), int(m.group(3))
    old_count = 1 if m.group(2) is None else int(m.group(2))
    new_count = 1 if m.group(4) is None else int(m.group(4))
    header = i + 1
    i += 1
    body: list[str] = []
    old_seen = new_seen = 0
    old_nl = new_nl = False
    while i < len(lines):
        line = lines[i] or " "
        tag = line[0]
        if tag == "\\":
            if not body:
                raise _invalid(i + 1, "a '\\' marker must follow a hunk line.")
            last = body[-1][0]
            old_nl = old_nl or last in " -"
            new_nl = new_nl or last in " +"
        elif old_seen >= old_count and new_seen >= new_count:
            break
        elif tag == " " and old_seen < old_count and new_seen < new_count:
            old_seen, new_seen = old_seen + 1, new_seen + 1
            body.append(line)
        elif tag == "-" and old_seen < old_count:
            old_seen += 1
            body.append(line)
        elif tag == "+" and new_seen < new_count:
            new_seen += 1
            body.append(line)
        else:
            break
        i += 1
    if old_seen != old_count or new_seen != new_count:
        raise _invalid(
            header,
            f"the hunk header promises {old_count} old and {new_count} new lines but the body "
            f"has {old_seen} and {new_seen}.",
        )
    hunk = PatchHunk(
        tuple(body),
        old_start=old_start,
        old_count=old_count,
        new_start=new_start,
        new_count=new_count,
        old_no_newline=old_nl,
        new_no_newline=new_nl,
        heading=lines[header - 1][m.end() :].removeprefix(" ") or None,
    )
    return i, hunk


def _header_path(s: str) -> str | None:
    s = s.rstrip("\r")
    # Unquoted, a tab starts the optional timestamp.
    path = _unquote(s) if s.startswith('"') else s.split("\t", 1)[0].rstrip(" ")
    return None if path == "/dev/null" else path


def _git_paths(s: str) -> tuple[str | None, str | None]:
    """The two paths of a `diff --git a/x b/y` header, when they can be told apart."""
    if s.startswith('"'):
        end = _quoted_end(s)
        rest = s[end + 1 :].lstrip(" ")
        return _unquote(s[: end + 1]), _unquote(rest) if rest else None
    # Unquoted paths may hold spaces: prefer the split where both sides name the same file.
    splits = [m.start() for m in re.finditer(" b/", s)]
    for k in splits:
        if s[2:k] == s[k + 3 :]:
            return s[:k], s[k + 1 :]
    if splits:
        return s[: splits[0]], s[splits[0] + 1 :]
    return None, None


def _quoted_end(s: str) -> int:
    k = 1
    while k < len(s):
        if s[k] == "\\":
            k += 2
            continue
        if s[k] == '"':
            return k
        k += 1
    return len(s) - 1


def _unquote(s: str) -> str:
    """Undo git's C-style quoting of a path (octal escapes are UTF-8 bytes)."""
    s = s.rstrip("\r")
    if not (s.startswith('"') and s.endswith('"') and len(s) >= 2):
        return s
    out = bytearray()
    body = s[1:-1]
    k = 0
    while k < len(body):
        c = body[k]
        if c == "\\" and k + 1 < len(body):
            nxt = body[k + 1]
            if nxt in "01234567" and re.fullmatch(r"[0-7]{3}", body[k + 1 : k + 4]):
                out.append(int(body[k + 1 : k + 4], 8))
                k += 4
                continue
            out += _ESCAPES.get(nxt, nxt).encode()
            k += 2
            continue
        out += c.encode()
        k += 1
    return out.decode("utf-8", errors="surrogateescape")


def _prefixed(old: str | None, new: str | None) -> bool:
    return (old is None or old.startswith("a/")) and (new is None or new.startswith("b/"))


def strip_components(path: str, count: int) -> str | None:
    """`path` without the shortest prefix holding `count` slashes, as ``patch -p`` reads it.

    Adjacent slashes count as one, and a leading slash counts (``-p1`` makes ``/x/y`` ``x/y``).
    None when nothing would be left of it.
    """
    parts = re.split("/+", path)
    rest = "/".join(parts[count:])
    return rest or None


def _stripped(path: str | None, count: int, lineno: int) -> str | None:
    if path is None:
        return None
    rest = strip_components(path, count)
    if rest is None:
        raise _invalid(
            lineno,
            f"removing {count} leading components leaves nothing of {path!r}; give a smaller -p.",
        )
    return rest


def _strip_prefix(path: str | None, prefix: str) -> str | None:
    if path is not None and path.startswith(prefix):
        return path[len(prefix) :]
    return path
