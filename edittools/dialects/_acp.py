"""Agent Client Protocol: tool-call content out.

A diff becomes ACP diff content `{type: "diff", path, oldText, newText}` (ACP wants absolute
paths: give `root`); a changeset one such item per file; anything else a text content block.
When the full texts were not captured, the hunks' old and new sides stand in for them.
"""

from __future__ import annotations

import posixpath
from typing import Any

from edittools.artifacts import (
    ChangesetArtifact,
    DiffArtifact,
    DiffPayload,
    ToolResult,
    artifact_of,
)


def result_to_acp(result: ToolResult, *, root: str | None = None) -> list[dict[str, Any]]:
    """The ACP tool-call content items for `result`."""
    artifact = artifact_of(result)
    if isinstance(artifact, DiffArtifact):
        return [diff_to_acp(artifact.payload, root=root)]
    if isinstance(artifact, ChangesetArtifact):
        return [diff_to_acp(f, root=root) for f in artifact.payload.files]
    return [{"type": "content", "content": {"type": "text", "text": result.value}}]


def diff_to_acp(payload: DiffPayload, *, root: str | None = None) -> dict[str, Any]:
    """One ACP diff content item."""
    path = posixpath.join(root, payload.path) if root else payload.path
    if payload.old is not None or payload.new is not None:
        old, new = payload.old, payload.new
    else:
        old, new = _side(payload, "-"), _side(payload, "+")
    if payload.operation == "create":
        old = None
    elif payload.operation == "delete":
        new = ""
    return {"type": "diff", "path": path, "oldText": old, "newText": new or ""}


def _side(payload: DiffPayload, marker: str) -> str:
    lines = [ln[1:] for h in payload.hunks for ln in h.lines if ln[:1] in (" ", marker)]
    return "".join(line + "\n" for line in lines)
