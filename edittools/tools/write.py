"""The write tool: create a file or replace its whole content, keeping its encoding and newlines."""

from __future__ import annotations

from edittools.artifacts import ToolResult
from edittools.artifacts.builders import diff_result
from edittools.change import (
    Call,
    Whole,
    ensure_fresh,
    execute_all,
    read_if_exists,
    resolved,
    text_or_bytes,
)
from edittools.diff import diff_texts
from edittools.state import Workspace
from edittools.tools._params import WriteParams
from sandbox import SandboxError, TextDocument, decode


def write(ws: Workspace, params: WriteParams, call: Call) -> ToolResult:
    """Create `params.path` (and its parents) or replace its content with `params.content`.

    Replacing requires a fresh read (see `ensure_fresh`). The existing file's encoding, BOM and
    newline style are kept; LF-only content written over a CRLF file takes CRLF.
    """
    path = resolved(ws, call, params.path)
    with ws.sandbox.lock(path):
        existing = read_if_exists(ws, path)
        if existing is None:
            before, version = None, None
            after = TextDocument.new(params.content).encode()
        else:
            before, version = existing
            ensure_fresh(ws, call, path, before, version)
            after = _in_its_format(before, params.content)
            if after == before:
                ws.note_seen(path, before, version, reader=call.reader)
                old = text_or_bytes(before)
                payload = diff_texts(old, old, path=path, include_texts=False)
                return diff_result(
                    f"{path} already has this content; nothing was written.", payload
                )
        done = execute_all(ws, call, [Whole(path, before, version, after)])[0]
    verb = "Created" if before is None else "Wrote"
    return done.result(verb)


def _in_its_format(before: bytes, content: str) -> bytes:
    """`content` encoded as the file `before` is (encoding, BOM, newlines); as new when the old
    content is not text."""
    try:
        document = decode(before)
    except SandboxError:
        return TextDocument.new(content).encode()
    return document.with_text(content).encode()  # may refuse: `unencodable`
