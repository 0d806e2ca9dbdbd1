"""Tool definitions for hosts: OpenAI-style `function` objects and Anthropic-style `input_schema`."""

from __future__ import annotations

import pytest

from edittools import Session
from edittools.tools import TOOLS, input_schema

NAMES = ["read", "write", "edit", "multi_edit", "apply_patch", "undo"]


def test_openai_style() -> None:
    definitions = Session.tool_definitions("openai")
    assert [d["function"]["name"] for d in definitions] == NAMES
    for d in definitions:
        assert d["type"] == "function"
        assert set(d["function"]) == {"name", "description", "parameters"}
        schema = d["function"]["parameters"]
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert d["function"]["description"]


def test_anthropic_style() -> None:
    definitions = Session.tool_definitions("anthropic")
    assert [d["name"] for d in definitions] == NAMES
    for d in definitions:
        assert set(d) == {"name", "description", "input_schema"}
        assert d["input_schema"]["type"] == "object"


@pytest.mark.parametrize("style", ["openai", "anthropic"])
def test_schemas_are_the_parameter_models(style: str) -> None:
    for d in Session.tool_definitions(style):
        name = d["name"] if style == "anthropic" else d["function"]["name"]
        schema = d["input_schema"] if style == "anthropic" else d["function"]["parameters"]
        expected = TOOLS[name].params.model_json_schema()
        assert schema == input_schema(TOOLS[name].params)
        assert schema["properties"].keys() == expected["properties"].keys()
        assert schema.get("required", []) == expected.get("required", [])
        for field in schema["properties"].values():
            assert field.get("description"), (name, field)


def test_required_fields_and_types() -> None:
    by_name = {d["name"]: d["input_schema"] for d in Session.tool_definitions("anthropic")}
    assert by_name["read"]["required"] == ["path"]
    assert by_name["read"]["properties"]["offset"]["minimum"] == 1
    assert sorted(by_name["edit"]["required"]) == ["new_string", "old_string", "path"]
    assert by_name["edit"]["properties"]["replace_all"]["type"] == "boolean"
    assert by_name["multi_edit"]["properties"]["edits"]["minItems"] == 1
    assert by_name["apply_patch"]["required"] == ["patch"]
    assert "Begin Patch" in by_name["apply_patch"]["properties"]["patch"]["description"]


def test_the_definitions_are_json_and_independent_copies() -> None:
    import json

    first = Session.tool_definitions("openai")
    json.dumps(first)
    first[0]["function"]["parameters"]["properties"].clear()
    assert Session.tool_definitions("openai")[0]["function"]["parameters"]["properties"]


def test_an_unknown_style_is_refused() -> None:
    with pytest.raises(ValueError, match="openai"):
        Session.tool_definitions("gemini")


def test_tool_names_match_the_definitions() -> None:
    assert Session.tool_names() == NAMES


@pytest.mark.parametrize("style", ["openai", "anthropic"])
def test_the_tools_by_structure_and_anchor_come_on_request(style: str) -> None:
    extra = ["symbols", "read_symbol", "edit_symbol", "edit_lines"]
    definitions = Session.tool_definitions(style, structure=True)
    names = [d["name"] if style == "anthropic" else d["function"]["name"] for d in definitions]
    assert names == NAMES + extra
    by_name = dict(zip(names, definitions, strict=True))
    edit_symbol = by_name["edit_symbol"]
    schema = (
        edit_symbol["input_schema"]
        if style == "anthropic"
        else edit_symbol["function"]["parameters"]
    )
    assert schema["properties"]["where"]["enum"] == ["replace", "body", "before", "after"]
    assert "$ref" not in str(definitions)
    assert sorted(schema["required"]) == ["new_text", "path", "symbol"]
