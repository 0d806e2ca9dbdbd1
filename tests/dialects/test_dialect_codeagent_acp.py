"""codeagent schema projection and Agent Client Protocol diff content."""

from hypothesis import given, settings
from hypothesis import strategies as st

from edittools.artifacts import FutureArtifact, ToolResult
from edittools.artifacts.builders import changeset_result, diff_result, error_result, text_result
from edittools.dialects import (
    CODEAGENT_SCHEMA_ID,
    codeagent_to_result,
    diff_to_acp,
    from_codeagent,
    result_to_acp,
    result_to_codeagent,
    to_codeagent,
)
from edittools.diff import diff_texts, snippet_diff

lines = st.lists(st.sampled_from(["a", "b", "c", ""]), max_size=6).map(
    lambda ls: "".join(x + "\n" for x in ls)
)


@settings(max_examples=100, deadline=None)
@given(lines, lines)
def test_codeagent_projection_round_trips(old, new):
    result = diff_result("ok", diff_texts(old, new, path="f.txt"))
    projected = to_codeagent(result.artifact)
    assert projected["schema"] == CODEAGENT_SCHEMA_ID
    assert list(projected) == ["schema", "version", "kind", "status", "icon", "title", "payload"]
    assert from_codeagent(projected) == result.artifact
    assert codeagent_to_result(result_to_codeagent(result)) == result


def test_codeagent_future_versions_and_unsound_input():
    future = {
        "schema": CODEAGENT_SCHEMA_ID,
        "version": 4,
        "kind": "k",
        "status": "s",
        "payload": {"p": 1},
    }
    back = from_codeagent(future)
    assert isinstance(back, FutureArtifact) and back.payload == {"p": 1}
    assert to_codeagent(back) == future
    for bad in (
        None,
        {},
        {**future, "version": True},
        {**future, "schema": "edittools.tool-artifact"},
        [future],
    ):
        assert from_codeagent(bad) is None
    degraded = codeagent_to_result({"value": "v", "artifact": {**future, "payload": 3}})
    assert degraded.artifact.kind == "text" and degraded.value == "v"


def test_acp_diff_content_for_file_diffs():
    result = diff_result("ok", diff_texts("a\n", "b\n", path="src/a.py"))
    assert result_to_acp(result, root="/srv/repo") == [
        {"type": "diff", "path": "/srv/repo/src/a.py", "oldText": "a\n", "newText": "b\n"}
    ]
    created = diff_to_acp(diff_texts(None, "x\n", path="n.txt"))
    assert created["oldText"] is None and created["newText"] == "x\n"
    deleted = diff_to_acp(diff_texts("x\n", None, path="n.txt"))
    assert deleted["newText"] == ""


def test_acp_snippet_diffs_use_the_hunk_sides():
    item = diff_to_acp(snippet_diff("x = 1\n", "x = 2\n", path="a.py"))
    assert (item["oldText"], item["newText"]) == ("x = 1\n", "x = 2\n")


def test_acp_changesets_and_other_kinds():
    files = [diff_texts("a\n", "b\n", path="a"), diff_texts(None, "c\n", path="c")]
    items = result_to_acp(changeset_result("ok", files))
    assert [i["path"] for i in items] == ["a", "c"]
    assert result_to_acp(text_result("hi")) == [
        {"type": "content", "content": {"type": "text", "text": "hi"}}
    ]
    assert result_to_acp(error_result("c", "m"))[0]["content"]["text"] == "Error (c): m"
    assert result_to_acp(ToolResult(value="v"))[0]["type"] == "content"
