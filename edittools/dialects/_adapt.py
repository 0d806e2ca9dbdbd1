"""Turn anything a host may hold into a ToolResult with a sound artifact.

Version-1 artifacts are validated, future-version artifacts kept unchanged, unversioned legacy
artifacts upgraded to v1, and everything else (plain text, malformed metadata, unknown objects)
gets a v1 artifact synthesised from its portable text. Fields of a result that the protocol does
not know (request, provenance, provider metadata) are kept on the ToolResult.
"""

from __future__ import annotations

from typing import Any

from edittools.artifacts import (
    SCHEMA_ID,
    AnyArtifact,
    Artifact,
    ArtifactBase,
    ErrorArtifact,
    ErrorPayload,
    FutureArtifact,
    JsonArtifact,
    JsonPayload,
    StreamEvent,
    TextArtifact,
    TextPayload,
    ToolResult,
)
from edittools.artifacts.access import (
    NOT_JSON,
    V1_ARTIFACT_CLASSES,
    artifact_text,
    check_artifact,
    describe,
    is_mcp_result,
    json_text,
    mcp_parts,
    mcp_text,
    parse_json_text,
    value_of,
)
from edittools.artifacts.builders import changeset_result, diff_result
from edittools.dialects._patches import payload_from_unified
from edittools.dialects._zeus import zeus_to_result
from edittools.diff import is_unified

_RESULT_FIELDS = ("value", "artifact", "display", "is_error")


def adapt(x: Any) -> ToolResult:
    """Return `x` as a ToolResult whose artifact is a sound v1 or future-version artifact.

    Accepts what `artifact_of` accepts, plus plain text, legacy unversioned artifacts and other
    runtimes' results (a Zeus `ToolResult` dict). Never raises: whatever cannot be read becomes
    a `text` artifact of its portable text.
    """
    try:
        return _error_rule(_adapt(x, depth=0))
    except Exception:
        return synthesised(value_of(x), is_error=False)


def _error_rule(result: ToolResult) -> ToolResult:
    """`kind: error` forces `status: error` and `is_error`; the error payload is kept as it is."""
    artifact = result.artifact
    if artifact is None or artifact.kind != "error" or result.is_error:
        return result
    return result.model_copy(update={"is_error": True})


def synthesised(value: str, *, is_error: bool, extra: dict[str, Any] | None = None) -> ToolResult:
    """A result whose artifact is a `text` artifact of `value`."""
    artifact = TextArtifact(
        status="error" if is_error else "success", payload=TextPayload(text=value)
    )
    try:
        return ToolResult(value=value, artifact=artifact, is_error=is_error, **(extra or {}))
    except Exception:
        return ToolResult(value=value, artifact=artifact, is_error=is_error)


def upgrade_legacy(data: dict[str, Any]) -> Artifact | None:
    """Upgrade an unversioned legacy artifact (`kind` and `payload`, no `version`) to v1.

    A missing or empty status becomes `success` (`error` for `kind: error`). Returns None when
    the result is not a sound v1 artifact.
    """
    if "version" in data or data.get("schema", SCHEMA_ID) != SCHEMA_ID:
        return None
    status = data.get("status")
    if not isinstance(status, str) or not status:
        status = "error" if data.get("kind") == "error" else "success"
    upgraded = {"schema": SCHEMA_ID, "version": 1, "kind": data.get("kind"), "status": status}
    upgraded |= {k: v for k, v in data.items() if k not in upgraded}
    artifact = check_artifact(upgraded)
    return artifact if isinstance(artifact, ArtifactBase) else None


def _adapt(x: Any, *, depth: int) -> ToolResult:
    if isinstance(x, ToolResult):
        if x.artifact is None:
            return synthesised(x.value, is_error=x.is_error, extra=_extras(x))
        return x
    if isinstance(x, StreamEvent):
        return _from_result_dict(
            {**x.model_dump(exclude={"artifact"}), "artifact": x.artifact}, depth=depth
        )
    if isinstance(x, str | bytes):
        parsed = parse_json_text(x) if depth == 0 else NOT_JSON
        if isinstance(parsed, dict):
            return _adapt(parsed, depth=depth + 1)
        text = x if isinstance(x, str) else x.decode("utf-8", errors="replace")
        return _from_unified(text) or synthesised(text, is_error=False)
    if is_mcp_result(x):
        return _from_mcp(x, depth=depth)
    if isinstance(x, dict):
        if _looks_like_zeus(x):
            return zeus_to_result(x)
        if "value" in x or "artifact" in x:
            return _from_result_dict(x, depth=depth)
        if "schema" in x or ("kind" in x and "payload" in x):
            return _from_result_dict({"artifact": x}, depth=depth)
        data_text = json_text(x)
        if data_text is not None:
            return ToolResult(value=data_text, artifact=JsonArtifact(payload=JsonPayload(data=x)))
    return synthesised(value_of(x), is_error=False)


