"""Loading results to preview or report: ToolResults, stream events, journals, transcripts."""

from __future__ import annotations

import json
from typing import Any

from edittools import adapt
from edittools.artifacts import StreamEvent, ToolResult
from edittools.diff import is_unified

Result = ToolResult | StreamEvent


def load_results(text: str, *, not_understood: list[str] | None = None) -> list[Result]:
    """Every tool result in `text`: one JSON document (a result or a list of them) or JSON lines.

    Claude Code transcripts (JSONL with assistant `tool_use` and user `tool_result` records, or
    a session export `{"loglines": [...]}`) are paired by tool-use id, and what in them cannot
    be read is described in `not_understood`; a plain unified diff is one diff result; other
    records go through `adapt`, so unknown shapes among them still show as text. Text with no
    JSON in it at all, and no diff, holds no tool result: ValueError says so.
    """
    stripped = text.strip()
    if not stripped:
        return []
    try:
        document = json.loads(stripped)
    except ValueError:
        document = None
    else:
        if isinstance(document, dict) and isinstance(document.get("loglines"), list):
            from edittools.dialects import transcript_events

            root = _transcript_root(document["loglines"])
            return list(transcript_events(text, root=root, not_understood=not_understood))
        if isinstance(document, list):
            return [_result(item) for item in document]
        return [_result(document)]
    if is_unified(stripped):
        return [adapt(stripped)]
    records = []
    for line in stripped.splitlines():
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except ValueError:
            records.append(line)
    if all(isinstance(record, str) for record in records):
        raise ValueError(
            "it holds no tool results: it is neither JSON (a result, a list of them, "
            "JSON lines, a transcript) nor a unified diff."
        )
    if any(_is_transcript_record(record) for record in records):
        # Imported here: the dialects package loads the MCP SDK, which takes most of a second.
        from edittools.dialects import transcript_events

        root = _transcript_root(records)
        return list(transcript_events(text, root=root, not_understood=not_understood))
    return [_result(record) for record in records]


def _result(item: Any) -> Result:
    result = adapt(item)
    if (
        isinstance(item, dict)
        and isinstance(item.get("id"), str)
        and isinstance(item.get("name"), str)
    ):
        return StreamEvent(
            id=item["id"],
            name=item["name"],
            display=result.display,
            value=result.value,
            is_error=result.is_error,
            artifact=result.artifact,
        )
    return result


def _transcript_root(records: list[Any]) -> str | None:
    """The project directory a transcript records (`cwd`), so paths show relative to it."""
    for record in records:
        if _is_transcript_record(record) and isinstance(record.get("cwd"), str):
            return str(record["cwd"])
    return None


def _is_transcript_record(record: Any) -> bool:
    """A Claude Code transcript line: a user or assistant record carrying a `message`."""
    return (
        isinstance(record, dict)
        and record.get("type") in ("user", "assistant")
        and isinstance(record.get("message"), dict)
    )
