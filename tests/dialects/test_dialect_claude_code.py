"""Claude Code tool records and transcripts -> diff, code and text artifacts."""

import json
import subprocess

import pytest

from edittools.artifacts import CodeArtifact, DiffArtifact, ErrorArtifact, TextArtifact, ToolResult
from edittools.dialects import claude_code_to_result, result_to_claude_code, transcript_events

ROOT = "/home/dev/proj"
ORIGINAL = "def greet(name):\n    print('hi', name)\n\n\ndef main():\n    greet('x')\n"
EDIT_INPUT = {
    "file_path": f"{ROOT}/app.py",
    "old_string": "    print('hi', name)",
    "new_string": "    print('hello', name)\n    return name",
}
EDIT_RESULT = {
    "filePath": f"{ROOT}/app.py",
    "oldString": "    print('hi', name)",
    "newString": "    print('hello', name)\n    return name",
    "originalFile": ORIGINAL,
    "structuredPatch": [
        {
            "oldStart": 1,
            "oldLines": 5,
            "newStart": 1,
            "newLines": 6,
            "lines": [
                " def greet(name):",
                "-    print('hi', name)",
                "+    print('hello', name)",
                "+    return name",
                " ",
                " ",
                " def main():",
            ],
        }
    ],
    "userModified": False,
    "replaceAll": False,
}
UPDATED = ORIGINAL.replace(EDIT_INPUT["old_string"], EDIT_INPUT["new_string"])


def _git_apply_check(tmp_path, unified, old_text, name="app.py"):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / name).write_text(old_text)
    (tmp_path / "p.diff").write_text(unified)
    subprocess.run(["git", "-C", str(tmp_path), "apply", "p.diff"], check=True)
    return (tmp_path / name).read_text()


def test_edit_with_original_file_is_a_file_diff_that_applies(tmp_path):
    result = claude_code_to_result("Edit", EDIT_INPUT, EDIT_RESULT, content="ok", root=ROOT)
    assert isinstance(result.artifact, DiffArtifact)
    payload = result.artifact.payload
    assert payload.granularity == "file" and payload.path == "app.py"
    assert payload.old == ORIGINAL and payload.new == UPDATED
    assert (payload.stats.added, payload.stats.removed) == (2, 1)
    assert result.artifact.title == "app.py +2 -1"
    assert _git_apply_check(tmp_path, payload.unified, ORIGINAL) == UPDATED


@pytest.mark.parametrize("original", [None, "missing"])
def test_edit_without_original_file_uses_the_structured_patch(tmp_path, original):
    record = dict(EDIT_RESULT)
    if original is None:
        record["originalFile"] = None
    else:
        del record["originalFile"]
    result = claude_code_to_result("Edit", EDIT_INPUT, record, root=ROOT)
    payload = result.artifact.payload
    assert payload.granularity == "file" and payload.old is None
    assert payload.hunks[0].old_start == 1 and payload.hunks[0].new_lines == 6
    assert (payload.stats.added, payload.stats.removed) == (2, 1)
    assert _git_apply_check(tmp_path, payload.unified, ORIGINAL) == UPDATED


