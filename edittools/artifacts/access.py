"""Read the artifact and the portable text out of anything a host may hold.

`artifact_of` and `value_of` accept a ToolResult or StreamEvent, a result or stream-event dict,
a bare artifact dict, JSON text (str or bytes) of any of those, or an MCP tool result (a wire
dict with `content`/`structuredContent`, or the MCP SDK's `CallToolResult`). They never raise:
whatever they cannot read gives None, or a short description. The lower-level readers here
(one artifact, MCP parts, JSON text) are what `adapt` builds on.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from pydantic import TypeAdapter, ValidationError

from edittools.artifacts._models import (
    SCHEMA_ID,
    V1_ARTIFACT_CLASSES,
    AnyArtifact,
    Artifact,
    FutureArtifact,
    StreamEvent,
    ToolResult,
    WireModel,
)
from edittools.artifacts._shape import is_json, outer_problem

__all__ = [
    "MCP_RESULT_META",
    "NOT_JSON",
    "V1_ARTIFACT_CLASSES",
    "artifact_of",
    "artifact_text",
    "check_artifact",
    "describe",
    "is_mcp_result",
    "json_text",
    "mcp_parts",
    "mcp_text",
    "parse_json_text",
    "value_of",
]

# pydantic takes any type form here; without PEP 747 support mypy reads the parameter as `type[T]`.
_V1: TypeAdapter[Artifact] = TypeAdapter(Artifact)
_DESCRIPTION_LIMIT = 200
_JSON_TEXT_LIMIT = 4000


def artifact_of(x: Any, versions: Collection[int] | None = frozenset({1})) -> AnyArtifact | None:
    """Return the artifact carried by `x`, or None when there is none or it is not sound.

    The schema id and outer structure are checked (see the protocol); a version-1 artifact must
    also match its kind's payload model and is returned as that model, a newer one is returned
    unchanged as a `FutureArtifact`. `versions` lists the versions accepted; None accepts any
    version (for forwarding). Never raises.
    """
    try:
        wanted = None if versions is None else frozenset(versions)
        return _artifact_in(x, wanted, depth=0)
    except Exception:
        return None


def check_artifact(
    data: Any, versions: frozenset[int] | None = frozenset({1})
) -> AnyArtifact | None:
    """Validate one artifact object (not a result holding it); None when unsound. Never raises."""
    try:
        return _checked(data, versions)
    except Exception:
        return None


def value_of(x: Any) -> str:
    """Return the portable text of `x`: the result's value, the MCP text content, or the text of
    its artifact; a short description when there is none. Never raises."""
    try:
        text = _value_in(x, depth=0)
    except Exception:
        text = None
    if text is not None:
        return text
    return describe(x)


def describe(x: Any) -> str:
    """A short description of `x` for when it carries no text. Never raises."""
    try:
        if x is None:
            return "(no result)"
        if isinstance(x, dict):
            keys = ", ".join(str(key)[:40] for key in list(x)[:8])
            text = (
                f"(no text: an object with keys {keys})" if keys else "(no text: an empty object)"
            )
        else:
            text = f"(no text: a value of type {type(x).__name__})"
        return text[:_DESCRIPTION_LIMIT]
    except Exception:
        return "(no text)"


def artifact_text(artifact: Any) -> str | None:
    """Plain text that stands for an artifact: its text, code, unified diff or error message."""
    if isinstance(artifact, FutureArtifact):
        data: Any = artifact.root
    elif isinstance(artifact, WireModel):
        data = artifact.model_dump(mode="json")
    else:
        data = artifact
    if not isinstance(data, dict) or not isinstance(data.get("payload"), dict):
        return None
    kind, payload, title = data.get("kind"), data["payload"], data.get("title")
    text: Any = None
    if kind in ("text", "markdown", "code"):
        text = payload.get("text")
    elif kind == "error":
        text = payload.get("message")
    elif kind == "diff":
        text = payload.get("unified") or None
    elif kind == "changeset" and isinstance(payload.get("files"), list):
        parts = [f.get("unified") for f in payload["files"] if isinstance(f, dict)]
        text = "".join(p for p in parts if isinstance(p, str)) or None
    elif kind == "json" and "data" in payload:
        text = json_text(payload["data"])
    if isinstance(text, str):
        return text
    return title if isinstance(title, str) and title else None


def json_text(data: Any) -> str | None:
    """Compact JSON text of `data` when it is plain JSON and not too long to be a value."""
    if not is_json(data):
        return None
    text = json.dumps(data, ensure_ascii=False)
    return text if len(text) <= _JSON_TEXT_LIMIT else None


def parse_json_text(x: str | bytes) -> Any:
    """Parse JSON text; return `_NOT_JSON` when it is not JSON."""
    try:
        return json.loads(x)
    except Exception:
        return NOT_JSON


NOT_JSON = object()
"""Marker returned by `parse_json_text` for text that is not JSON."""


def is_mcp_result(x: Any) -> bool:
    """Tell whether `x` looks like an MCP tool result (wire dict or SDK object)."""
    if isinstance(x, dict):
        return "value" not in x and (isinstance(x.get("content"), list) or "structuredContent" in x)
    return hasattr(x, "structured_content") and hasattr(x, "content")


MCP_RESULT_META = "edittools/result"
"""The `_meta` key under which this project's MCP answers keep the result object (all but the
value, which is the text block)."""


def mcp_parts(x: Any) -> tuple[list[Any], Any, bool]:
    """Split an MCP tool result into its content blocks, structured content and error flag.

    The structured content is `structuredContent`, or else the result object this project's
    answers keep under `_meta["edittools/result"]`, with the text blocks as its value."""
    if isinstance(x, dict):
        content = x.get("content")
        blocks = content if isinstance(content, list) else []
        structured, meta, is_error = x.get("structuredContent"), x.get("_meta"), x.get("isError")
    else:
        content = getattr(x, "content", None)
        blocks = [
            block.model_dump(by_alias=True, mode="json") if hasattr(block, "model_dump") else block
            for block in (content if isinstance(content, list) else [])
        ]
        structured, meta = getattr(x, "structured_content", None), getattr(x, "meta", None)
        is_error = getattr(x, "is_error", None)
    if (
        structured is None
        and isinstance(meta, dict)
        and isinstance(meta.get(MCP_RESULT_META), dict)
    ):
        structured = {**meta[MCP_RESULT_META], "value": mcp_text(blocks) or ""}
    return blocks, structured, is_error is True


def mcp_text(blocks: list[Any]) -> str | None:
    """The text of an MCP result's text blocks, joined by newlines; None when there are none."""
    texts = [
        b["text"]
        for b in blocks
        if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
    ]
    return "\n".join(texts) if texts else None


