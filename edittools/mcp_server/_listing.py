"""A folder's entries, two levels deep, for the text editor surface's `view` of a folder.

The sandbox lists (`Sandbox.list_dir`: descriptors, deny rules, bounds); this module turns the
listing into the result the model and the host read.
"""

from __future__ import annotations

from edittools import ToolError
from edittools.artifacts import TableArtifact, TablePayload, ToolResult
from sandbox import Sandbox, SandboxError

MAX_ENTRIES = 1000
"""Most entries a listing shows."""


def sandbox_error(exc: SandboxError) -> ToolResult:
    """The error result for a refusal of the sandbox, with the code the tools would give."""
    return ToolError.from_sandbox(exc).result()


def list_directory(sb: Sandbox, path: str, *, depth: int = 2) -> ToolResult:
    """The files and folders under `path` (up to `depth` levels), hidden and denied ones left out."""
    try:
        listing = sb.list_dir(path, depth=depth, max_entries=MAX_ENTRIES)
    except SandboxError as exc:
        return sandbox_error(exc)
    rows: list[list[object]] = [[entry.path, entry.kind, entry.size] for entry in listing.entries]
    lines = [f"{e.path}{'/' if e.kind == 'dir' else ''}" for e in listing.entries]
    head = f"{listing.path}/: {len(rows)} entries, {depth} levels deep (hidden and denied entries left out)"
    if listing.truncated:
        head += f"; cut at {MAX_ENTRIES}, list a subfolder to see more"
    value = head + ("\n" + "\n".join(lines) if lines else "\n(empty)")
    artifact = TableArtifact(
        icon="folder",
        title=f"{listing.path}/",
        payload=TablePayload(columns=["path", "type", "bytes"], rows=rows),
    )
    return ToolResult(value=value, artifact=artifact)
