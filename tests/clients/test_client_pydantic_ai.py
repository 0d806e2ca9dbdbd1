"""A pydantic-ai agent on our MCP server: what its model is given for list, read, edit, error, image.

The model is pydantic-ai's `FunctionModel`, scripted to call our tools in turn; it records every
message the framework hands it, which is exactly what a real model would read.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import sys
from pathlib import Path

import pytest
from fastmcp.client.transports import StdioTransport
from PIL import Image
from pydantic_ai import Agent
from pydantic_ai.mcp import MCPToolset
from pydantic_ai.messages import (
    BinaryContent,
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

pytestmark = pytest.mark.integration

PROJECT = Path(__file__).resolve().parents[2]


def big_source() -> str:
    return "".join(f"def f_{n}(x):\n    return x * {n}\n\n" for n in range(1500))


def test_pydantic_ai_model_sees_compact_results_errors_and_images(tmp_path: Path) -> None:
    (tmp_path / "big.py").write_text(big_source())
    buffer = io.BytesIO()
    Image.new("RGB", (2000, 1000), (10, 200, 10)).save(buffer, format="PNG")
    (tmp_path / "pic.png").write_bytes(buffer.getvalue())
    script = [
        ("read", {"path": "big.py", "limit": 5}),
        ("edit", {"path": "big.py", "old_string": "return x * 700\n", "new_string": "return 0\n"}),
        ("edit", {"path": "big.py", "old_string": "no such text", "new_string": "x"}),
        ("read", {"path": "pic.png"}),
    ]
    seen: list[list[ModelMessage]] = []
    tool_names: list[str] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(list(messages))
        tool_names[:] = [t.name for t in info.function_tools]
        step = len(seen) - 1
        if step < len(script):
            name, args = script[step]
            return ModelResponse(parts=[ToolCallPart(name, args, tool_call_id=f"c{step}")])
        return ModelResponse(parts=[TextPart("done")])

    env = {
        "PYTHONPATH": os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")])),
        # the test's state folder, never the user's home (a stdio child gets a minimal environment)
        "EDITTOOLS_STATE_DIR": os.environ["EDITTOOLS_STATE_DIR"],
        "XDG_STATE_HOME": os.environ["XDG_STATE_HOME"],
    }
    transport = StdioTransport(
        sys.executable,
        ["-m", "edittools.mcp_server", "--root", str(tmp_path)],
        env=env,
        cwd=str(tmp_path),
        keep_alive=False,  # the server ends with the agent's run, not whenever the GC runs
    )
    agent = Agent(FunctionModel(model), toolsets=[MCPToolset(transport)])
    # `asyncio.run`, not `run_sync`: run_sync leaves an event loop open that a later test's GC
    # would report as unclosed.
    result = asyncio.run(agent.run("go"))
    assert result.output == "done"
    assert tool_names == ["read", "write", "edit", "multi_edit", "apply_patch", "undo"]

    parts = [
        part
        for messages in seen
        for m in messages
        if isinstance(m, ModelRequest)
        for part in m.parts
    ]
    returns = {p.tool_call_id: p for p in parts if isinstance(p, ToolReturnPart)}

    # No structured content: the model is given the text block, the window once.
    read = returns["c0"].model_response_str()
    assert read.startswith("     1\tdef f_0(x):")
    assert read.count("def f_0(x):") == 1

    edit = returns["c1"]
    given = edit.model_response_str()
    # The model is given the compact result: the change, not two copies of a 56 KB file.
    assert len(given.encode()) <= 4096, len(given)
    assert "  2102\t    return 0" in given and "return x * 700" not in given
    assert "Edited big.py (+1 -1)." in given

    error = returns["c2"]
    assert error.outcome == "retried"  # the model is told to try again, with our message
    assert "Error (no_match): old_string was not found" in error.model_response_str()

    image = returns["c3"]
    blocks = image.content if isinstance(image.content, list) else [image.content]
    pictures = [b for b in blocks if isinstance(b, BinaryContent)]
    assert len(pictures) == 1 and pictures[0].media_type == "image/png"
    assert Image.open(io.BytesIO(pictures[0].data)).size == (1568, 784)
    texts = [b for b in blocks if isinstance(b, str | dict)]
    assert any("pic.png" in json.dumps(t) for t in texts)
