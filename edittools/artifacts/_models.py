"""Artifact, result and stream-event models of the artifact protocol v1.

An artifact serialises its fields in the order schema, version, kind, status, icon, title,
payload; `icon` and `title` are left out when unset. Two rules hold in every model:
`kind: error` implies `status: error`, and a result with `is_error` carries an artifact whose
status is `error`, whatever its kind.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import (
    ConfigDict,
    Discriminator,
    Field,
    RootModel,
    SerializerFunctionWrapHandler,
    StrictBool,
    StrictInt,
    Tag,
    field_validator,
    model_serializer,
    model_validator,
)

from edittools.artifacts._payloads import (
    Attachment,
    ChangedSpan,
    ChangesetPayload,
    CodePayload,
    Diagnostic,
    DiffPayload,
    DiffStats,
    ErrorPayload,
    HtmlPayload,
    Hunk,
    Image,
    ImagePayload,
    JsonPayload,
    TablePayload,
    TextPayload,
    WireModel,
)
from edittools.artifacts._shape import outer_problem

SCHEMA_ID: Final = "edittools.tool-artifact"
PROTOCOL_VERSION = 1

__all__ = [
    "PROTOCOL_VERSION",
    "SCHEMA_ID",
    "AnyArtifact",
    "Artifact",
    "ArtifactBase",
    "Attachment",
    "ChangedSpan",
    "ChangesetArtifact",
    "ChangesetPayload",
    "CodeArtifact",
    "CodePayload",
    "Diagnostic",
    "DiffArtifact",
    "DiffPayload",
    "DiffStats",
    "ErrorArtifact",
    "ErrorPayload",
    "FutureArtifact",
    "HtmlArtifact",
    "HtmlPayload",
    "Hunk",
    "Image",
    "ImageArtifact",
    "ImagePayload",
    "JsonArtifact",
    "JsonPayload",
    "MarkdownArtifact",
    "StreamEvent",
    "TableArtifact",
    "TablePayload",
    "TextArtifact",
    "TextPayload",
    "ToolResult",
    "WireModel",
]

Status = Annotated[str, Field(min_length=1)]


def _wire_fields_required(schema: dict[str, Any]) -> None:
    # Defaults make these optional for constructors, yet every artifact on the wire has them.
    schema["required"] = ["schema", "version", "kind", "status", "payload"]


_FUTURE_SHAPE: dict[str, Any] = {
    "properties": {
        "schema": {"const": SCHEMA_ID},
        "version": {"type": "integer", "minimum": 2},
        "kind": {"type": "string", "minLength": 1},
        "status": {"type": "string", "minLength": 1},
        "icon": {"type": ["string", "null"]},
        "title": {"type": ["string", "null"]},
        "payload": {"type": "object"},
    },
    "required": ["schema", "version", "kind", "status", "payload"],
}


class ArtifactBase(WireModel):
    """Base of every v1 artifact: the schema id and the version, first on the wire."""

    model_config = ConfigDict(json_schema_extra=_wire_fields_required)

    schema_: Literal["edittools.tool-artifact"] = Field(default=SCHEMA_ID, alias="schema")
    """Schema id: always `edittools.tool-artifact`."""
    version: Annotated[StrictInt, Field(ge=1, le=1)] = PROTOCOL_VERSION
    """Protocol version: 1."""
    # Each kind narrows `kind` and `payload`; a field redefined in a subclass keeps its place
    # here, so every artifact serialises in the protocol's order.
    kind: str
    """Artifact kind."""
    status: Status = "success"
    """`success` or `error` in practice; any non-empty string is allowed."""
    icon: str | None = None
    """Portable icon name."""
    title: str | None = None
    """Plain-text title (for a diff: the path and `+N -M`)."""
    payload: Any
    """The kind's payload."""

    @model_serializer(mode="wrap")
    def _leave_out_unset_labels(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict):
            for key in ("icon", "title"):
                if data.get(key, "") is None:
                    del data[key]
        return data


class TextArtifact(ArtifactBase):
    """Plain text."""

    kind: Literal["text"] = "text"
    """Artifact kind."""
    payload: TextPayload


class MarkdownArtifact(ArtifactBase):
    """Markdown text."""

    kind: Literal["markdown"] = "markdown"
    """Artifact kind."""
    payload: TextPayload


class HtmlArtifact(ArtifactBase):
    """Untrusted HTML, to be sandboxed by the host."""

    kind: Literal["html"] = "html"
    """Artifact kind."""
    payload: HtmlPayload


class JsonArtifact(ArtifactBase):
    """Arbitrary JSON data."""

    kind: Literal["json"] = "json"
    """Artifact kind."""
    payload: JsonPayload


class CodeArtifact(ArtifactBase):
    """A window of a source file."""

    kind: Literal["code"] = "code"
    """Artifact kind."""
    payload: CodePayload


class TableArtifact(ArtifactBase):
    """A table."""

    kind: Literal["table"] = "table"
    """Artifact kind."""
    payload: TablePayload


class ImageArtifact(ArtifactBase):
    """One or more images."""

    kind: Literal["image"] = "image"
    """Artifact kind."""
    payload: ImagePayload


