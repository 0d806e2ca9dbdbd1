"""The write tool: create a file or replace its whole content, keeping its encoding and newlines."""

from __future__ import annotations

from edittools.artifacts import ToolResult
from edittools.artifacts.builders import diff_result
from edittools.change import (
    Call,
    change_result,
    commit,
    digest,
    ensure_fresh,
    read_if_exists,
    resolved,
    summary,
    vet,
    wants_texts,
    with_refs,
)
from edittools.diff import diff_texts
from edittools.state import Workspace
from edittools.tools._params import WriteParams
from sandbox import SandboxError, TextDocument, Version, decode


def write(ws: Workspace, params: WriteParams, call: Call) -> ToolResult:
    """Create `params.path` (and its parents) or replace its content with `params.content`.

    Replacing requires a fresh read (see `ensure_fresh`). The existing file's encoding, BOM and
    newline style are kept; LF-only content written over a CRLF file takes CRLF.
    """
    sb = ws.sandbox
    path = resolved(ws, call, params.path)
    with sb.lock(path):
        existing = read_if_exists(ws, path)
        before: bytes | None = None
        version: Version | None = None
        old_text: str | bytes | None = None
        if existing is None:
            document = TextDocument.new(params.content)
        else:
            before, version = existing
            ensure_fresh(ws, call, path, before, version)
            try:
                old_document = decode(before)
            except SandboxError:
                old_text, document = before, TextDocument.new(params.content)
            else:
                old_text, document = old_document.text, old_document.with_text(params.content)
        after = document.encode()
        # `before` is set only with the version it was read at.
        if before is not None and version is not None and after == before:
            ws.note_seen(path, before, version, reader=call.reader)
            payload = diff_texts(old_text, document.text, path=path, include_texts=False)
            return diff_result(f"{path} already has this content; nothing was written.", payload)
        check = vet(ws, path, old_text, document.text)
        new_version = commit(ws, call, path, before, version, after)
    include = wants_texts(ws, len(before or b""), len(after))
    payload = diff_texts(old_text, document.text, path=path, include_texts=include)
    payload = with_refs(ws, payload, digest(version), digest(new_version))
    verb = "Created" if before is None else "Wrote"
    return change_result(summary(verb, payload), payload, check)
