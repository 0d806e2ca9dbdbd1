"""Zeus tool results, in and out.

A Zeus result is `{success, message, content: {type, data, language, title, meta}, file_path,
files: [{name, type, sandbox_path, url, content, size}]}`. In: `edit`/`write` content with
`meta.old_content` becomes a file-granularity diff; without it, a snippet diff of the call's
`old_string`/`new_string` (the same for a result of an `edit`/`write` tool whatever its content
type, and for a result of an unnamed tool that carries `meta.old_content`); `text`, `markdown`, `html`, `json`, `code`, `image` and `error` map to
the matching kinds; anything else becomes text. Out: a result renders as that shape, a diff with
the full new text in `data` and the old one in `meta.old_content`.
"""

from __future__ import annotations

import base64
import binascii
import posixpath
from typing import Any

from edittools.artifacts import (
    CodePayload,
    DiffPayload,
    ErrorArtifact,
    ErrorPayload,
    FutureArtifact,
    HtmlArtifact,
    HtmlPayload,
    Image,
    ImageArtifact,
    ImagePayload,
    JsonArtifact,
    JsonPayload,
    MarkdownArtifact,
    TablePayload,
    TextPayload,
    ToolResult,
    artifact_of,
    value_of,
)
from edittools.artifacts.builders import code_result, diff_result
from edittools.dialects._fields import (
    fallback,
    integer,
    items,
    mapping,
    relative_path,
    string,
)
from edittools.diff import diff_texts, snippet_diff

_CHANGE_TYPES = ("edit", "write", "diff", "multi_edit")


def zeus_to_result(
    record: Any, *, call: Any = None, tool_name: str | None = None, root: str | None = None
) -> ToolResult:
    """Turn a Zeus result dict into a ToolResult; never raises.

    `call` is the tool call's arguments (for `old_string`/`new_string` when the result holds no
    old content), `tool_name` its name when the content type does not say it was a change.
    """
    data = mapping(record)
    is_error = data.get("success") is False
    content = mapping(data.get("content"))
    body = content.get("data")
    value = string(data, "message") or (body if isinstance(body, str) else None)
    if value is None:
        value = value_of(record) if not content else f"({string(content, 'type') or 'result'})"
    try:
        result = _convert(data, content, value, is_error, mapping(call), tool_name, root)
    except Exception:
        result = None
    return result if result is not None else fallback(value, is_error=is_error)


def result_to_zeus(result: ToolResult) -> dict[str, Any]:
    """Render a ToolResult as a Zeus result dict."""
    artifact = artifact_of(result)
    content: dict[str, Any] = {"type": "text", "data": result.value}
    file_path: str | None = None
    files: list[dict[str, Any]] = []
    # artifact_of accepts only version 1 here; the check narrows the type to the v1 kinds.
    if artifact is not None and not isinstance(artifact, FutureArtifact):
        payload, title = artifact.payload, artifact.title
        if isinstance(payload, DiffPayload):
            content, file_path = _diff_out(payload), payload.path
        elif isinstance(payload, TextPayload):  # text and markdown
            content = {"type": artifact.kind, "data": payload.text}
        elif isinstance(payload, HtmlPayload):
            content = {"type": "html", "data": payload.html}
        elif isinstance(payload, JsonPayload):
            content = {"type": "json", "data": payload.data}
        elif isinstance(payload, TablePayload):
            content = {"type": "json", "data": {"columns": payload.columns, "rows": payload.rows}}
        elif isinstance(payload, CodePayload):
            content = {"type": "code", "data": payload.text, "language": payload.lang}
            content["meta"] = {"start_line": payload.start_line, "end_line": payload.end_line}
            file_path = payload.filename
        elif isinstance(payload, ErrorPayload):
            content = {"type": "error", "data": payload.message}
            content["meta"] = {"code": payload.code, "detail": payload.detail}
        elif isinstance(payload, ImagePayload):
            content, files = _image_out(payload)
            file_path = payload.path
        content.setdefault("title", title)
    return {
        "success": not result.is_error,
        "message": result.value,
        "content": content,
        "file_path": file_path,
        "files": files,
    }


