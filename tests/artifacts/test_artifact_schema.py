"""The exported JSON Schema: kept in the repository, and true to the models."""

import jsonschema
from jsonschema.validators import Draft202012Validator

from edittools.artifacts import DiffArtifact, DiffPayload, ErrorArtifact, ErrorPayload, ToolResult
from edittools.artifacts._schema import SCHEMA_FILE, export_schema, schema_text


def test_kept_schema_file_matches_the_models():
    # When this fails, a model changed: regenerate with `python -m edittools.artifacts._schema`.
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text()


def test_exported_schema_is_a_valid_json_schema():
    Draft202012Validator.check_schema(export_schema())


def test_schema_accepts_what_the_models_emit_and_refuses_what_they_refuse():
    schema = export_schema()
    diff = DiffArtifact(title="a +0 -0", payload=DiffPayload(path="a"))
    jsonschema.validate(diff.model_dump(mode="json"), schema)
    error = ErrorArtifact(payload=ErrorPayload(code="c", message="m"))
    jsonschema.validate(error.model_dump(mode="json"), schema)
    bad = {**diff.model_dump(mode="json"), "version": 2}
    assert not Draft202012Validator(schema).is_valid(bad)
    missing = {k: v for k, v in diff.model_dump(mode="json").items() if k != "status"}
    assert not Draft202012Validator(schema).is_valid(missing)


def test_schema_holds_results_and_stream_events():
    defs = export_schema()["$defs"]
    result_schema = {**defs["ToolResult"], "$defs": defs}
    result = ToolResult(value="v", artifact=DiffArtifact(payload=DiffPayload(path="a")))
    jsonschema.validate(result.model_dump(mode="json"), result_schema)
    assert list(defs["StreamEvent"]["properties"]) == [
        "id",
        "name",
        "display",
        "value",
        "is_error",
        "artifact",
    ]
    assert "description" in defs["DiffPayload"]["properties"]["granularity"]
