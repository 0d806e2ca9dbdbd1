"""Zeus ToolResults in and out."""

import base64

import pytest

from edittools import adapt
from edittools.artifacts import (
    CodeArtifact,
    DiffArtifact,
    ErrorArtifact,
    HtmlArtifact,
    ImageArtifact,
    JsonArtifact,
    MarkdownArtifact,
    TextArtifact,
    ToolResult,
)
from edittools.artifacts.builders import error_result
from edittools.dialects import result_to_zeus, zeus_to_result
from edittools.diff import diff_texts

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 16).decode()
EDIT = {
    "success": True,
    "message": "Edited src/app.py",
    "content": {
        "type": "edit",
        "data": "a = 1\nb = 3\n",
        "language": "python",
        "title": "src/app.py",
        "meta": {"old_content": "a = 1\nb = 2\n", "replacements": 1},
    },
    "file_path": "/sandbox/src/app.py",
    "files": [],
}


def test_edit_with_old_content_is_a_file_diff():
    result = zeus_to_result(EDIT, root="/sandbox")
    assert isinstance(result.artifact, DiffArtifact)
    payload = result.artifact.payload
    assert payload.granularity == "file" and payload.path == "src/app.py"
    assert payload.old == "a = 1\nb = 2\n" and payload.new == "a = 1\nb = 3\n"
    assert result.value == "Edited src/app.py"
    assert result.artifact.title == "src/app.py +1 -1"


def test_edit_without_old_content_is_a_snippet_diff_from_the_call():
    record = {**EDIT, "content": {**EDIT["content"], "meta": {"replacements": 1}}}
    call = {"file_path": "src/app.py", "old_string": "b = 2", "new_string": "b = 3"}
    result = zeus_to_result(record, call=call, root="/sandbox")
    payload = result.artifact.payload
    assert payload.granularity == "snippet"
    assert payload.hunks[0].lines == ["-b = 2", "+b = 3"]


def test_write_with_null_old_content_creates():
    record = {
        "success": True,
        "message": "Wrote new.md",
        "content": {"type": "write", "data": "# hi\n", "meta": {"old_content": None}},
        "file_path": "new.md",
    }
    assert zeus_to_result(record).artifact.payload.operation == "create"


@pytest.mark.parametrize(
    ("content", "kind"),
    [
        ({"type": "text", "data": "plain"}, TextArtifact),
        ({"type": "markdown", "data": "# T", "title": "Doc"}, MarkdownArtifact),
        ({"type": "html", "data": "<b>x</b>"}, HtmlArtifact),
        ({"type": "json", "data": {"rows": [1, 2]}}, JsonArtifact),
        ({"type": "code", "data": "x = 1", "language": "python"}, CodeArtifact),
        ({"type": "image", "data": PNG, "meta": {"mime": "image/png"}}, ImageArtifact),
        ({"type": "error", "data": "Not found.", "meta": {"code": "not_found"}}, ErrorArtifact),
        ({"type": "sparkline", "data": [1, 2]}, TextArtifact),
    ],
)
def test_content_types_map_to_matching_kinds(content, kind):
    result = zeus_to_result({"success": True, "message": "done", "content": content})
    assert isinstance(result.artifact, kind)


def test_code_keeps_language_and_file():
    record = {
        "success": True,
        "message": "read",
        "content": {
            "type": "code",
            "data": "x = 1",
            "language": "python",
            "meta": {"start_line": 3},
        },
        "file_path": "/s/a.py",
    }
    payload = zeus_to_result(record, root="/s").artifact.payload
    assert (payload.lang, payload.filename, payload.start_line) == ("python", "a.py", 3)


def test_image_from_files():
    record = {
        "success": True,
        "message": "Read image",
        "content": {"type": "image", "data": None},
        "file_path": "/s/logo.png",
        "files": [
            {
                "name": "logo.png",
                "type": "image/png",
                "sandbox_path": "/s/logo.png",
                "url": None,
                "content": PNG,
                "size": 24,
            }
        ],
    }
    payload = zeus_to_result(record, root="/s").artifact.payload
    assert payload.images[0].b64 == PNG and payload.path == "logo.png"


def test_failure_is_an_error_even_with_a_rich_kind():
    failed = zeus_to_result({"success": False, "message": "Permission denied."})
    assert failed.is_error and isinstance(failed.artifact, ErrorArtifact)
    assert failed.artifact.payload.message == "Permission denied."
    rich = zeus_to_result({**EDIT, "success": False})
    assert rich.is_error and rich.artifact.kind == "diff" and rich.artifact.status == "error"