def _convert(
    data: dict[str, Any],
    content: dict[str, Any],
    value: str,
    is_error: bool,
    call: dict[str, Any],
    tool_name: str | None,
    root: str | None,
) -> ToolResult | None:
    kind = string(content, "type") or ""
    body, meta, title = content.get("data"), mapping(content.get("meta")), string(content, "title")
    status = "error" if is_error else "success"
    # An edit or write (by content type or by tool name), or a result of a tool we are not told
    # that carries the old content, is a change whatever its content type says.
    change_tool = tool_name in _CHANGE_TYPES
    if kind in _CHANGE_TYPES or change_tool or (tool_name is None and "old_content" in meta):
        payload = _change_payload(data, body, meta, call, root)
        if payload is not None:
            return diff_result(value, payload, is_error=is_error)
        if kind in _CHANGE_TYPES:
            return None
    if kind == "error" or (is_error and not kind):
        message = body if isinstance(body, str) else value
        code = string(meta, "code") or "tool_error"
        error = ErrorPayload(code=code, message=message, detail=meta.get("detail"))
        return ToolResult(
            value=value, artifact=ErrorArtifact(title=title, payload=error), is_error=True
        )
    artifact: Any = None
    if kind == "markdown" and isinstance(body, str):
        artifact = MarkdownArtifact(status=status, title=title, payload=TextPayload(text=body))
    elif kind == "html" and isinstance(body, str):
        artifact = HtmlArtifact(status=status, title=title, payload=HtmlPayload(html=body))
    elif kind == "json":
        artifact = JsonArtifact(status=status, title=title, payload=JsonPayload(data=body))
    elif kind == "code" and isinstance(body, str):
        path = string(data, "file_path")
        payload = CodePayload(
            text=body,
            lang=string(content, "language"),
            filename=relative_path(path, root) if path else None,
            start_line=integer(meta, "start_line"),
            end_line=integer(meta, "end_line"),
        )
        artifact = code_result(value, payload, title=title).artifact
    elif kind == "image":
        artifact = _image_in(data, body, meta, status, title, root)
    if artifact is None:
        return None
    return ToolResult(value=value, artifact=artifact, is_error=is_error)


def _change_payload(
    data: dict[str, Any],
    body: Any,
    meta: dict[str, Any],
    call: dict[str, Any],
    root: str | None,
) -> Any:
    recorded = (
        string(data, "file_path") or string(meta, "path") or string(call, "file_path", "path")
    )
    if recorded is None:
        return None
    path = relative_path(recorded, root)
    new = string(meta, "new_content") or (body if isinstance(body, str) else None)
    if "old_content" in meta and new is not None:
        old = meta["old_content"]
        if old is None or isinstance(old, str):
            return diff_texts(old, new, path=path)
    old_string = string(call, "old_string") or string(meta, "old_string")
    new_string = string(call, "new_string")
    if new_string is None:
        new_string = string(meta, "new_string")
    if old_string is not None and new_string is not None:
        return snippet_diff(old_string, new_string, path=path)
    return None


def _image_in(
    data: dict[str, Any],
    body: Any,
    meta: dict[str, Any],
    status: str,
    title: str | None,
    root: str | None,
) -> ImageArtifact | None:
    images: list[Image] = []
    for file in items(data, "files"):
        mime, b64 = string(file, "type"), string(file, "content")
        if mime and mime.startswith("image/") and b64 and _is_base64(b64):
            images.append(Image(mime=mime, b64=b64))
    if not images and isinstance(body, str) and _is_base64(body):
        images.append(Image(mime=string(meta, "mime", "mime_type") or "image/png", b64=body))
    if not images:
        return None
    path = string(data, "file_path")
    payload = ImagePayload(images=images, path=relative_path(path, root) if path else None)
    return ImageArtifact(status=status, title=title, payload=payload)


def _is_base64(text: str) -> bool:
    try:
        base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def _diff_out(payload: DiffPayload) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "path": payload.path,
        "operation": payload.operation,
        "granularity": payload.granularity,
        "unified": payload.unified,
        "stats": {"added": payload.stats.added, "removed": payload.stats.removed},
    }
    if payload.new is not None:
        meta["old_content"] = payload.old
        data = payload.new
    else:
        old = [ln[1:] for h in payload.hunks for ln in h.lines if ln[:1] in (" ", "-")]
        new = [ln[1:] for h in payload.hunks for ln in h.lines if ln[:1] in (" ", "+")]
        meta["old_string"], meta["new_string"] = "\n".join(old), "\n".join(new)
        data = payload.unified
    kind = "write" if payload.operation == "create" else "edit"
    return {"type": kind, "data": data, "language": None, "meta": meta}


def _image_out(payload: ImagePayload) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    files = []
    for image in payload.images:
        size = image.attachment.bytes if image.attachment else None
        if size is None and image.b64:
            size = len(base64.b64decode(image.b64))
        files.append(
            {
                "name": posixpath.basename(payload.path or "") or "image",
                "type": image.mime,
                "sandbox_path": payload.path,
                "url": None,
                "content": image.b64,
                "size": size,
            }
        )
    first = payload.images[0] if payload.images else None
    content: dict[str, Any] = {"type": "image", "data": first.b64 if first else None}
    content["meta"] = {"mime": first.mime if first else None}
    return content, files
