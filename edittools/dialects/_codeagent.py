"""codeagent: our artifacts under the `codeagent.tool-artifact` schema id, and back.

The two protocols share the outer shape (schema, version, kind, status, icon, title, payload),
so projecting is a change of schema id; everything else is carried unchanged.
"""

from __future__ import annotations

from typing import Any

from edittools.artifacts import SCHEMA_ID, ArtifactBase, FutureArtifact, ToolResult
from edittools.artifacts.access import check_artifact
from edittools.dialects._adapt import adapt

CODEAGENT_SCHEMA_ID = "codeagent.tool-artifact"
"""The schema id of codeagent artifacts."""


def to_codeagent(artifact: ArtifactBase | FutureArtifact) -> dict[str, Any]:
    """Project an artifact to a codeagent artifact dict (same fields, codeagent schema id)."""
    data = (
        artifact.root if isinstance(artifact, FutureArtifact) else artifact.model_dump(mode="json")
    )
    return {**data, "schema": CODEAGENT_SCHEMA_ID}


def from_codeagent(data: Any) -> ArtifactBase | FutureArtifact | None:
    """Read a codeagent artifact dict back as ours; None when its shape is unsound."""
    if not isinstance(data, dict) or data.get("schema") != CODEAGENT_SCHEMA_ID:
        return None
    return check_artifact({**data, "schema": SCHEMA_ID}, versions=None)


def result_to_codeagent(result: ToolResult) -> dict[str, Any]:
    """A result dict whose artifact is projected to the codeagent schema id."""
    data = result.model_dump(mode="json")
    if result.artifact is not None:
        data["artifact"] = to_codeagent(result.artifact)
    return data


def codeagent_to_result(data: Any) -> ToolResult:
    """Adapt a result dict holding a codeagent artifact; never raises."""
    if isinstance(data, dict) and isinstance(data.get("artifact"), dict):
        artifact = from_codeagent(data["artifact"])
        if artifact is not None:
            data = {**data, "artifact": artifact}
    return adapt(data)
