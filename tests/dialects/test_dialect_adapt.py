"""adapt: legacy upgrade, text fallback, future versions kept, unrelated fields kept."""

import json

import mcp.types as mcp_types
import pytest

from edittools import adapt
from edittools.artifacts import (
    DiffArtifact,
    ErrorArtifact,
    FutureArtifact,
    JsonArtifact,
    StreamEvent,
    TextArtifact,
    ToolResult,
)

V1 = {
    "schema": "edittools.tool-artifact",
    "version": 1,
    "kind": "diff",
    "status": "success",
    "title": "a.py +1 -0",
    "payload": {"path": "a.py", "stats": {"added": 1, "removed": 0}},
}
FUTURE = {
    "schema": "edittools.tool-artifact",
    "version": 2,
    "kind": "diff",
    "status": "success",
    "payload": {"files": "a new shape"},
    "lineage": ["x"],
}


def test_plain_text_becomes_a_text_artifact():
    result = adapt("file written")
    assert result.value == "file written"
    assert isinstance(result.artifact, TextArtifact)
    assert result.artifact.payload.text == "file written"
    assert result.artifact.status == "success"


def test_json_text_of_a_result_is_read_as_the_result():
    result = adapt(json.dumps({"value": "v", "artifact": V1}))
    assert isinstance(result.artifact, DiffArtifact)


def test_unversioned_legacy_artifact_is_upgraded_to_v1():
    legacy = {"kind": "diff", "title": "a.py", "payload": {"path": "a.py"}, "origin": "old"}
    result = adapt({"value": "edited", "artifact": legacy})
    assert isinstance(result.artifact, DiffArtifact)
    dumped = result.artifact.model_dump()
    assert dumped["version"] == 1 and dumped["schema"] == "edittools.tool-artifact"
    assert dumped["status"] == "success"
    assert dumped["origin"] == "old"


def test_legacy_error_artifact_gets_error_status():
    legacy = {"kind": "error", "status": "success", "payload": {"code": "c", "message": "m"}}
    result = adapt({"value": "failed", "artifact": legacy})
    assert isinstance(result.artifact, ErrorArtifact)
    assert result.artifact.status == "error"


def test_bare_legacy_artifact_gets_its_value_from_the_payload():
    result = adapt({"kind": "text", "payload": {"text": "hi"}})
    assert result.value == "hi"
    assert isinstance(result.artifact, TextArtifact)


def test_malformed_metadata_is_dropped_and_a_v1_artifact_synthesised():
    for bad in (
        {**FUTURE, "version": True},
        {**FUTURE, "version": "2"},
        {**FUTURE, "payload": ["x"]},
        {**FUTURE, "kind": ""},
        {**V1, "payload": {"no_path": 1}},
        {**FUTURE, "schema": None},
        # A sound v1 text artifact but for its version: it must not be smuggled through.
        {**V1, "kind": "text", "version": "1", "payload": {"text": "smuggled"}},
        {**V1, "kind": "text", "version": True, "payload": {"text": "smuggled"}},
        {**V1, "kind": "text", "version": 0, "payload": {"text": "smuggled"}},
        "a string",
    ):
        result = adapt({"value": "the text", "artifact": bad, "is_error": False})
        assert isinstance(result.artifact, TextArtifact), bad
        assert result.artifact.payload.text == "the text"
        assert result.artifact.version == 1


def test_valid_future_artifact_is_kept_unchanged():
    result = adapt({"value": "v", "artifact": FUTURE})
    assert isinstance(result.artifact, FutureArtifact)
    assert result.model_dump()["artifact"] == FUTURE
    again = adapt(json.loads(result.model_dump_json()))
    assert again.model_dump()["artifact"] == FUTURE


def test_unrelated_fields_survive():
    record = {
        "value": "v",
        "artifact": V1,
        "request": {"tool": "edit", "path": "a.py"},
        "provenance": {"host": "h"},
        "provider_metadata": {"latency_ms": 3},
    }
    dumped = adapt(record).model_dump()
    for key in ("request", "provenance", "provider_metadata"):
        assert dumped[key] == record[key]
    event = adapt({"id": "call_1", "name": "edit", "display": {"x": 1}, **record})
    assert event.model_dump()["id"] == "call_1"
    assert event.display == {"x": 1}


def test_is_error_forces_error_status_on_kept_and_synthesised_artifacts():
    kept = adapt({"value": "refused", "artifact": V1, "is_error": True})
    assert isinstance(kept.artifact, DiffArtifact)
    assert kept.artifact.status == "error" and kept.is_error
    future = adapt({"value": "refused", "artifact": FUTURE, "is_error": True})
    assert future.artifact.status == "error"
    made = adapt({"value": "refused", "is_error": True})
    assert made.artifact.status == "error"


def test_non_bool_is_error_is_not_an_error():
    assert adapt({"value": "v", "is_error": "true"}).is_error is False


def test_mcp_results_are_adapted_with_their_error_flag():
    wire = {
        "content": [{"type": "text", "text": "refused"}],
        "structuredContent": {"value": "inner", "artifact": V1},
        "isError": True,
    }
    result = adapt(wire)
    assert result.value == "refused"
    assert result.is_error and result.artifact.status == "error"
    assert isinstance(result.artifact, DiffArtifact)
    sdk = mcp_types.CallToolResult(content=[mcp_types.TextContent(type="text", text="plain")])
    assert adapt(sdk).artifact.payload.text == "plain"


def test_results_and_events_pass_through():
    result = ToolResult(value="v", artifact=V1)
    assert adapt(result) is result
    event = StreamEvent(id="1", name="n", value="v", artifact=V1)
    assert adapt(event).artifact == event.artifact
    bare = adapt(ToolResult(value="no artifact", provenance="p"))
    assert bare.artifact.payload.text == "no artifact"
    assert bare.model_dump()["provenance"] == "p"


def test_other_json_objects_become_json_artifacts():
    result = adapt({"rows": 3})
    assert isinstance(result.artifact, JsonArtifact)
    assert result.value == '{"rows": 3}'


def test_anything_else_becomes_a_text_artifact_of_its_description():
    assert adapt(None).artifact.payload.text == "(no result)"
    assert adapt(object()).value.startswith("(no text")


@pytest.mark.parametrize(
    "payload",
    [
        {"code": "no_match", "message": "Not found."},
        {"code": "no_match"},  # not a sound v1 error payload: still an error
        {"message": 3},
    ],
)
def test_error_kind_forces_error_status_and_is_error_keeping_the_payload(payload):
    artifact = {
        "schema": "edittools.tool-artifact",
        "version": 1,
        "kind": "error",
        "status": "success",
        "payload": payload,
    }
    for given in ({"value": "failed", "artifact": artifact}, artifact, {"artifact": artifact}):
        result = adapt(given)
        assert result.is_error is True
        assert result.artifact.kind == "error" and result.artifact.status == "error"
        if "code" in payload:
            assert result.artifact.payload.code == payload["code"]
        if isinstance(payload.get("message"), str):
            assert result.artifact.payload.message == payload["message"]
