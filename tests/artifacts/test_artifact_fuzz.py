"""Generated malformed input thrown at artifact_of, value_of and adapt: 10,000 inputs.

Two tests draw 1,000 artifacts and 1,000 result records, each thrown in four forms (as is, as
JSON text, inside an MCP result's structuredContent, as MCP text content): 8,000 inputs; a third
draws 1,000 arbitrary values, each thrown as is and as JSON text: 2,000 more.

Every case checks that nothing raises, and that whatever comes back as an artifact is sound by
an oracle written here independently of the code under test (and by the exported JSON Schema).
"""

import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema.validators import Draft202012Validator

from edittools import adapt
from edittools.artifacts import (
    ArtifactBase,
    FutureArtifact,
    ToolResult,
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
    max_examples=1000,
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
# Outer fields come from fixed lists of sound and unsound values: one draw each keeps ten
# thousand cases quick while every wrong type is still tried.
versions = st.sampled_from([1, 1, 2, 3, 0, -1, True, False, 1.0, 2.5, "1", None, [1], 10**40])
kinds = st.sampled_from([*sorted(V1_KINDS), "", "chart", 3, None, ["diff"], {"k": 1}])
statuses = st.sampled_from(["success", "success", "error", "weird", "", None, 0, True, ["error"]])
labels = st.sampled_from(["label", "label", "", None, None, 7, False, ["x"], {"t": 1}])
schemas = st.sampled_from(
    [SCHEMA_ID, SCHEMA_ID, "codeagent.tool-artifact", "", None, 1, [SCHEMA_ID]]
)
PAYLOAD_POOL = [
    {"text": "t"},
    {"text": 5},
    {"text": None},
    {"html": "<b>x</b>"},
    {"code": "c", "message": "m", "detail": {"k": [1]}},
    {"code": "c"},
    {"path": "a.py", "hunks": [{"old_start": 1, "old_lines": 1, "new_start": 1, "new_lines": 1}]},
    {"path": "a.py", "hunks": "x", "stats": {"added": "1"}},
    {"path": "a.py", "operation": "explode"},
    {"files": [{"path": "a"}], "stats": {"added": 1, "removed": 0}},
    {"files": [], "stats": None},
    {"images": [{"mime": "image/png", "b64": "AA=="}]},
    {"images": [{"mime": 3}]},
    {"columns": ["a"], "rows": [[1], [2, 3]]},
    {"columns": "a", "rows": 1},
    {"data": float("nan")},
    {"data": {1: "int key"}},
    {"data": deep(1500)},
    {"data": "x" * 200_000},
    {},
]
payloads = st.one_of(
    st.sampled_from(PAYLOAD_POOL),
    st.sampled_from(PAYLOAD_POOL),
    st.fixed_dictionaries({"text": st.text(max_size=20)}),
    st.fixed_dictionaries({"data": json_values}),
    odd_values,
)


@st.composite
def artifact_like(draw):
    data = {
        "schema": draw(schemas),
        "version": draw(versions),
        "kind": draw(kinds),
        "status": draw(statuses),
        "icon": draw(labels),
        "title": draw(labels),
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
        "display": draw(st.sampled_from([None, "d", {"host": 1}, [1], 2.5])),
        "is_error": draw(st.sampled_from([True, False, False, None, 1, 0, "true", "false"])),
    }
    for key in draw(st.lists(st.sampled_from(["value", "display", "is_error"]), max_size=2)):
        record.pop(key, None)
    if draw(st.booleans()):
        record = {"id": "call_1", "name": draw(st.sampled_from(["edit", 3, None])), **record}
    return record, artifact


def _dumps(record):
    try:
        return json.dumps(record, default=repr)
    except (ValueError, RecursionError, TypeError):
        return "{not json"


def forms(record, artifact, is_error):
    """The accepted forms of one generated record: (input, the artifact it carries or None)."""
    text = _dumps(record)
    parsed = json.loads(text) if text != "{not json" else {}
    return [
        (record, artifact),
        (text, parsed.get("artifact") if isinstance(parsed, dict) else None),
        (
            {
                "content": [{"type": "text", "text": "t"}],
                "structuredContent": record,
                "isError": is_error,
            },
            artifact,
        ),
        ({"content": [{"type": "text", "text": text}]}, None),
    ]


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
@given(artifact_like(), st.sampled_from([True, False, None, "true"]))
def test_fuzz_bare_artifacts(artifact, is_error):
    for x, carried in forms(artifact, artifact, is_error):
        _exercise(x, carried)


@FUZZ
@given(result_like(), st.sampled_from([True, False, None, "true"]))
def test_fuzz_result_and_event_dicts(pair, is_error):
    record, artifact = pair
    for x, carried in forms(record, artifact, is_error):
        _exercise(x, carried)


@settings(FUZZ, max_examples=1000)
@given(st.one_of(odd_values, st.text(max_size=50), st.binary(max_size=50), json_values.map(_dumps)))
def test_fuzz_arbitrary_values(x):
    _exercise(x)
    _exercise(_dumps(x))
    if isinstance(x, float) and math.isnan(x):
        assert value_of(x).startswith("(no text")
