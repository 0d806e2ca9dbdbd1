"""Input schemas a strict function-calling mode takes, checked by the Agents SDK itself."""

from __future__ import annotations

import copy
import json

import pytest
from agents.strict_schema import ensure_strict_json_schema

from edittools import Session
from edittools.mcp_server import SURFACES, surface_tools

TOOLS = [(surface, tool) for surface in SURFACES for tool in surface_tools(surface)]


@pytest.mark.parametrize(("surface", "tool"), TOOLS, ids=[f"{s}-{t.name}" for s, t in TOOLS])
def test_every_input_schema_is_self_contained_and_strict_mode_ready(surface, tool):
    assert "$ref" not in json.dumps(tool.input_schema)
    assert "$defs" not in tool.input_schema
    # The Agents SDK converts MCP tool schemas with this call; it raises when it cannot.
    ensure_strict_json_schema(copy.deepcopy(tool.input_schema), _reject_open_objects=True)


@pytest.mark.parametrize("style", ["openai", "anthropic"])
def test_function_calling_definitions_are_self_contained(style):
    for definition in Session.tool_definitions(style):
        assert "$ref" not in json.dumps(definition)
    for definition in Session.tool_definitions("openai"):
        ensure_strict_json_schema(
            copy.deepcopy(definition["function"]["parameters"]), _reject_open_objects=True
        )
