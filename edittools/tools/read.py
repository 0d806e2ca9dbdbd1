"""The read tool: a numbered window of a text file, or an image by attachment reference."""

from __future__ import annotations

import io

import imagesize

from edittools._errors import ToolError
from edittools._workspace import Workspace
from edittools.artifacts import CodePayload, ToolResult
from edittools.artifacts._build import code_result
from edittools.artifacts._models import Attachment, Image, ImageArtifact, ImagePayload
from edittools.tools._guard import read_existing
from edittools.tools._language import language_of
from edittools.tools._numbering import CUT_MARKER, numbered
from edittools.tools._params import ReadParams
from sandbox import Version, decode


def read(ws: Workspace, params: ReadParams) -> ToolResult:
    """Read `params.path`: numbered lines `offset`..`offset + limit - 1`, or an image."""
    sb = ws.sandbox
    path = sb.relpath(params.path)
    data, version = read_existing(ws, path)
    mime = image_mime(data)
    if mime is not None:
        ws.note_seen(path, data, version)
        return _read_image(ws, path, data, mime)
    document = decode(data)
    ws.note_seen(path, data, version)
    if not document.text:
        return ToolResult(
            value=f"{path} is empty (0 lines). It was recorded as read, so you may write it.",
            artifact=code_result(
                "", CodePayload(text="", filename=path, start_line=0, end_line=0, total_lines=0)
            ).artifact,
        )
    return _read_text(ws, path, document.text, params, version)


def _read_text(
    ws: Workspace, path: str, text: str, params: ReadParams, version: Version
) -> ToolResult:
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    total = len(lines)
    if params.offset > total:
        raise ToolError(
            "invalid_arguments",
            f"{path} has {total} lines; offset {params.offset} is past the end. "
            f"Use an offset between 1 and {total}.",
            {"total_lines": total},
        )
    limit = min(params.limit, ws.options.read_line_limit)
    window = lines[params.offset - 1 : params.offset - 1 + limit]
    last = params.offset + len(window) - 1
    cap = ws.options.read_line_chars
    size = sum(_shown_chars(line, cap) for line in window)
    if size > ws.options.read_output_chars:
        fitting = _lines_that_fit(window, ws.options.read_output_chars, cap)
        raise ToolError(
            "too_large",
            f"Lines {params.offset}-{last} of {path} are about {size} characters, over the "
            f"read cap of {ws.options.read_output_chars}. Read a smaller range, e.g. "
            f"offset={params.offset} limit={fitting}.",
            {"total_lines": total, "suggested_limit": fitting},
        )
    body = numbered(window, params.offset, max_chars=cap)
    partial = params.offset > 1 or last < total
    footer = ""
    if last < total:
        footer = (
            f"\n\n[Showing lines {params.offset}-{last} of {total}. "
            f"Use offset={last + 1} to read more.]"
        )
    elif params.offset > 1:
        footer = f"\n\n[Showing lines {params.offset}-{last} of {total}; end of file.]"
    payload = CodePayload(
        text="\n".join(window) + ("\n" if window else ""),
        lang=language_of(path),
        filename=path,
        start_line=params.offset,
        end_line=last,
        total_lines=total,
        truncated=partial,
    )
    return code_result(body + footer, payload)


def _shown_chars(line: str, cap: int) -> int:
    """About how many characters `line` takes in the numbered output (number, tab, cut marker)."""
    return min(len(line), cap + len(CUT_MARKER) + 8) + 8


def _lines_that_fit(window: list[str], budget: int, cap: int) -> int:
    """How many lines from the start of `window` fit in `budget` (the same measure as the cap)."""
    used = 0
    for count, line in enumerate(window):
        used += _shown_chars(line, cap)
        if used > budget:
            return max(count, 1)
    return len(window)


_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


def image_mime(data: bytes) -> str | None:
    """The MIME type of PNG, JPEG, GIF and WebP bytes, recognised by their magic numbers."""
    for magic, mime in _MAGIC:
        if data.startswith(magic):
            return mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def _read_image(ws: Workspace, path: str, data: bytes, mime: str) -> ToolResult:
    width, height = imagesize.get(io.BytesIO(data))
    blob_id = ws.sandbox.store.put(data)
    attachment = Attachment(
        id=blob_id,
        bytes=len(data),
        width=width if width > 0 else None,
        height=height if height > 0 else None,
    )
    size = f"{width}x{height}, " if width > 0 and height > 0 else ""
    value = f"[image {path}: {mime}, {size}{len(data)} bytes, attachment {blob_id}]"
    artifact = ImageArtifact(
        icon="image",
        title=path,
        payload=ImagePayload(images=[Image(mime=mime, attachment=attachment)], path=path),
    )
    return ToolResult(value=value, artifact=artifact)
