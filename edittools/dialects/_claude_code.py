"""Claude Code: its file tools' calls and results, and its JSONL session transcripts.

In: a `Read`/`Write`/`Edit`/`MultiEdit` call (`file_path`, `content`, `old_string`,
`new_string`, `replace_all`, `edits`) with its result (`toolUseResult`: `originalFile`,
`structuredPatch`, `oldString`, `newString`, `content`, `file`) becomes a ToolResult. With the
original file known the diff has file granularity; without it the structured patch is used when
it is sound, else a snippet diff of the call's strings. Other tools become text. Out: a diff
result renders as the `toolUseResult` shape of an `Edit`/`Write`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from edittools.artifacts import (
    CodePayload,
    DiffArtifact,
    DiffPayload,
    StreamEvent,
    ToolResult,
    artifact_of,
    value_of,
)
from edittools.artifacts.builders import code_result, diff_result, error_result
from edittools.dialects._fields import (
    fallback,
    flag,
    integer,
    items,
    mapping,
    relative_path,
    string,
)
from edittools.dialects._names import CLAUDE_EDIT, CLAUDE_MULTI_EDIT, CLAUDE_READ, CLAUDE_WRITE
from edittools.dialects._patches import payload_from_hunks, structured_patch_hunks
from edittools.diff import diff_texts, snippet_diff

_EDIT_TOOLS = (CLAUDE_EDIT, CLAUDE_MULTI_EDIT, CLAUDE_WRITE)
_ERROR_TAGS = re.compile(r"<tool_use_error>(.*)</tool_use_error>", re.DOTALL)


def claude_code_to_result(
    name: str,
    tool_input: Any,
    tool_use_result: Any = None,
    *,
    content: Any = None,
    is_error: bool = False,
    root: str | None = None,
    may_exist: bool = False,
) -> ToolResult:
    """Turn one Claude Code tool call and its result into a ToolResult; never raises.

    `content` is what the model read (the `tool_result` block's content: text or text blocks);
    `tool_use_result` the structured `toolUseResult`; `root` the project directory, stripped
    from recorded absolute paths. A failed call (`is_error`, or its text in `<tool_use_error>`
    tags) is an error result with the tags stripped. A `Write` recorded without its result is a
    `create` diff of its content, or a snippet diff when the file `may_exist` already.
    """
    value = _content_text(content)
    try:
        if value is None:
            value = _default_value(name, tool_use_result)
        failed = _ERROR_TAGS.fullmatch(value.strip())
        if is_error or failed:
            message = failed.group(1).strip() if failed else value
            return error_result("tool_error", message).model_copy(update={"value": message})
        if name not in (*_EDIT_TOOLS, CLAUDE_READ):
            return fallback(value)
        if name == CLAUDE_READ:
            return _read_result(value, mapping(tool_use_result), root)
        call = mapping(tool_input)
        payload = _edit_payload(name, call, mapping(tool_use_result), root)
        if payload is None and name == CLAUDE_WRITE and tool_use_result is None:
            payload = _unrecorded_write(call, root, may_exist=may_exist or "updated" in value)
        return fallback(value) if payload is None else diff_result(value, payload)
    except Exception:
        return fallback(value if value is not None else content, is_error=is_error)


def result_to_claude_code(result: ToolResult) -> dict[str, Any] | None:
    """Render a diff result as Claude Code's `toolUseResult` of an `Edit`/`Write`; None when the
    result holds no diff."""
    artifact = artifact_of(result)
    if not isinstance(artifact, DiffArtifact):
        return None
    payload = artifact.payload
    patch = [
        {
            "oldStart": h.old_start,
            "oldLines": h.old_lines,
            "newStart": h.new_start,
            "newLines": h.new_lines,
            "lines": list(h.lines),
        }
        for h in payload.hunks
        if h.old_start is not None and h.new_start is not None
    ]
    shape: dict[str, Any] = {"filePath": payload.path, "structuredPatch": patch}
    if payload.operation == "create":
        shape |= {"type": "create", "content": payload.new, "originalFile": None}
    elif payload.new is not None:
        shape |= {"type": "update", "content": payload.new, "originalFile": payload.old}
    else:
        old, new = _sides(payload)
        shape |= {"oldString": old, "newString": new, "originalFile": payload.old}
    return shape


def transcript_events(
    text: str, *, root: str | None = None, not_understood: list[str] | None = None
) -> list[StreamEvent]:
    """Pair a transcript's assistant `tool_use` blocks with the user `tool_result` blocks (and
    their line's `toolUseResult`) by tool-use id, in the order the results arrive.

    `text` is JSONL (one record a line) or a session export (`{"loglines": [records]}`). A
    result whose call is missing is kept under the name `unknown`. What cannot be read (a line
    that is not JSON, a record that is no object) is skipped and, when `not_understood` is
    given, described there. Never raises.
    """
    calls: dict[str, tuple[str, Any]] = {}
    touched: set[str] = set()
    events: list[StreamEvent] = []
    skipped = not_understood if not_understood is not None else []
    for number, record in enumerate(_records(text, skipped), start=1):
        if not isinstance(record, dict):
            skipped.append(f"record {number} is not a JSON object")
            continue
        blocks = items(mapping(record.get("message")), "content")
        for block in blocks:
            if isinstance(block, dict) and block.get("type") == "tool_use":
                call_id = string(block, "id")
                if call_id is not None:
                    calls[call_id] = (string(block, "name") or "unknown", block.get("input"))
        results = [b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_result"]
        for block in results:
            call_id = string(block, "tool_use_id") or ""
            name, tool_input = calls.get(call_id, ("unknown", None))
            path = string(mapping(tool_input), "file_path")
            # The line's toolUseResult belongs to its result only when there is one result.
            structured = record.get("toolUseResult") if len(results) == 1 else None
            result = claude_code_to_result(
                name,
                tool_input,
                structured,
                content=block.get("content"),
                is_error=flag(block, "is_error"),
                root=root,
                may_exist=path in touched,
            )
            if path is not None:
                touched.add(path)
            events.append(
                StreamEvent(
                    id=call_id,
                    name=name,
                    value=result.value,
                    is_error=result.is_error,
                    artifact=result.artifact,
                )
            )
    return events


def _records(text: str, skipped: list[str]) -> list[Any]:
    """The records of a JSONL transcript or of a session export's `loglines`."""
    if not isinstance(text, str):
        skipped.append("the transcript is not text")
        return []
    stripped = text.strip()
    if stripped.startswith("{") and '"loglines"' in stripped[:4096]:
        try:
            document = json.loads(stripped)
        except ValueError:
            document = None
        if isinstance(document, dict) and isinstance(document.get("loglines"), list):
            return list(document["loglines"])
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except ValueError:
            skipped.append(f"line {number} is not JSON")
    return records


def _unrecorded_write(call: dict[str, Any], root: str | None, *, may_exist: bool) -> Any:
    """A `Write` known only by its input: a `create` diff, or a snippet diff of the content
    when the file may have existed (its old content is unknown)."""
    recorded, content = string(call, "file_path"), string(call, "content")
    if recorded is None or content is None:
        return None
    path = relative_path(recorded, root)
    if may_exist:
        return snippet_diff("", content, path=path)
    return diff_texts(None, content, path=path)


def _content_text(content: Any) -> str | None:
    if isinstance(content, str):
        return content
    texts = [string(block, "text") for block in content] if isinstance(content, list) else []
    kept = [t for t in texts if t is not None]
    return "\n".join(kept) if kept else None


def _default_value(name: str, tool_use_result: Any) -> str:
    if isinstance(tool_use_result, str):
        return tool_use_result
    path = string(tool_use_result, "filePath")
    if name in _EDIT_TOOLS and path:
        return f"The file {path} has been updated."
    return value_of(tool_use_result) if tool_use_result is not None else f"{name} finished."


def _read_result(value: str, data: dict[str, Any], root: str | None) -> ToolResult:
    file = mapping(data.get("file"))
    text = string(file, "content")
    path = string(file, "filePath")
    if data.get("type") != "text" or text is None or path is None:
        return fallback(value)
    start = integer(file, "startLine") or 1
    count = integer(file, "numLines")
    total = integer(file, "totalLines")
    end = start + count - 1 if count is not None else None
    payload = CodePayload(
        text=text,
        filename=relative_path(path, root),
        start_line=start,
        end_line=end,
        total_lines=total,
        truncated=total is not None and count is not None and count < total,
    )
    return code_result(value, payload)


def _edit_payload(
    name: str, call: dict[str, Any], data: dict[str, Any], root: str | None
) -> DiffPayload | None:
    recorded = string(data, "filePath") or string(call, "file_path")
    if recorded is None:
        return None
    path = relative_path(recorded, root)
    original = string(data, "originalFile", "originalFileContents")
    if name == CLAUDE_WRITE:
        content = string(data, "content") or string(call, "content")
        created = data.get("type") == "create" or (
            "originalFile" in data and data["originalFile"] is None and data.get("type") != "update"
        )
        if content is not None and (original is not None or created):
            return diff_texts(original, content, path=path)
    elif original is not None:
        edits = items(call, "edits") if name == CLAUDE_MULTI_EDIT else [_edit_of(call, data)]
        new = _apply_edits(original, edits)
        if new is not None:
            return diff_texts(original, new, path=path)
    hunks = structured_patch_hunks(data.get("structuredPatch"))
    if hunks is not None:
        return payload_from_hunks(hunks, path=path)
    if name == CLAUDE_EDIT:
        edit = _edit_of(call, data)
        old, new = string(edit, "old_string"), string(edit, "new_string")
        if old is not None and new is not None:
            return snippet_diff(old, new, path=path)
    return None


def _edit_of(call: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    return {
        "old_string": string(call, "old_string") or string(data, "oldString"),
        "new_string": string(call, "new_string")
        if string(call, "new_string") is not None
        else string(data, "newString"),
        "replace_all": flag(call, "replace_all") or flag(data, "replaceAll"),
    }


def _apply_edits(text: str, edits: list[Any]) -> str | None:
    """Replay the edits on the original text; None when one of them does not apply."""
    if not edits:
        return None
    for edit in edits:
        old, new = string(edit, "old_string"), string(edit, "new_string")
        if old is None or new is None or not old or old not in text:
            return None
        text = text.replace(old, new) if flag(edit, "replace_all") else text.replace(old, new, 1)
    return text


def _sides(payload: DiffPayload) -> tuple[str, str]:
    old = [line[1:] for h in payload.hunks for line in h.lines if line[:1] in (" ", "-")]
    new = [line[1:] for h in payload.hunks for line in h.lines if line[:1] in (" ", "+")]
    return "\n".join(old), "\n".join(new)