class DiffArtifact(ArtifactBase):
    """A change to one file."""

    kind: Literal["diff"] = "diff"
    """Artifact kind."""
    payload: DiffPayload


class ChangesetArtifact(ArtifactBase):
    """A change over several files."""

    kind: Literal["changeset"] = "changeset"
    """Artifact kind."""
    payload: ChangesetPayload


class ErrorArtifact(ArtifactBase):
    """A failure. Its status is always `error`, whatever the input said."""

    kind: Literal["error"] = "error"
    """Artifact kind."""
    status: Literal["error"] = "error"
    """Always `error`."""
    icon: str | None = None
    """Portable icon name."""
    title: str | None = None
    """Plain-text title."""
    payload: ErrorPayload

    @field_validator("status", mode="before")
    @classmethod
    def _always_error(cls, value: Any) -> str:
        return "error"


Artifact = Annotated[
    TextArtifact
    | MarkdownArtifact
    | HtmlArtifact
    | JsonArtifact
    | CodeArtifact
    | TableArtifact
    | ImageArtifact
    | DiffArtifact
    | ChangesetArtifact
    | ErrorArtifact,
    Field(discriminator="kind"),
]
"""A v1 artifact: a tagged union discriminated on `kind`."""

V1_ARTIFACT_CLASSES = (
    TextArtifact,
    MarkdownArtifact,
    HtmlArtifact,
    JsonArtifact,
    CodeArtifact,
    TableArtifact,
    ImageArtifact,
    DiffArtifact,
    ChangesetArtifact,
    ErrorArtifact,
)
"""The members of `Artifact`, for `isinstance` checks that narrow to it."""


class FutureArtifact(RootModel[dict[str, Any]]):
    """An artifact of a protocol version newer than 1, held unchanged.

    Only its outer structure is checked (schema id, a version of 2 or more, non-empty `kind` and
    `status`, an object `payload`, string `icon`/`title` when present); the payload is opaque.
    """

    model_config = ConfigDict(frozen=True, json_schema_extra=_FUTURE_SHAPE)

    @model_validator(mode="after")
    def _check_outer(self) -> FutureArtifact:
        problem = outer_problem(self.root, schema_id=SCHEMA_ID)
        if problem is None and self.root["version"] < 2:
            problem = "a future artifact needs a version of 2 or more"
        if problem is not None:
            raise ValueError(problem)
        return self

    @model_validator(mode="before")
    @classmethod
    def _error_kind_is_error_status(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("kind") == "error":
            return {**data, "status": "error"}
        return data

    @property
    def version(self) -> int:
        """The protocol version."""
        return int(self.root["version"])

    @property
    def kind(self) -> str:
        """The artifact kind (possibly one v1 does not know)."""
        return str(self.root["kind"])

    @property
    def status(self) -> str:
        """The status."""
        return str(self.root["status"])

    @property
    def title(self) -> str | None:
        """The title, when present."""
        title = self.root.get("title")
        return title if isinstance(title, str) else None

    @property
    def payload(self) -> dict[str, Any]:
        """The payload object, unvalidated."""
        payload: dict[str, Any] = self.root["payload"]
        return payload


def _artifact_tag(value: Any) -> str:
    if isinstance(value, FutureArtifact):
        return "future"
    version = value.get("version", 1) if isinstance(value, dict) else getattr(value, "version", 1)
    return "v1" if version == 1 else "future"


AnyArtifact = Annotated[
    Annotated[Artifact, Tag("v1")] | Annotated[FutureArtifact, Tag("future")],
    Discriminator(_artifact_tag),
]
"""A v1 artifact, or a future-version artifact kept unchanged."""


def _with_error_status(artifact: Any) -> Any:
    """Return `artifact` with status `error`, whatever form it is in."""
    if isinstance(artifact, FutureArtifact):
        return FutureArtifact({**artifact.root, "status": "error"})
    if isinstance(artifact, WireModel) and getattr(artifact, "status", "error") != "error":
        return artifact.model_copy(update={"status": "error"})
    if isinstance(artifact, dict):
        return {**artifact, "status": "error"}
    return artifact


class _ErrorRule(WireModel):
    @model_validator(mode="before")
    @classmethod
    def _error_forces_status(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("is_error") is True and data.get("artifact"):
            return {**data, "artifact": _with_error_status(data["artifact"])}
        return data


class ToolResult(_ErrorRule):
    """What every tool returns: text for the model, an artifact for UIs, host display data.

    Extra fields (request, provenance, provider metadata) are kept.
    """

    value: str
    """Portable text: what the model reads, and every host's fallback."""
    artifact: AnyArtifact | None = None
    """The structured artifact, or null."""
    display: Any = None
    """Host-specific adapter data; no other host parses it."""
    is_error: StrictBool = False
    """True when the tool failed; the artifact's status is then `error`."""


class StreamEvent(_ErrorRule):
    """One tool result in a stream or journal, fields in wire order."""

    id: str
    """Tool-call id, unique within the stream."""
    name: str
    """Tool name."""
    display: Any = None
    """Host-specific adapter data."""
    value: str
    """Portable text."""
    is_error: StrictBool = False
    """True when the tool failed."""
    artifact: AnyArtifact | None = None
    """The structured artifact, or null."""
