"""Parsing the Codex-style patch envelope.

```
*** Begin Patch
*** Add File: path        then "+" lines
*** Update File: path     then optional "*** Move to: path", then chunks:
@@ optional context line
 context / -removed / +added lines
*** End of File           optional, after a chunk that must end at the end of the file
*** Delete File: path
*** End Patch
```

Markers may be padded with whitespace, the text may lack its final newline, and an empty line
inside a chunk is read as an empty context line. Anything else unexpected is an
`invalid_patch` error naming the line.
"""

from __future__ import annotations

import re

from edittools._errors import ToolError
from edittools.diff import FilePatch, PatchHunk

_MARKERS = ("Begin Patch", "End Patch", "Add File:", "Update File:", "Delete File:", "Move to:")
_FILE_MARKERS = ("Add File:", "Update File:", "Delete File:")
# A unified hunk header that a model sometimes writes where a Codex `@@` header belongs.
_UNIFIED_HEADER = re.compile(r"-\d+(,\d+)? \+\d+(,\d+)? @@")


def is_codex(text: str) -> bool:
    """Whether the patch text uses the Codex envelope."""
    return any(line.strip() == "*** Begin Patch" for line in text.split("\n"))


def _invalid(lineno: int, message: str) -> ToolError:
    return ToolError(
        "invalid_patch",
        f"Line {lineno} of the patch: {message} Fix the patch and send it again.",
        {"line": lineno},
    )


def _marker(line: str) -> str | None:
    """The marker a line holds (`*** ` removed), or None when it is not a marker line."""
    s = line.strip()
    if not s.startswith("***"):
        return None
    body = s[3:].strip()
    if any(body.startswith(m) for m in (*_MARKERS, "End of File")):
        return body
    if line.startswith("*"):
        return body  # an unknown header at column 0: reported by the caller
    return None  # " *** ..." is a context line whose text starts with "***"


def parse_codex(text: str) -> list[FilePatch]:
    """Parse a Codex-style patch into file patches, in the order they appear."""
    lines = text.split("\n")
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i == len(lines) or _marker(lines[i]) != "Begin Patch":
        raise _invalid(i + 1, "a Codex patch must start with '*** Begin Patch'.")
    i += 1
    patches: list[FilePatch] = []
    while True:
        if i >= len(lines):
            raise _invalid(len(lines), "the patch ends without '*** End Patch'.")
        line = lines[i]
        marker = _marker(line)
        if not line.strip():
            i += 1
        elif marker == "End Patch":
            for k in range(i + 1, len(lines)):
                if lines[k].strip():
                    raise _invalid(k + 1, "nothing may follow '*** End Patch'.")
            break
        elif marker is not None and marker.startswith("Add File:"):
            i, fp = _add(lines, i, _path(marker, "Add File:", i))
            patches.append(fp)
        elif marker is not None and marker.startswith("Delete File:"):
            patches.append(FilePatch("delete", _path(marker, "Delete File:", i)))
            i += 1
        elif marker is not None and marker.startswith("Update File:"):
            i, fp = _update(lines, i, _path(marker, "Update File:", i))
            patches.append(fp)
        else:
            raise _invalid(
                i + 1,
                f"expected '*** Add File:', '*** Update File:', '*** Delete File:' or "
                f"'*** End Patch', found {line.strip()[:60]!r}.",
            )
    if not patches:
        raise _invalid(1, "the patch changes no file.")
    return patches


def _path(marker: str, name: str, i: int) -> str:
    path = marker[len(name) :].strip()
    if not path:
        raise _invalid(i + 1, f"'*** {name}' needs a path.")
    return path


def _is_file_end(line: str) -> bool:
    marker = _marker(line)
    return marker is not None and (marker == "End Patch" or marker.startswith(_FILE_MARKERS))


def _add(lines: list[str], i: int, path: str) -> tuple[int, FilePatch]:
    body: list[str] = []
    blank_run = 0  # empty lines are kept only when more "+" lines follow them
    i += 1
    while i < len(lines) and not _is_file_end(lines[i]):
        line = lines[i]
        if line.startswith("+"):
            body += [""] * blank_run + [line[1:]]
            blank_run = 0
        elif not line.strip():
            blank_run += 1
        else:
            raise _invalid(i + 1, f"a line of an added file must start with '+', found {line!r}.")
        i += 1
    content = "\n".join(body) + "\n" if body else ""
    return i, FilePatch("add", path, new_content=content)


def _update(lines: list[str], i: int, path: str) -> tuple[int, FilePatch]:
    header = i + 1
    i += 1
    move_to = None
    marker = _marker(lines[i]) if i < len(lines) else None
    if marker is not None and marker.startswith("Move to:"):
        move_to = _path(marker, "Move to:", i)
        i += 1
    hunks: list[PatchHunk] = []
    body: list[str] = []
    context: str | None = None
    started = False  # a chunk is open (its lines may follow)

    def close(eof: bool, at: int) -> None:
        if started:
            while body and not body[-1]:
                body.pop()  # empty lines before the next marker separate, they are not context
            if not any(line[:1] in ("-", "+") for line in body):
                raise _invalid(at, "a chunk must remove or add at least one line.")
            hunks.append(
                PatchHunk(tuple(line or " " for line in body), context=context, end_of_file=eof)
            )

    while i < len(lines) and not _is_file_end(lines[i]):
        line = lines[i]
        marker = _marker(line)
        if marker == "End of File":
            if not started:
                raise _invalid(i + 1, "'*** End of File' must follow a chunk.")
            close(True, i + 1)
            started, body, context = False, [], None
        elif marker is not None:
            raise _invalid(i + 1, f"unknown or misplaced marker {line.strip()[:60]!r}.")
        elif line.rstrip() == "@@" or line.startswith("@@ "):
            close(False, i + 1)
            label = line[2:].strip()
            context = label if label and not _UNIFIED_HEADER.fullmatch(label) else None
            started, body = True, []
        elif line[:1] in (" ", "-", "+") or not line:
            started = True
            body.append(line)
        else:
            raise _invalid(
                i + 1,
                f"a chunk line must start with ' ', '-' or '+', found {line.strip()[:60]!r}.",
            )
        i += 1
    close(False, i + 1)
    if not hunks and move_to is None:
        raise _invalid(header, f"'*** Update File: {path}' has no changes.")
    return i, FilePatch("update", path, move_to=move_to, hunks=tuple(hunks))
