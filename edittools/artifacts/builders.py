"""Builders of the ToolResults tools return, so every tool labels its artifacts the same way.

Conventions: a diff's title is `path +N -M`; an error result's value is `Error (code): message`;
`is_error` always comes with status `error` (the models enforce it).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from edittools.artifacts._models import (
    ChangesetArtifact,
    ChangesetPayload,
    CodeArtifact,
    CodePayload,
    DiffArtifact,
    DiffPayload,
    DiffStats,
    ErrorArtifact,
    ErrorPayload,
    JsonArtifact,
    JsonPayload,
    TextArtifact,
    TextPayload,
    ToolResult,
)


def _status(is_error: bool) -> str:
    return "error" if is_error else "success"


def diff_title(payload: DiffPayload) -> str:
    """The title of a diff: its path, then `+added -removed`."""
    return f"{payload.path} +{payload.stats.added} -{payload.stats.removed}"


def text_result(value: str, *, title: str | None = None, is_error: bool = False) -> ToolResult:
    """A result whose artifact is the same text."""
    artifact = TextArtifact(status=_status(is_error), title=title, payload=TextPayload(text=value))
    return ToolResult(value=value, artifact=artifact, is_error=is_error)


def json_result(value: str, data: Any, *, title: str | None = None) -> ToolResult:
    """A result carrying JSON data for UIs and `value` for the model."""
    return ToolResult(
        value=value, artifact=JsonArtifact(title=title, payload=JsonPayload(data=data))
    )


def code_result(value: str, payload: CodePayload, *, title: str | None = None) -> ToolResult:
    """A result showing a window of a file; the title defaults to the file name."""
    artifact = CodeArtifact(icon="file-code", title=title or payload.filename, payload=payload)
    return ToolResult(value=value, artifact=artifact)


def error_result(
    code: str,
    message: str,
    detail: Any = None,
    *,
    title: str | None = None,
    value: str | None = None,
) -> ToolResult:
    """A failed result: an `error` artifact, `is_error`, and `Error (code): message` as value."""
    artifact = ErrorArtifact(
        icon="error", title=title, payload=ErrorPayload(code=code, message=message, detail=detail)
    )
    text = value if value is not None else f"Error ({code}): {message}"
    return ToolResult(value=text, artifact=artifact, is_error=True)


def diff_result(
    value: str, payload: DiffPayload, *, is_error: bool = False, display: Any = None
) -> ToolResult:
    """A result carrying one file's diff, titled `path +N -M`.

    With `is_error` the diff is kept (for example to show what a refused change would have
    done) and the status is `error`.
    """
    artifact = DiffArtifact(
        status=_status(is_error), icon="file-diff", title=diff_title(payload), payload=payload
    )
    return ToolResult(value=value, artifact=artifact, is_error=is_error, display=display)


def changeset_result(
    value: str, files: Iterable[DiffPayload], *, is_error: bool = False
) -> ToolResult:
    """A result carrying several files' diffs, with summed stats and a `N files +A -R` title."""
    files = list(files)
    stats = DiffStats(
        added=sum(f.stats.added for f in files), removed=sum(f.stats.removed for f in files)
    )
    noun = "file" if len(files) == 1 else "files"
    artifact = ChangesetArtifact(
        status=_status(is_error),
        icon="file-diff",
        title=f"{len(files)} {noun} +{stats.added} -{stats.removed}",
        payload=ChangesetPayload(files=files, stats=stats),
    )
    return ToolResult(value=value, artifact=artifact, is_error=is_error)


def by_reference(result: ToolResult) -> ToolResult:
    """`result` with its diffs' full old and new texts left out (`truncated`; `old_ref` and
    `new_ref` kept): what goes on the wire and into the journal, where a copy of each whole file
    would cost more than the change."""
    artifact = result.artifact
    if isinstance(artifact, DiffArtifact):
        payload = _without_texts(artifact.payload)
        if payload is artifact.payload:
            return result
        return result.model_copy(
            update={"artifact": artifact.model_copy(update={"payload": payload})}
        )
    if isinstance(artifact, ChangesetArtifact):
        files = [_without_texts(file) for file in artifact.payload.files]
        if all(new is old for new, old in zip(files, artifact.payload.files, strict=True)):
            return result
        changeset = artifact.payload.model_copy(update={"files": files})
        return result.model_copy(
            update={"artifact": artifact.model_copy(update={"payload": changeset})}
        )
    return result


def _without_texts(payload: DiffPayload) -> DiffPayload:
    if payload.old is None and payload.new is None:
        return payload
    return payload.model_copy(update={"old": None, "new": None, "truncated": True})
