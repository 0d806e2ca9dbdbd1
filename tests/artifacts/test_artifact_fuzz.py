"""Generated malformed input thrown at artifact_of, value_of and adapt: 4 x 2,500 = 10,000 cases.

Every case checks that nothing raises, and that whatever comes back as an artifact is sound by
an oracle written here independently of the code under test (and by the exported JSON Schema).
"""

import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema.validators import Draft202012Validator

from edittools.artifacts import (
    ArtifactBase,
    FutureArtifact,
    ToolResult,
    adapt,
    artifact_of,
    value_of,
)
from edittools.artifacts._schema import export_schema

SCHEMA_ID = "edittools.tool-artifact"
V1_KINDS = {
    "text",
    "markdown",
    "html",
    "json",
    "code",
    "table",
    "image",
    "diff",
    "changeset",
    "error",
}
V1_SCHEMA = Draft202012Validator(export_schema())
FUZZ = settings(
    max_examples=2500,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)


_SCHEMA_VALID: set[str] = set()


def sound_outer(data, *, min_version=1):
    """The protocol's outer-structure rule, restated for the test."""
    return (
        isinstance(data, dict)
        and data.get("schema") == SCHEMA_ID
        and type(data.get("version")) is int
        and data["version"] >= min_version
        and isinstance(data.get("kind"), str)
        and data["kind"] != ""
        and isinstance(data.get("status"), str)
        and data["status"] != ""
        and isinstance(data.get("payload"), dict)
        and all(data.get(k) is None or isinstance(data[k], str) for k in ("icon", "title"))
    )


def check_returned(artifact, *, versions=frozenset({1})):
    """A returned artifact is either None or sound, and obeys the error rule."""
    if artifact is None:
        return
    if isinstance(artifact, ArtifactBase):
        text = artifact.model_dump_json()
        wire = json.loads(text)
        assert sound_outer(wire)
        assert wire["version"] == 1 and wire["kind"] in V1_KINDS
        if text not in _SCHEMA_VALID:
            assert V1_SCHEMA.is_valid(wire), wire
            _SCHEMA_VALID.add(text)
    else:
        assert isinstance(artifact, FutureArtifact)
        wire = artifact.root
        assert sound_outer(wire, min_version=2)
        json.dumps(wire, allow_nan=False)
    assert versions is None or wire["version"] in versions
    if wire["kind"] == "error":
        assert wire["status"] == "error"


def check_adapted(result):
    assert isinstance(result, ToolResult)
    assert isinstance(result.value, str)
    assert result.artifact is not None
    check_returned(result.artifact, versions=None)
    if result.is_error:
        assert result.artifact.status == "error"


def deep(depth):
    value = "leaf"
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(20, 400).map(lambda n: 10**n + 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=5,
)
odd_values = st.one_of(
    json_values,
    st.integers(min_value=0, max_value=3000).map(deep),
    st.binary(max_size=40),
    st.tuples(scalars, scalars),
    st.sets(st.integers(), max_size=3),
    st.tuples(st.text(min_size=1, max_size=3), st.integers(1000, 100_000)).map(
        lambda p: p[0] * p[1]
    ),
    st.builds(object),
)
versions = st.one_of(
    st.just(1),
    st.integers(min_value=-3, max_value=5),
    st.booleans(),
    st.floats(),
    st.text(max_size=3),
    st.none(),
    st.integers(30, 60).map(lambda n: 10**n),
)
kinds = st.one_of(st.sampled_from(sorted(V1_KINDS)), st.text(max_size=8), scalars)
payloads = st.one_of(
    st.fixed_dictionaries({"text": st.text(max_size=20)}),
    st.fixed_dictionaries({"code": st.text(max_size=5), "message": st.text(max_size=5)}),
    st.fixed_dictionaries({"path": st.text(max_size=10)}, optional={"hunks": json_values}),
    st.fixed_dictionaries({"data": json_values}),
    odd_values,
)


@st.composite
def artifact_like(draw):
    data = {
        "schema": draw(st.one_of(st.just(SCHEMA_ID), st.text(max_size=5), scalars)),
        "version": draw(versions),
        "kind": draw(kinds),
        "status": draw(st.one_of(st.sampled_from(["success", "error", ""]), scalars)),
        "icon": draw(st.one_of(st.text(max_size=5), scalars)),
        "title": draw(st.one_of(st.text(max_size=5), scalars)),
        "payload": draw(payloads),
    }
    for key in draw(st.lists(st.sampled_from(sorted(data)), max_size=2)):
        data.pop(key, None)
    if draw(st.booleans()):
        data[draw(st.sampled_from(["extra", "provenance", "schema_"]))] = draw(odd_values)
    return data


@st.composite
def result_like(draw):
    artifact = draw(artifact_like())
    record = {
        "value": draw(st.one_of(st.text(max_size=20), scalars)),
        "artifact": artifact,
        "display": draw(scalars),
        "is_error": draw(st.one_of(st.booleans(), scalars)),
    }
    for key in draw(st.lists(st.sampled_from(["value", "display", "is_error"]), max_size=2)):
        record.pop(key, None)
    if draw(st.booleans()):
        record = {"id": draw(st.text(max_size=4)), "name": draw(scalars), **record}
    return record, artifact


def _dumps(record):
    try:
        return json.dumps(record, default=repr)
    except (ValueError, RecursionError, TypeError):
        return "{not json"


@st.composite
def wrapped(draw):
    """A result-like record in one of the accepted forms; returns (input, its artifact)."""
    record, artifact = draw(result_like())
    form = draw(st.sampled_from(["dict", "json", "bytes", "mcp", "mcp-text", "bare"]))
    if form == "json":
        text = _dumps(record)
        parsed = json.loads(text) if text != "{not json" else {}
        return text, parsed.get("artifact")
    if form == "bytes":
        return _dumps(record).encode("utf-8", "surrogatepass"), None
    if form == "mcp":
        return {
            "content": draw(st.one_of(st.lists(json_values, max_size=2), scalars)),
            "structuredContent": record,
            "isError": draw(st.one_of(st.booleans(), scalars)),
        }, artifact
    if form == "mcp-text":
        return {"content": [{"type": "text", "text": _dumps(record)}]}, None
    if form == "bare":
        return artifact, artifact
    return record, artifact


def _exercise(x, artifact=None):
    for versions in (frozenset({1}), None, {2, 3}):
        got = artifact_of(x, versions=versions)
        check_returned(got, versions=versions)
        if got is not None and artifact is not None:
            # Nothing malformed passes as valid: the artifact that was given was sound.
            assert sound_outer(artifact)
            if isinstance(got, FutureArtifact):
                assert got.root == {**artifact, "status": "error"} or got.root == artifact
    assert isinstance(value_of(x), str)
    check_adapted(adapt(x))


@FUZZ
@given(artifact_like())
def test_fuzz_bare_artifacts(artifact):
    _exercise(artifact, artifact)
    _exercise({"value": "v", "artifact": artifact}, artifact)


@FUZZ
@given(result_like())
def test_fuzz_result_and_event_dicts(pair):
    record, artifact = pair
    _exercise(record, artifact)


@FUZZ
@given(wrapped())
def test_fuzz_json_text_and_mcp_forms(pair):
    x, artifact = pair
    _exercise(x, artifact if isinstance(artifact, dict) else None)


@FUZZ
@given(st.one_of(odd_values, st.text(max_size=50), st.binary(max_size=50), json_values.map(_dumps)))
def test_fuzz_arbitrary_values(x):
    _exercise(x)
    if isinstance(x, float) and math.isnan(x):
        assert value_of(x).startswith("(no text")
