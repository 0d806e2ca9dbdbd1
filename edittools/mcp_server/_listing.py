"""A directory's entries, two levels deep, for the text editor dialect's `view` of a folder.

The sandbox has no listing of its own, so this module opens the folder itself and keeps the
sandbox's promises: the path is resolved and checked by the sandbox, the opened descriptor is
confirmed to be the folder that was checked (a swapped-in symlink between the check and the open
is refused), subfolders are opened relative to their parent without following symlinks, and
denied entries (and the state folder) are left out like hidden ones.
"""

from __future__ import annotations

import os
import stat

from edittools._errors import ToolError
from edittools.artifacts import TableArtifact, TablePayload, ToolResult
from edittools.artifacts.builders import error_result
from sandbox import Sandbox, SandboxError

MAX_ENTRIES = 1000
"""Most entries a listing shows."""

_OPEN_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def sandbox_error(exc: SandboxError) -> ToolResult:
    """The error result for a refusal of the sandbox, with the code the tools would give."""
    return ToolError.from_sandbox(exc).result()


def list_directory(sb: Sandbox, path: str, *, depth: int = 2) -> ToolResult:
    """The files and folders under `path` (up to `depth` levels), hidden and denied ones left out."""
    try:
        rel = sb.relpath(path)
    except SandboxError as exc:
        return sandbox_error(exc)
    if sb.is_denied(rel) or sb.is_denied(rel + "/"):
        return error_result(
            "denied", f"{rel!r} is covered by a deny pattern; it cannot be listed.", {"path": rel}
        )
    where = sb.root if rel == "." else sb.root / rel
    try:
        fd = os.open(where, _OPEN_DIR)
    except OSError as exc:
        return error_result(
            "not_found" if isinstance(exc, FileNotFoundError) else "io_error",
            f"{rel!r} cannot be opened as a folder: {exc.strerror}. Check the path and try again.",
            {"path": rel},
        )
    try:
        if os.readlink(f"/proc/self/fd/{fd}") != str(where):
            return error_result(
                "outside_root",
                f"{rel!r} changed while it was being opened; it was not listed. Try again.",
                {"path": rel},
            )
        rows: list[list[object]] = []
        cut = _walk(sb, fd, "" if rel == "." else rel + "/", depth, rows)
    finally:
        os.close(fd)
    shown = "." if rel == "." else rel
    lines = [f"{name}{'/' if kind == 'dir' else ''}" for name, kind, _ in rows]
    head = (
        f"{shown}/: {len(rows)} entries, {depth} levels deep (hidden and denied entries left out)"
    )
    if cut:
        head += f"; cut at {MAX_ENTRIES}, list a subfolder to see more"
    value = head + ("\n" + "\n".join(lines) if lines else "\n(empty)")
    artifact = TableArtifact(
        icon="folder",
        title=f"{shown}/",
        payload=TablePayload(columns=["path", "type", "bytes"], rows=rows),
    )
    return ToolResult(value=value, artifact=artifact)


def _walk(sb: Sandbox, fd: int, prefix: str, depth: int, rows: list[list[object]]) -> bool:
    """Append `[path, type, bytes]` rows for the folder open at `fd`; return whether it was cut."""
    for name in sorted(os.listdir(fd)):
        if name.startswith("."):
            continue
        rel = prefix + name
        try:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except OSError:
            continue
        is_dir = stat.S_ISDIR(st.st_mode)
        if sb.is_denied(rel) or (is_dir and sb.is_denied(rel + "/")):
            continue
        if len(rows) >= MAX_ENTRIES:
            return True
        kind = "dir" if is_dir else "link" if stat.S_ISLNK(st.st_mode) else "file"
        rows.append([rel, kind, None if is_dir else st.st_size])
        if is_dir and depth > 1:
            try:
                child = os.open(name, _OPEN_DIR, dir_fd=fd)
            except OSError:
                continue
            try:
                if _walk(sb, child, rel + "/", depth - 1, rows):
                    return True
            finally:
                os.close(child)
    return False
