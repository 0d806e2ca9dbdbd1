"""MCP CallToolResult <-> ToolResult, and the filesystem server's edit_file diff."""

import subprocess

import mcp.types
import pytest

from edittools.artifacts import (
    ChangesetArtifact,
    CodePayload,
    DiffArtifact,
    FutureArtifact,
    TextArtifact,
    ToolResult,
)
from edittools.artifacts.builders import code_result, diff_result, error_result
from edittools.dialects import (
    edit_file_to_result,
    mcp_to_result,
    result_to_call_tool_result,
    result_to_mcp,
)
from edittools.diff import diff_texts

OLD = "one\ntwo\nthree\nfour"
NEW = "one\nTWO\nthree\nfour!"
EDIT_FILE_OUTPUT = (
    "```diff\n"
    "Index: /home/user/proj/notes.txt\n"
    "===================================================================\n"
    "--- /home/user/proj/notes.txt\toriginal\n"
    "+++ /home/user/proj/notes.txt\tmodified\n"
    "@@ -1,4 +1,4 @@\n"
    " one\n"
    "-two\n"
    "+TWO\n"
    " three\n"
    "-four\n"
    "\\ No newline at end of file\n"
    "+four!\n"
    "\\ No newline at end of file\n"
    "```\n\n"
)


def test_result_to_mcp_and_back():
    result = diff_result("Edited a.py.", diff_texts("a\n", "b\n", path="a.py"))
    wire = result_to_mcp(result)
    assert wire["content"] == [{"type": "text", "text": "Edited a.py."}]
    assert wire["isError"] is False
    assert "structuredContent" not in wire  # the text goes once: some clients show it the model
    rest = wire["_meta"]["edittools/result"]
    assert rest["artifact"]["kind"] == "diff" and "value" not in rest
    assert mcp_to_result(wire) == result
    sdk = result_to_call_tool_result(result)
    assert isinstance(sdk, mcp.types.CallToolResult)
    assert sdk.structured_content is None and sdk.meta == wire["_meta"]
    assert mcp_to_result(sdk) == result


def test_answers_of_the_earlier_shape_still_adapt():
    result = diff_result("Edited a.py.", diff_texts("a\n", "b\n", path="a.py"))
    earlier = {
        "content": [{"type": "text", "text": "Edited a.py."}],
        "structuredContent": result.model_dump(mode="json"),
        "isError": False,
    }
    assert mcp_to_result(earlier) == result


def test_a_read_window_travels_in_the_text_block_alone():
    payload = CodePayload(text="x = 1\n", filename="a.py", start_line=1, end_line=1, text_ref="ab")
    result = code_result("     1\tx = 1", payload)
    wire = result_to_mcp(result)
    assert wire["_meta"]["edittools/result"]["artifact"]["payload"]["text"] == ""
    assert wire["content"][0]["text"] == "     1\tx = 1"
    # Without a ref to the content, the artifact keeps its text.
    kept = result_to_mcp(
        code_result("     1\tx = 1", payload.model_copy(update={"text_ref": None}))
    )
    assert kept["_meta"]["edittools/result"]["artifact"]["payload"]["text"] == "x = 1\n"


def test_error_results_keep_is_error():
    result = error_result("not_found", "Check the path.")
    wire = result_to_mcp(result)
    assert wire["isError"] is True
    back = mcp_to_result(wire)
    assert back.is_error and back.artifact.payload.code == "not_found"


def test_future_artifacts_cross_unchanged():
    future = {
        "schema": "edittools.tool-artifact",
        "version": 2,
        "kind": "x",
        "status": "success",
        "payload": {},
    }
    wire = result_to_mcp(ToolResult(value="v", artifact=future))
    back = mcp_to_result(wire)
    assert isinstance(back.artifact, FutureArtifact) and back.artifact.root == future


@pytest.mark.parametrize(
    "wire",
    [
        {"content": [{"type": "text", "text": "plain"}]},
        {"content": [{"type": "text", "text": "plain"}], "structuredContent": None},
        {
            "content": [
                {"type": "image", "data": "AA==", "mimeType": "image/png"},
                {"type": "text", "text": "plain"},
            ]
        },
        {"content": "plain", "structuredContent": {"value": "plain", "artifact": {"version": "x"}}},
        {
            "content": [{"type": "text", "text": "plain"}],
            "structuredContent": {"weather": "sunny"},
            "isError": "no",
        },
    ],
)
def test_foreign_or_malformed_mcp_results_degrade(wire):
    result = mcp_to_result(wire)
    assert isinstance(result, ToolResult)
    assert result.value == "plain"
    assert result.artifact is not None and result.is_error is False


def test_edit_file_diff_becomes_a_diff_artifact_that_applies(tmp_path):
    result = edit_file_to_result(EDIT_FILE_OUTPUT, root="/home/user/proj")
    assert isinstance(result.artifact, DiffArtifact)
    payload = result.artifact.payload
    assert payload.path == "notes.txt" and payload.granularity == "file"
    assert (payload.stats.added, payload.stats.removed) == (2, 2)
    assert result.artifact.title == "notes.txt +2 -2"
    assert result.value == EDIT_FILE_OUTPUT
    (tmp_path / "notes.txt").write_text(OLD)
    (tmp_path / "p.diff").write_text(payload.unified)
    subprocess.run(["patch", "-s", "-p1", "-i", "p.diff"], cwd=tmp_path, check=True)
    assert (tmp_path / "notes.txt").read_text() == NEW


def test_edit_file_unfenced_and_several_files():
    two = (
        "--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-a\n+b\n"
        "--- a/y.txt\n+++ b/y.txt\n@@ -1 +1,2 @@\n c\n+d\n"
    )
    result = edit_file_to_result(two)
    assert isinstance(result.artifact, ChangesetArtifact)
    assert [f.path for f in result.artifact.payload.files] == ["x.txt", "y.txt"]
    assert result.artifact.payload.stats.added == 2


@pytest.mark.parametrize(
    "output",
    [
        "Error: Could not find exact match for edit:\nfoo",
        "```diff\n--- a\n+++ b\n@@ -1,5 +1,1 @@\n-a\n```",
        "```diff\n```",
        "",
        None,
        {"content": 3},
        12,
    ],
)
def test_edit_file_output_without_a_sound_diff_is_text(output):
    result = edit_file_to_result(output)
    assert isinstance(result.artifact, TextArtifact)
