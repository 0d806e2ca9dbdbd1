"""Test data for the renderers: protocol models built by hand, some of them hostile."""

from __future__ import annotations

import struct
import zlib

from edittools.artifacts import (
    ChangesetArtifact,
    ChangesetPayload,
    CodeArtifact,
    CodePayload,
    DiffArtifact,
    DiffPayload,
    DiffStats,
    ErrorArtifact,
    ErrorPayload,
    Hunk,
    Image,
    ImageArtifact,
    ImagePayload,
    ToolResult,
)

UNIFIED = (
    "--- a/pkg/mod.py\n"
    "+++ b/pkg/mod.py\n"
    "@@ -1,4 +1,4 @@\n"
    " import os\n"
    "--- not a header\n"
    "+def main():\n"
    "     return 1\n"
    " # end\n"
)

MODIFY = DiffPayload(
    path="pkg/mod.py",
    hunks=[
        Hunk(
            old_start=1,
            old_lines=4,
            new_start=1,
            new_lines=4,
            lines=[" import os", "-- not a header", "+def main():", "     return 1", " # end"],
        )
    ],
    unified=UNIFIED,
    stats=DiffStats(added=1, removed=1),
    match="exact",
)

SNIPPET = DiffPayload(
    path="notes.txt",
    granularity="snippet",
    hunks=[
        Hunk(old_start=None, old_lines=1, new_start=None, new_lines=2, lines=["-a", "+b", "+c"])
    ],
    stats=DiffStats(added=2, removed=1),
    match="trailing_whitespace",
    minimal=False,
)

RENAME = DiffPayload(path="new/name.txt", old_path="old/name.txt", operation="rename")

BINARY = DiffPayload(path="logo.png", binary=True, operation="create")


def diff_result(payload: DiffPayload) -> ToolResult:
    """A successful tool result carrying one diff."""
    return ToolResult(value="ok", artifact=DiffArtifact(payload=payload))


def changeset_result(*payloads: DiffPayload) -> ToolResult:
    """A successful tool result carrying a changeset of the given diffs."""
    stats = DiffStats(
        added=sum(p.stats.added for p in payloads), removed=sum(p.stats.removed for p in payloads)
    )
    return ToolResult(
        value="ok",
        artifact=ChangesetArtifact(payload=ChangesetPayload(files=list(payloads), stats=stats)),
    )


def error_result(code: str, message: str) -> ToolResult:
    """A failed tool result carrying an error artifact."""
    return ToolResult(
        value=message,
        is_error=True,
        artifact=ErrorArtifact(payload=ErrorPayload(code=code, message=message)),
    )


def code_result(text: str, **fields: object) -> ToolResult:
    """A read result carrying a code artifact."""
    return ToolResult(value=text, artifact=CodeArtifact(payload=CodePayload(text=text, **fields)))


def png_bytes(width: int = 2, height: int = 1) -> bytes:
    """A valid PNG of `width` x `height` red pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\0" + b"\xff\0\0" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def image_result(**fields: object) -> ToolResult:
    """The result of a read of img/logo.png whose image has `fields`."""
    payload = ImagePayload(images=[Image(mime="image/png", **fields)], path="img/logo.png")  # type: ignore[arg-type]
    return ToolResult(value="[image img/logo.png]", artifact=ImageArtifact(payload=payload))