@pytest.mark.parametrize(
    "record",
    [
        {"success": True},
        {"success": True, "message": None, "content": None},
        {"success": True, "message": 5, "content": "text"},
        {"success": True, "message": "m", "content": {"type": 3, "data": {"x": object()}}},
        {"success": True, "message": "m", "content": {"type": "edit", "data": None, "meta": None}},
        {
            "success": True,
            "message": "m",
            "content": {"type": "edit", "meta": {"old_content": 5}},
            "file_path": 9,
        },
        {"success": True, "message": "m", "content": {"type": "image", "data": "%%%not base64"}},
        {"success": True, "message": "m", "content": {"type": "code", "data": 42}},
        {"success": True, "message": "m", "content": {"type": "html"}, "files": "x", "extra": [1]},
        {"success": "yes", "message": "m"},
        None,
        ["list"],
    ],
)
def test_malformed_records_degrade_to_text(record):
    result = zeus_to_result(record, call={"old_string": 1}, tool_name="edit")
    assert isinstance(result, ToolResult)
    assert isinstance(result.artifact, TextArtifact)


def test_adapt_upgrades_zeus_results():
    result = adapt(EDIT)
    assert isinstance(result.artifact, DiffArtifact)
    assert adapt({"success": True, "message": "hello"}).artifact.payload.text == "hello"


def test_out_renders_diff_with_old_content_and_round_trips():
    original = zeus_to_result(EDIT, root="/sandbox")
    shape = result_to_zeus(original)
    assert shape["success"] is True and shape["message"] == "Edited src/app.py"
    assert shape["content"]["type"] == "edit"
    assert shape["content"]["meta"]["old_content"] == "a = 1\nb = 2\n"
    assert shape["content"]["data"] == "a = 1\nb = 3\n"
    assert shape["file_path"] == "src/app.py"
    back = zeus_to_result(shape)
    assert back.artifact.payload.hunks == original.artifact.payload.hunks
    assert back.artifact.payload.old == original.artifact.payload.old


def test_out_renders_snippet_diffs_and_other_kinds():
    from edittools.diff import snippet_diff

    snippet = ToolResult(
        value="ok",
        artifact={"kind": "diff", "payload": snippet_diff("a", "b", path="x").model_dump()},
    )
    shape = result_to_zeus(snippet)
    assert "old_content" not in shape["content"]["meta"]
    assert shape["content"]["meta"]["old_string"] == "a"
    assert zeus_to_result(shape).artifact.payload.hunks == snippet.artifact.payload.hunks
    error = result_to_zeus(error_result("not_found", "Check the path."))
    assert error["success"] is False and error["content"]["type"] == "error"
    assert error["content"]["meta"]["code"] == "not_found"
    created = ToolResult(
        value="w",
        artifact={"kind": "diff", "payload": diff_texts(None, "x\n", path="n").model_dump()},
    )
    assert result_to_zeus(created)["content"]["type"] == "write"
    assert result_to_zeus(ToolResult(value="plain"))["content"] == {"type": "text", "data": "plain"}


@pytest.mark.parametrize("content_type", ["code", "text", "markdown", "json"])
@pytest.mark.parametrize("tool_name", ["edit", "write", None])
def test_change_with_old_content_is_a_file_diff_whatever_its_content_type(content_type, tool_name):
    record = {**EDIT, "content": {**EDIT["content"], "type": content_type}}
    result = zeus_to_result(record, tool_name=tool_name, root="/sandbox")
    assert isinstance(result.artifact, DiffArtifact)
    assert result.artifact.payload.granularity == "file"
    assert result.artifact.payload.stats.added == 1
    if tool_name is None:
        assert adapt(record).artifact.kind == "diff"


@pytest.mark.parametrize("content_type", ["code", "text"])
def test_edit_tool_without_old_content_is_a_snippet_diff_whatever_its_content_type(content_type):
    record = {**EDIT, "content": {**EDIT["content"], "type": content_type, "meta": {}}}
    call = {"file_path": "src/app.py", "old_string": "b = 2", "new_string": "b = 3"}
    result = zeus_to_result(record, call=call, tool_name="edit", root="/sandbox")
    assert isinstance(result.artifact, DiffArtifact)
    assert result.artifact.payload.granularity == "snippet"


def test_other_named_tool_with_old_content_keeps_its_content_type():
    record = {**EDIT, "content": {**EDIT["content"], "type": "code"}}
    result = zeus_to_result(record, tool_name="read", root="/sandbox")
    assert isinstance(result.artifact, CodeArtifact)
