"""Pydantic models of the artifact protocol v1: results, artifacts, payloads and stream events.

Models hold data only: no I/O and no rendering. Wire names equal Python names in v1.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

SCHEMA_ID = "edittools.tool-artifact"
PROTOCOL_VERSION = 1

class WireModel(BaseModel):
    """Base of every protocol model: immutable, populated by name, extra fields tolerated."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="allow")

# --- payloads -------------------------------------------------------------------------------

class TextPayload(WireModel):
    """Plain text (also used by `markdown`)."""

    text: str

class HtmlPayload(WireModel):
    """Untrusted HTML: hosts must sandbox it."""

    html: str

class JsonPayload(WireModel):
    """Arbitrary JSON data."""

    data: Any = None

class CodePayload(WireModel):
    """A window of a source file, as shown by `read`."""

    text: str
    lang: str | None = None
    filename: str | None = None
    start_line: int | None = None
    end_line: int | None = None
    total_lines: int | None = None
    truncated: bool = False

class TablePayload(WireModel):
    """Rows of cells under named columns."""

    columns: list[str]
    rows: list[list[Any]]

class Attachment(WireModel):
    """Bytes kept in the blob store, referenced by an opaque id."""

    id: str
    bytes: int
    width: int | None = None
    height: int | None = None

class Image(WireModel):
    """One image: by attachment reference or inline base64."""

    mime: str
    attachment: Attachment | None = None
    b64: str | None = None

class ImagePayload(WireModel):
    """Images, with the path they were read from."""

    images: list[Image]
    path: str | None = None

class ErrorPayload(WireModel):
    """A failure: stable code, a message saying what to do next, optional structured detail."""

    code: str
    message: str
    detail: Any = None

class Hunk(WireModel):
    """One hunk. Starts are 1-based (or the line before an empty range) and null at snippet
    granularity. `lines` hold the marker (' ', '-', '+') then the line without its `\\n`; a
    `\\ No newline at end of file` line follows a line that has no final newline."""

    old_start: int | None
    old_lines: int
    new_start: int | None
    new_lines: int
    lines: list[str]

class DiffStats(WireModel):
    """Lines added and removed, counted from the hunks."""

    added: int
    removed: int

class DiffPayload(WireModel):
    """A change to one file."""

    path: str
    operation: Literal["create", "modify", "delete", "rename"] = "modify"
    old_path: str | None = None
    granularity: Literal["file", "snippet"] = "file"
    old: str | None = None
    new: str | None = None
    truncated: bool = False
    old_blob: str | None = None
    new_blob: str | None = None
    binary: bool = False
    hunks: list[Hunk] = Field(default_factory=list)
    unified: str = ""
    stats: DiffStats = Field(default_factory=lambda: DiffStats(added=0, removed=0))
    minimal: bool = True
    match: str | None = None

class ChangesetPayload(WireModel):
    """A change over several files, all committed together."""

    files: list[DiffPayload]
    stats: DiffStats

# --- artifacts ------------------------------------------------------------------------------

class _ArtifactBase(WireModel):
    schema_: Literal["edittools.tool-artifact"] = Field(default=SCHEMA_ID, alias="schema")
    version: Annotated[StrictInt, Field(ge=1)] = PROTOCOL_VERSION

class TextArtifact(_ArtifactBase):
    kind: Literal["text"] = "text"
    status: Annotated[str, Field(min_length=1)] = "success"
    icon: str | None = None
    title: str | None = None
    payload: TextPayload

class MarkdownArtifact(_ArtifactBase):
    kind: Literal["markdown"] = "markdown"
    status: Annotated[str, Field(min_length=1)] = "success"
    icon: str | None = None
    title: str | None = None
    payload: TextPayload

class HtmlArtifact(_ArtifactBase):
    kind: Literal["html"] = "html"
    status: Annotated[str, Field(min_length=1)] = "success"
    icon: str | None = None
    title: str | None = None
    payload: HtmlPayload

class JsonArtifact(_ArtifactBase):
    kind: Literal["json"] = "json"
    status: Annotated[str, Field(min_length=1)] = "success"
    icon: str | None = None
    title: str | None = None
    payload: JsonPayload

class CodeArtifact(_ArtifactBase):
    kind: Literal["code"] = "code"
    status: Annotated[str, Field(min_length=1)] = "success"
    icon: str | None = None
    title: str | None = None
    payload: CodePayload

class TableArtifact(_ArtifactBase):
    kind: Literal["table"] = "table"
    status: Annotated[str, Field(min_length=1)] = "success"
    icon: str | None = None
    title: str | None = None
    payload: TablePayload

class ImageArtifact(_ArtifactBase):
    kind: Literal["image"] = "image"
    status: Annotated[str, Field(min_length=1)] = "success"
    icon: str | None = None
    title: str | None = None
    payload: ImagePayload

class DiffArtifact(_ArtifactBase):
    kind: Literal["diff"] = "diff"
    status: Annotated[str, Field(min_length=1)] = "success"
    icon: str | None = None
    title: str | None = None
    payload: DiffPayload

class ChangesetArtifact(_ArtifactBase):
    kind: Literal["changeset"] = "changeset"
    status: Annotated[str, Field(min_length=1)] = "success"
    icon: str | None = None
    title: str | None = None
    payload: ChangesetPayload

class ErrorArtifact(_ArtifactBase):
    kind: Literal["error"] = "error"
    status: Literal["error"] = "error"
    icon: str | None = None
    title: str | None = None
    payload: ErrorPayload

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

class ToolResult(WireModel):
    """What every tool returns: text for the model, an artifact for UIs, host display data."""

    value: str
    artifact: Artifact | None = None
    display: Any = None
    is_error: bool = False

class StreamEvent(WireModel):
    """One tool result in a stream or journal, fields in wire order."""

    id: str
    name: str
    display: Any = None
    value: str
    is_error: bool = False
    artifact: Artifact | None = None