def _from_unified(text: str) -> ToolResult | None:
    """Plain unified diff text as a diff (one file) or changeset result; None when it is not."""
    if not is_unified(text):
        return None
    payloads = payload_from_unified(text)
    if not payloads:
        return None
    if len(payloads) == 1:
        return diff_result(text, payloads[0])
    return changeset_result(text, payloads)


def _from_result_dict(data: dict[str, Any], *, depth: int) -> ToolResult:
    is_error = data.get("is_error") is True
    raw = data.get("artifact")
    artifact = _artifact_from(raw)
    value = data.get("value")
    if not isinstance(value, str):
        value = _scalar_text(value)
    if value is None:
        value = (artifact_text(artifact) if artifact is not None else None) or describe(raw)
    display = data.get("display")
    extra = {k: v for k, v in data.items() if k not in _RESULT_FIELDS and isinstance(k, str)}
    if artifact is None:
        return synthesised(value, is_error=is_error, extra=extra | {"display": display})
    try:
        return ToolResult(
            value=value, artifact=artifact, display=display, is_error=is_error, **extra
        )
    except Exception:
        return ToolResult(value=value, artifact=artifact, display=display, is_error=is_error)


def _artifact_from(raw: Any) -> AnyArtifact | None:
    if isinstance(raw, (FutureArtifact, V1_ARTIFACT_CLASSES)):
        return raw
    if not isinstance(raw, dict):
        return None
    legacy = "version" not in raw
    artifact = upgrade_legacy(raw) if legacy else check_artifact(raw, versions=None)
    if artifact is None and raw.get("kind") == "error":
        return _salvaged_error(raw)
    return artifact


def _salvaged_error(raw: dict[str, Any]) -> ErrorArtifact | None:
    """An error artifact whose payload is not quite v1 (a missing code, a message that is no
    text), kept as an error: a failure must never read as a success."""
    if raw.get("schema", SCHEMA_ID) != SCHEMA_ID or raw.get("version", 1) != 1:
        return None
    found = raw.get("payload")
    payload: dict[str, Any] = found if isinstance(found, dict) else {}
    code, message = payload.get("code"), payload.get("message")
    title = raw.get("title")
    return ErrorArtifact(
        title=title if isinstance(title, str) else None,
        payload=ErrorPayload(
            code=code if isinstance(code, str) and code else "tool_error",
            message=message if isinstance(message, str) else describe(payload),
            detail=payload.get("detail"),
        ),
    )


def _from_mcp(x: Any, *, depth: int) -> ToolResult:
    blocks, structured, is_error = mcp_parts(x)
    text = mcp_text(blocks)
    if isinstance(structured, dict) and depth < 2:
        return _merged(_adapt(structured, depth=depth + 1), value=text, is_error=is_error)
    if text is not None:
        parsed = parse_json_text(text)
        if isinstance(parsed, dict) and ("value" in parsed or "artifact" in parsed):
            return _merged(
                _from_result_dict(parsed, depth=depth + 1), value=None, is_error=is_error
            )
        return synthesised(text, is_error=is_error)
    return synthesised(describe(x), is_error=is_error)


def _merged(inner: ToolResult, *, value: str | None, is_error: bool) -> ToolResult:
    """`inner` with the outer text (when given) and the outer error flag added."""
    data = inner.model_dump()
    data["value"] = inner.value if value is None else value
    data["is_error"] = is_error or inner.is_error
    return ToolResult.model_validate(data)


def _looks_like_zeus(data: dict[str, Any]) -> bool:
    return (
        "value" not in data
        and isinstance(data.get("success"), bool)
        and ("message" in data or "content" in data)
    )


def _scalar_text(value: Any) -> str | None:
    if value is None or isinstance(value, dict | list):
        return None
    return json_text(value)


def _extras(result: ToolResult) -> dict[str, Any]:
    return dict(result.model_extra or {})
