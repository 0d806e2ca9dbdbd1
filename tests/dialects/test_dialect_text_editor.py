"""Anthropic's text editor tool calls -> diff and text artifacts."""

import pytest

from edittools.artifacts import DiffArtifact, TextArtifact, ToolResult
from edittools.dialects import result_to_text_editor, text_editor_to_result


def test_create_is_a_file_diff_creating_the_file():
    call = {"command": "create", "path": "/repo/notes.md", "file_text": "# Notes\n\n- one\n"}
    result = text_editor_to_result(
        call, "File created successfully at: /repo/notes.md", root="/repo"
    )
    payload = result.artifact.payload
    assert payload.operation == "create" and payload.path == "notes.md"
    assert payload.new == "# Notes\n\n- one\n"
    assert result.artifact.title == "notes.md +3 -0"
    assert result.value == "File created successfully at: /repo/notes.md"


def test_str_replace_is_a_snippet_diff():
    call = {"command": "str_replace", "path": "/repo/a.py", "old_str": "x = 1", "new_str": "x = 2"}
    result = text_editor_to_result(call, "The file /repo/a.py has been edited.", root="/repo")
    payload = result.artifact.payload
    assert payload.granularity == "snippet"
    assert payload.hunks[0].lines == ["-x = 1", "+x = 2"]
    assert (payload.stats.added, payload.stats.removed) == (1, 1)


def test_str_replace_without_new_str_deletes_the_text():
    call = {"command": "str_replace", "path": "a.py", "old_str": "gone\n"}
    assert text_editor_to_result(call, "ok").artifact.payload.stats.removed == 1


def test_insert_is_a_snippet_diff_at_the_line():
    call = {"command": "insert", "path": "a.py", "insert_line": 4, "new_str": "import os\n"}
    payload = text_editor_to_result(call, "The file a.py has been edited.").artifact.payload
    assert payload.hunks[0].new_start == 5 and payload.hunks[0].lines == ["+import os"]
    assert "@@ -4,0 +5 @@" in payload.unified


def test_view_and_undo_are_text():
    view = text_editor_to_result(
        {"command": "view", "path": "/r/a.py", "view_range": [1, 2]}, "1: x\n2: y", root="/r"
    )
    assert isinstance(view.artifact, TextArtifact) and view.artifact.title == "a.py"
    undo = text_editor_to_result({"command": "undo_edit", "path": "a.py"}, "Last edit undone.")
    assert undo.artifact.payload.text == "Last edit undone."


def test_errors_are_text_with_error_status():
    call = {"command": "str_replace", "path": "a.py", "old_str": "nope", "new_str": "x"}
    result = text_editor_to_result(call, "Error: No match found for replacement.", is_error=True)
    assert result.is_error and result.artifact.status == "error"
    assert isinstance(result.artifact, TextArtifact)


@pytest.mark.parametrize(
    "call",
    [
        None,
        "str_replace",
        {},
        {"command": "create", "path": "a"},
        {"command": "create", "path": None, "file_text": "x"},
        {"command": "str_replace", "path": "a", "old_str": None, "new_str": 5},
        {"command": "insert", "path": "a", "insert_line": "3", "new_str": "x"},
        {"command": "insert", "path": "a", "insert_line": -1, "new_str": "x"},
        {"command": "insert", "path": "a", "insert_line": True, "new_str": "x"},
        {"command": "rename", "path": "a", "extra": {"nested": [1]}},
        {"command": 7, "path": ["a"]},
    ],
)
def test_malformed_calls_degrade_to_text(call):
    for output in ("ok", None, 3, {"odd": 1}):
        result = text_editor_to_result(call, output)
        assert isinstance(result, ToolResult) and isinstance(result.artifact, TextArtifact)


def test_out_is_the_plain_text():
    result = text_editor_to_result({"command": "create", "path": "a", "file_text": "x"}, "Created.")
    assert isinstance(result.artifact, DiffArtifact)
    assert result_to_text_editor(result) == "Created."