def _artifact_in(x: Any, versions: frozenset[int] | None, *, depth: int) -> AnyArtifact | None:
    if depth > 2:
        return None
    if isinstance(x, ToolResult | StreamEvent):
        return _keep_if_wanted(x.artifact, versions)
    if isinstance(x, str | bytes):
        parsed = parse_json_text(x)
        return None if parsed is NOT_JSON else _artifact_in(parsed, versions, depth=depth + 1)
    if is_mcp_result(x):
        blocks, structured, _ = mcp_parts(x)
        if structured is not None:
            return _artifact_in(structured, versions, depth=depth + 1)
        text = mcp_text(blocks)
        return None if text is None else _artifact_in(text, versions, depth=depth + 1)
    if not isinstance(x, dict):
        return None
    if "artifact" in x:
        return _checked(x["artifact"], versions)
    if "schema" in x:
        return _checked(x, versions)
    return None


def _keep_if_wanted(
    artifact: AnyArtifact | None, versions: frozenset[int] | None
) -> AnyArtifact | None:
    if artifact is None:
        return None
    version = artifact.version
    return artifact if versions is None or version in versions else None


def _checked(data: Any, versions: frozenset[int] | None) -> AnyArtifact | None:
    if isinstance(data, (FutureArtifact, V1_ARTIFACT_CLASSES)):
        return _keep_if_wanted(data, versions)
    if outer_problem(data, schema_id=SCHEMA_ID) is not None:
        return None
    if versions is not None and data["version"] not in versions:
        return None
    if not is_json(data):
        return None
    if data["version"] == 1:
        try:
            return _V1.validate_python(data)
        except ValidationError:
            return None
    return FutureArtifact(data)


def _value_in(x: Any, *, depth: int) -> str | None:
    if depth > 2:
        return None
    if isinstance(x, ToolResult | StreamEvent):
        return x.value
    if isinstance(x, str):
        parsed = parse_json_text(x)
        if isinstance(parsed, dict):
            inner = _value_in(parsed, depth=depth + 1)
            if inner is not None:
                return inner
        return x
    if isinstance(x, bytes):
        return _value_in(x.decode("utf-8", errors="replace"), depth=depth)
    if is_mcp_result(x):
        blocks, structured, _ = mcp_parts(x)
        text = mcp_text(blocks)
        return text if text is not None else _value_in(structured, depth=depth + 1)
    if not isinstance(x, dict):
        return None
    value = x.get("value")
    if isinstance(value, str):
        return value
    if "artifact" in x:
        return artifact_text(x["artifact"])
    if "schema" in x:
        return artifact_text(x)
    return None