@pytest.mark.parametrize(
    "patch",
    [
        None,
        [],
        "not a list",
        [{"oldStart": 1, "oldLines": 9, "newStart": 1, "newLines": 5, "lines": [" a"]}],
        [{"oldStart": 1, "oldLines": 2, "newStart": 1, "newLines": 1, "lines": [" a"]}],
        [{"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 2, "lines": [" a"]}],
        [{"oldStart": "1", "oldLines": 1, "newStart": 1, "newLines": 1, "lines": [" a"]}],
        [{"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": ["?a"]}],
        [{"oldStart": True, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": [" a"]}],
    ],
)
def test_edit_without_original_or_sound_patch_is_a_snippet_diff(patch):
    record = {**EDIT_RESULT, "originalFile": None, "structuredPatch": patch}
    result = claude_code_to_result("Edit", EDIT_INPUT, record)
    payload = result.artifact.payload
    assert payload.granularity == "snippet"
    assert payload.hunks[0].old_start is None
    assert payload.hunks[0].lines == [
        "-    print('hi', name)",
        "+    print('hello', name)",
        "+    return name",
    ]


def test_edit_with_only_the_result_strings_is_a_snippet_diff():
    record = {"filePath": "/x/a.py", "oldString": "a", "newString": "b", "unknownExtra": [1]}
    result = claude_code_to_result("Edit", None, record)
    assert result.artifact.payload.granularity == "snippet"
    assert result.artifact.payload.path == "/x/a.py"


def test_edit_whose_strings_do_not_match_the_original_falls_back_to_the_patch():
    # Claude Code normalises curly quotes: the recorded string may not occur verbatim.
    call = {**EDIT_INPUT, "old_string": "    print(‘hi’, name)"}
    result = claude_code_to_result("Edit", call, EDIT_RESULT)
    payload = result.artifact.payload
    assert payload.granularity == "file" and payload.old is None
    assert payload.hunks[0].old_start == 1


def test_replace_all_replays_every_occurrence():
    original = "x = 1\nx = 1\n"
    call = {"file_path": "a.py", "old_string": "x = 1", "new_string": "y = 2", "replace_all": True}
    record = {"filePath": "a.py", "originalFile": original, "replaceAll": True}
    payload = claude_code_to_result("Edit", call, record).artifact.payload
    assert payload.new == "y = 2\ny = 2\n"
    assert payload.stats.removed == 2


def test_multi_edit_replays_edits_in_order():
    call = {
        "file_path": f"{ROOT}/app.py",
        "edits": [
            {"old_string": "hi", "new_string": "hey"},
            {"old_string": "hey", "new_string": "hello", "replace_all": False},
        ],
    }
    record = {"filePath": f"{ROOT}/app.py", "originalFileContents": ORIGINAL, "edits": []}
    payload = claude_code_to_result("MultiEdit", call, record, root=ROOT).artifact.payload
    assert payload.new == ORIGINAL.replace("hi", "hello")
    assert payload.granularity == "file"


def test_write_create_and_update():
    created = claude_code_to_result(
        "Write",
        {"file_path": "/p/new.txt", "content": "a\nb\n"},
        {"type": "create", "filePath": "/p/new.txt", "content": "a\nb\n", "structuredPatch": []},
        root="/p",
    )
    assert created.artifact.payload.operation == "create"
    assert created.artifact.title == "new.txt +2 -0"
    updated = claude_code_to_result(
        "Write",
        {"file_path": "/p/a.txt", "content": "b\n"},
        {"type": "update", "filePath": "/p/a.txt", "content": "b\n", "originalFile": "a\n"},
    )
    assert updated.artifact.payload.operation == "modify"
    assert updated.artifact.payload.old == "a\n"


def test_read_becomes_a_code_artifact():
    record = {
        "type": "text",
        "file": {
            "filePath": f"{ROOT}/app.py",
            "content": "def main():\n    greet('x')",
            "numLines": 2,
            "startLine": 5,
            "totalLines": 6,
        },
    }
    content = "     5→def main():\n     6→    greet('x')"
    result = claude_code_to_result(
        "Read", {"file_path": f"{ROOT}/app.py"}, record, content=content, root=ROOT
    )
    assert isinstance(result.artifact, CodeArtifact)
    assert result.value == content
    payload = result.artifact.payload
    assert (payload.filename, payload.start_line, payload.end_line) == ("app.py", 5, 6)
    assert payload.truncated is True


@pytest.mark.parametrize("is_error", [True, False])
def test_failed_calls_become_error_cards_with_the_tags_stripped(is_error):
    error = claude_code_to_result(
        "Edit",
        EDIT_INPUT,
        "Error: String to replace not found in file.",
        content="<tool_use_error>String to replace not found in file.</tool_use_error>",
        is_error=is_error,
    )
    assert error.is_error and isinstance(error.artifact, ErrorArtifact)
    assert error.artifact.status == "error"
    assert error.value == error.artifact.payload.message == "String to replace not found in file."


def test_other_tools_become_text():
    bash = claude_code_to_result(
        "Bash", {"command": "ls"}, {"stdout": "a\n"}, content=[{"type": "text", "text": "a"}]
    )
    assert bash.value == "a" and isinstance(bash.artifact, TextArtifact)


@pytest.mark.parametrize(
    "record",
    [
        None,
        [],
        "plain",
        42,
        {"filePath": None, "originalFile": None},
        {"filePath": 5, "originalFile": 7, "structuredPatch": {"a": 1}},
        {"filePath": "/a", "originalFile": ["x"], "oldString": None, "newString": 3},
        {"type": "text", "file": None},
        {"type": "text", "file": {"content": 3, "filePath": "/a", "numLines": "2"}},
    ],
)
@pytest.mark.parametrize("name", ["Edit", "MultiEdit", "Write", "Read"])
def test_malformed_records_degrade_to_text(name, record):
    for call in (None, {"file_path": 3, "edits": "x"}, {"unknown": True}):
        result = claude_code_to_result(name, call, record, content={"odd": "content"})
        assert isinstance(result, ToolResult)
        assert isinstance(result.artifact, TextArtifact | DiffArtifact | CodeArtifact)
        assert result.artifact.status == "success"


def test_result_to_claude_code_renders_the_edit_shape():
    result = claude_code_to_result("Edit", EDIT_INPUT, EDIT_RESULT, root=ROOT)
    shape = result_to_claude_code(result)
    assert shape["filePath"] == "app.py"
    assert shape["originalFile"] == ORIGINAL and shape["content"] == UPDATED
    assert shape["structuredPatch"][0]["lines"] == EDIT_RESULT["structuredPatch"][0]["lines"]
    back = claude_code_to_result("Write", {"file_path": "app.py"}, shape)
    assert back.artifact.payload.hunks == result.artifact.payload.hunks
    assert result_to_claude_code(ToolResult(value="x")) is None


def _line(record):
    return json.dumps(record)


def test_transcript_pairs_tool_use_and_result_by_id():
    lines = [
        _line({"type": "summary", "summary": "s"}),
        _line(
            {
                "type": "assistant",
                "message": {
                    "role": "assistant",
                    "content": [
                        {"type": "text", "text": "Editing."},
                        {"type": "tool_use", "id": "toolu_A", "name": "Edit", "input": EDIT_INPUT},
                        {
                            "type": "tool_use",
                            "id": "toolu_B",
                            "name": "Bash",
                            "input": {"command": "ls"},
                        },
                    ],
                },
            }
        ),
        "not json at all",
        _line(
            {
                "type": "user",
                "message": {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": "toolu_B", "content": "a.py"}
                    ],
                },
                "toolUseResult": {"stdout": "a.py", "stderr": ""},
            }
        ),
        _line(
            {
                "type": "user",
                "message": {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "toolu_A",
                            "content": [{"type": "text", "text": "The file has been updated."}],
                            "is_error": False,
                        }
                    ],
                },
                "toolUseResult": EDIT_RESULT,
            }
        ),
        _line(
            {
                "type": "user",
                "message": {
                    "content": [
                        {"type": "tool_result", "tool_use_id": "toolu_Z", "content": "orphan"}
                    ]
                },
            }
        ),
        _line({"type": "user", "message": {"content": "just text"}}),
        _line({"type": "assistant", "message": None}),
        _line([1, 2]),
    ]
    events = transcript_events("\n".join(lines), root=ROOT)
    assert [(e.id, e.name) for e in events] == [
        ("toolu_B", "Bash"),
        ("toolu_A", "Edit"),
        ("toolu_Z", "unknown"),
    ]
    assert events[1].value == "The file has been updated."
    assert events[1].artifact.kind == "diff"
    assert events[1].artifact.payload.new == UPDATED
    assert events[0].artifact.kind == "text" and events[0].value == "a.py"


def test_transcript_never_raises_on_junk():
    assert transcript_events("") == []
    assert transcript_events(None) == []
    assert (
        transcript_events('{"message": {"content": [{"type": "tool_result"}]}}')[0].name
        == "unknown"
    )


WRITE_INPUT = {"file_path": "/proj/new.py", "content": "print(1)\n"}


def _record(kind: str, blocks: list[dict[str, object]], **extra: object) -> dict[str, object]:
    return {"type": kind, "cwd": "/proj", "message": {"role": kind, "content": blocks}, **extra}


def _write_lines(call_id: str, text: str) -> list[dict[str, object]]:
    use = {"type": "tool_use", "id": call_id, "name": "Write", "input": WRITE_INPUT}
    result = {"type": "tool_result", "tool_use_id": call_id, "content": text}
    return [_record("assistant", [use]), _record("user", [result])]


def test_write_without_its_result_is_a_create_then_a_snippet_once_the_file_exists():
    lines = _write_lines("w1", "File created successfully at: /proj/new.py")
    lines += _write_lines("w2", "The file /proj/new.py has been written.")
    first, second = transcript_events("\n".join(json.dumps(x) for x in lines), root="/proj")
    assert isinstance(first.artifact, DiffArtifact) and isinstance(second.artifact, DiffArtifact)
    assert (first.artifact.payload.operation, first.artifact.payload.granularity) == (
        "create",
        "file",
    )
    assert first.artifact.payload.new == "print(1)\n"
    assert first.artifact.payload.path == "new.py"
    assert second.artifact.payload.granularity == "snippet"
    assert second.artifact.payload.stats.added == 1


def test_session_export_loglines_and_jsonl_give_the_same_events():
    lines = _write_lines("w1", "File created successfully at: /proj/new.py")
    jsonl = transcript_events("\n".join(json.dumps(x) for x in lines), root="/proj")
    export = transcript_events(json.dumps({"loglines": lines}), root="/proj")
    assert [e.model_dump() for e in export] == [e.model_dump() for e in jsonl]
    assert len(export) == 1


def test_what_a_transcript_holds_that_is_not_understood_is_reported():
    lines = [json.dumps(x) for x in _write_lines("w1", "ok")] + ["{broken", "[1, 2]"]
    not_understood: list[str] = []
    events = transcript_events("\n".join(lines), root="/proj", not_understood=not_understood)
    assert len(events) == 1
    assert len(not_understood) == 2
    assert "not JSON" in not_understood[0] and "not a JSON object" in not_understood[1]
