"""The artifact protocol v1: models, accessors and version negotiation.

Every tool returns a `ToolResult`: portable text (`value`), a versioned artifact for UIs, and
optional host display data. `artifact_of` and `value_of` read any result a host may hold and
never raise; upgrading other shapes to v1 (`edittools.adapt`) lives with the dialects. The
builders the tools and dialects use (`diff_result`, `error_result`, ...) are in the `builders`
module, and the lower-level readers in `access`: importable, but not the protocol's face.
"""

from edittools.artifacts._models import (
    PROTOCOL_VERSION,
    SCHEMA_ID,
    AnyArtifact,
    Artifact,
    ArtifactBase,
    Attachment,
    ChangesetArtifact,
    ChangesetPayload,
    CodeArtifact,
    CodePayload,
    Diagnostic,
    DiffArtifact,
    DiffPayload,
    DiffStats,
    ErrorArtifact,
    ErrorPayload,
    FutureArtifact,
    HtmlArtifact,
    HtmlPayload,
    Hunk,
    Image,
    ImageArtifact,
    ImagePayload,
    JsonArtifact,
    JsonPayload,
    MarkdownArtifact,
    StreamEvent,
    TableArtifact,
    TablePayload,
    TextArtifact,
    TextPayload,
    ToolResult,
)
from edittools.artifacts._schema import export_schema, write_schema
from edittools.artifacts.access import artifact_of, value_of

__all__ = [
    "PROTOCOL_VERSION",
    "SCHEMA_ID",
    "AnyArtifact",
    "Artifact",
    "ArtifactBase",
    "Attachment",
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
    "artifact_of",
    "export_schema",
    "value_of",
    "write_schema",
]
