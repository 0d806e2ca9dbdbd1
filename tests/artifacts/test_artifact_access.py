"""artifact_of and value_of over every input form, sound and unsound."""

import json

import mcp.types as mcp_types
import pytest

from edittools.artifacts import (
    DiffArtifact,
    FutureArtifact,
    StreamEvent,
    TextArtifact,
    ToolResult,
    artifact_of,
    value_of,
)

TEXT_ARTIFACT = {
    "schema": "edittools.tool-artifact",
    "version": 1,
    "kind": "text",
    "status": "success",
    "payload": {"text": "hello"},
}
FUTURE = {**TEXT_ARTIFACT, "version": 2, "kind": "chart", "payload": {"points": []}}
RESULT = {"value": "hello", "artifact": TEXT_ARTIFACT, "display": None, "is_error": False}


def test_artifact_of_reads_every_input_form():
    forms = [
        ToolResult.model_validate(RESULT),
        StreamEvent.model_validate({"id": "1", "name": "read", **RESULT}),
        RESULT,
        {"id": "1", "name": "read", **RESULT},
        TEXT_ARTIFACT,
        json.dumps(RESULT),
        json.dumps(RESULT).encode(),
        {"content": [{"type": "text", "text": "hello"}], "structuredContent": RESULT},
        {"content": [{"type": "text", "text": json.dumps(RESULT)}]},
        mcp_types.CallToolResult(
            content=[mcp_types.TextContent(type="text", text="hello")], structured_content=RESULT
        ),
    ]
    for form in forms:
        artifact = artifact_of(form)
        assert isinstance(artifact, TextArtifact), form
        assert artifact.payload.text == "hello"


@pytest.mark.parametrize(
    "change",
    [
        {"version": True},
        {"version": 0},
        {"version": -1},
        {"version": "1"},
        {"version": 1.0},
        {"version": None},
        {"kind": ""},
        {"kind": 3},
        {"status": ""},
        {"status": None},
        {"payload": "hello"},
        {"payload": None},
        {"icon": 1},
        {"title": ["t"]},
        {"schema": "codeagent.tool-artifact"},
        {"kind": "chart"},
        {"payload": {"txt": "hello"}},
    ],
)
def test_artifact_of_refuses_unsound_artifacts(change):
    bad = {**TEXT_ARTIFACT, **change}
    assert artifact_of({"value": "v", "artifact": bad}) is None
    assert artifact_of(bad, versions=None) is None


@pytest.mark.parametrize("missing", ["schema", "version", "kind", "status", "payload"])
def test_artifact_of_refuses_artifacts_missing_a_field(missing):
    bad = {k: v for k, v in TEXT_ARTIFACT.items() if k != missing}
    assert artifact_of(bad) is None
    assert artifact_of(bad, versions=None) is None


def test_null_icon_and_title_count_as_absent():
    artifact = artifact_of({**TEXT_ARTIFACT, "icon": None, "title": None})
    assert isinstance(artifact, TextArtifact)


def test_version_filter_and_forwarding():
    result = {"value": "v", "artifact": FUTURE}
    assert artifact_of(result) is None
    forwarded = artifact_of(result, versions=None)
    assert isinstance(forwarded, FutureArtifact)
    assert forwarded.root == FUTURE
    assert isinstance(artifact_of(result, versions={1, 2}), FutureArtifact)
    assert artifact_of(RESULT, versions={2}) is None
    assert artifact_of(RESULT, versions=None) is not None


def test_artifact_of_filters_a_future_artifact_held_by_a_model():
    result = ToolResult(value="v", artifact=FUTURE)
    assert artifact_of(result) is None
    assert artifact_of(result, versions=[2]) is result.artifact


def test_artifact_of_never_raises_on_odd_inputs():
    class Exploding:
        def __getattr__(self, name):
            raise RuntimeError(name)

    nested: list = []
    for _ in range(100_000):
        nested = [nested]
    odd = [
        None,
        42,
        "not json",
        "[" * 100_000,
        b"\xff\xfe",
        Exploding(),
        nested,
        {"artifact": {**TEXT_ARTIFACT, "payload": {"text": "x", "n": nested}}},
        {"artifact": {**TEXT_ARTIFACT, "payload": {"text": float("nan")}}},
        {"artifact": {**TEXT_ARTIFACT, "payload": {"text": "x", 1: "int key"}}},
        {"artifact": {**TEXT_ARTIFACT, "kind": "json", "payload": {"data": float("inf")}}},
        {"artifact": {**TEXT_ARTIFACT, "kind": "json", "payload": {"data": {1: 2}}}},
        {"artifact": {**TEXT_ARTIFACT, "kind": "json", "payload": {"data": {"a", "b"}}}},
        {"artifact": {**TEXT_ARTIFACT, "kind": "json", "payload": {"data": object()}}},
        {"structuredContent": {"structuredContent": {"structuredContent": RESULT}}},
    ]
    for item in odd:
        assert artifact_of(item) is None
        assert isinstance(value_of(item), str)
    assert artifact_of(RESULT, versions=7) is None  # a malformed filter is no reason to raise


def test_value_of_reads_every_input_form():
    assert value_of(ToolResult.model_validate(RESULT)) == "hello"
    assert value_of({"id": "1", "name": "n", **RESULT}) == "hello"
    assert value_of(json.dumps(RESULT)) == "hello"
    assert value_of("plain words") == "plain words"
    assert value_of("[1, 2]") == "[1, 2]"
    assert value_of(
        {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}
    ) == ("a\nb")
    assert value_of({"content": [], "structuredContent": RESULT}) == "hello"
    sdk = mcp_types.CallToolResult(content=[mcp_types.TextContent(type="text", text="t")])
    assert value_of(sdk) == "t"


def test_value_of_falls_back_to_the_artifact_text():
    diff = DiffArtifact.model_validate(
        {"payload": {"path": "a", "unified": "--- a/a\n+++ b/a\n"}, "title": "a +0 -0"}
    )
    assert value_of({"artifact": diff.model_dump()}) == "--- a/a\n+++ b/a\n"
    error = {**TEXT_ARTIFACT, "kind": "error", "payload": {"code": "c", "message": "Do X."}}
    assert value_of(error) == "Do X."


def test_value_of_describes_what_has_no_text():
    assert value_of(None) == "(no result)"
    assert value_of({"a": 1, "b": 2}) == "(no text: an object with keys a, b)"
    assert value_of(3.5) == "(no text: a value of type float)"
    assert len(value_of({str(i) * 50: i for i in range(100)})) <= 200


def test_outer_structure_check_refuses_bool_versions_itself():
    from edittools.artifacts._shape import outer_problem

    assert outer_problem(TEXT_ARTIFACT, schema_id="edittools.tool-artifact") is None
    for version in (True, False, 0, 1.0, "1", None):
        bad = {**TEXT_ARTIFACT, "version": version}
        assert outer_problem(bad, schema_id="edittools.tool-artifact") is not None
