"""Anthropic's text editor tool (`str_replace_based_edit_tool`, formerly `str_replace_editor`).

In: a call's input (`command` = `view`, `create`, `str_replace`, `insert`, `undo_edit`, with
`path`, `file_text`, `old_str`, `new_str`, `insert_line`, `view_range`) and its plain-text
result become a ToolResult: `create` a diff creating the file, `str_replace` and `insert` snippet
diffs, `view` and `undo_edit` text. Out: the result's portable text, the only thing the tool
returns.
"""

from __future__ import annotations

from typing import Any

from edittools.artifacts import ToolResult, value_of
from edittools.artifacts.builders import diff_result, text_result
from edittools.dialects._fields import fallback, integer, mapping, relative_path, string
from edittools.diff import diff_texts, snippet_diff


def text_editor_to_result(
    tool_input: Any, output: Any, *, is_error: bool = False, root: str | None = None
) -> ToolResult:
    """Turn one text editor call and its plain-text output into a ToolResult; never raises."""
    value = output if isinstance(output, str) else value_of(output)
    try:
        call = mapping(tool_input)
        command, recorded = string(call, "command"), string(call, "path")
        if is_error or recorded is None:
            return fallback(value, is_error=is_error)
        path = relative_path(recorded, root)
        if command == "create":
            file_text = string(call, "file_text")
            if file_text is not None:
                return diff_result(value, diff_texts(None, file_text, path=path))
        elif command == "str_replace":
            old, new = string(call, "old_str"), string(call, "new_str")
            if old is not None:
                return diff_result(value, snippet_diff(old, new or "", path=path))
        elif command == "insert":
            after = integer(call, "insert_line")
            new = string(call, "new_str", "insert_text")
            if after is not None and after >= 0 and new is not None:
                return diff_result(value, snippet_diff("", new, path=path, start_line=after + 1))
        elif command in ("view", "undo_edit"):
            return text_result(value, title=path)
        return fallback(value)
    except Exception:
        return fallback(value, is_error=is_error)


def result_to_text_editor(result: ToolResult) -> str:
    """The plain text the text editor tool returns for `result`."""
    return result.value
