"""The v1 models: wire order, error rules, extras and future-version artifacts."""

import json

import pytest
from pydantic import ValidationError

from edittools.artifacts import (
    DiffArtifact,
    DiffPayload,
    ErrorArtifact,
    ErrorPayload,
    FutureArtifact,
    ImageArtifact,
    ImagePayload,
    StreamEvent,
    TextArtifact,
    TextPayload,
    ToolResult,
)

FUTURE = {
    "schema": "edittools.tool-artifact",
    "version": 3,
    "kind": "chart",
    "status": "success",
    "payload": {"series": [1, 2]},
    "provenance": {"model": "x"},
}


def test_artifact_fields_serialise_in_protocol_order():
    artifact = TextArtifact(icon="i", title="t", payload=TextPayload(text="a"))
    assert list(json.loads(artifact.model_dump_json())) == [
        "schema",
        "version",
        "kind",
        "status",
        "icon",
        "title",
        "payload",
    ]


def test_unset_icon_and_title_are_left_out_of_the_wire_form():
    dumped = TextArtifact(payload=TextPayload(text="a")).model_dump()
    assert "icon" not in dumped and "title" not in dumped
    assert dumped["schema"] == "edittools.tool-artifact"


def test_stream_event_fields_serialise_in_protocol_order():
    event = StreamEvent(id="1", name="edit", value="ok")
    assert list(json.loads(event.model_dump_json())) == [
        "id",
        "name",
        "display",
        "value",
        "is_error",
        "artifact",
    ]


def test_error_kind_always_has_error_status():
    artifact = ErrorArtifact.model_validate(
        {"status": "success", "payload": {"code": "c", "message": "m"}}
    )
    assert artifact.status == "error"


def test_is_error_forces_error_status_on_a_kept_rich_kind():
    diff = DiffArtifact(payload=DiffPayload(path="a.py"))
    result = ToolResult(value="refused", artifact=diff, is_error=True)
    assert result.artifact.kind == "diff"
    assert result.artifact.status == "error"
    image = {"kind": "image", "status": "success", "payload": {"images": []}}
    event = StreamEvent(id="1", name="read", value="v", is_error=True, artifact=image)
    assert event.artifact.status == "error"
    assert isinstance(event.artifact, ImageArtifact)


def test_is_error_must_be_a_real_bool():
    with pytest.raises(ValidationError):
        ToolResult(value="v", is_error="yes")


def test_bool_version_is_refused_by_the_models():
    with pytest.raises(ValidationError):
        ToolResult(value="v", artifact={**FUTURE, "version": True, "kind": "text"})


def test_result_keeps_unknown_fields():
    result = ToolResult.model_validate({"value": "v", "request": {"path": "a"}})
    assert result.model_dump()["request"] == {"path": "a"}


def test_future_artifact_is_held_unchanged():
    result = ToolResult(value="v", artifact=FUTURE)
    assert isinstance(result.artifact, FutureArtifact)
    assert result.model_dump()["artifact"] == FUTURE
    assert list(result.model_dump()["artifact"]) == list(FUTURE)
    assert result.artifact.version == 3
    assert result.artifact.kind == "chart"


@pytest.mark.parametrize(
    "change",
    [
        {"version": "3"},
        {"version": 1.0 + 2},
        {"kind": ""},
        {"status": 5},
        {"payload": []},
        {"title": 7},
        {"schema": "other"},
    ],
)
def test_future_artifact_with_unsound_outer_structure_is_refused(change):
    with pytest.raises(ValidationError):
        FutureArtifact({**FUTURE, **change})


def test_error_payload_detail_is_optional():
    payload = ErrorPayload(code="not_found", message="Read the file first.")
    assert payload.detail is None


def test_image_payload_accepts_attachment_or_inline():
    payload = ImagePayload.model_validate(
        {"images": [{"mime": "image/png", "b64": "AA=="}], "path": "a.png"}
    )
    assert payload.images[0].b64 == "AA=="


def test_future_error_kind_has_error_status():
    artifact = FutureArtifact({**FUTURE, "kind": "error", "status": "success"})
    assert artifact.status == "error"
    result = ToolResult(value="v", artifact={**FUTURE, "kind": "error"})
    assert result.artifact.status == "error"
