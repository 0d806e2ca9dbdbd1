"""The OpenAI Agents SDK on our MCP server: tools in strict mode, and what its model is given."""

from __future__ import annotations

import base64
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from agents import RunContextWrapper
from agents.mcp import MCPServerStdio, MCPUtil
from PIL import Image

pytestmark = pytest.mark.integration

PROJECT = Path(__file__).resolve().parents[2]


def server(root: Path, *, structured: bool, surface: str = "edittools") -> MCPServerStdio:
    env = {
        "PYTHONPATH": os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")])),
        # the test's state folder, never the user's home (a stdio child gets a minimal environment)
        "EDITTOOLS_STATE_DIR": os.environ["EDITTOOLS_STATE_DIR"],
        "XDG_STATE_HOME": os.environ["XDG_STATE_HOME"],
    }
    args = ["-m", "edittools.mcp_server", "--root", str(root), "--surface", surface]
    params = {"command": sys.executable, "args": args, "env": env, "cwd": str(root)}
    return MCPServerStdio(
        params, use_structured_content=structured, client_session_timeout_seconds=30
    )


def text_of(output: Any) -> str:
    """The text a model is given for a tool output (a string or typed output parts)."""
    if isinstance(output, str):
        return output
    parts = output if isinstance(output, list) else [output]
    texts = [p.get("text") if isinstance(p, dict) else getattr(p, "text", None) for p in parts]
    return "\n".join(str(t) for t in texts if t is not None)


@pytest.mark.parametrize("structured", [False, True])
def test_agents_sdk_tools_are_strict_and_results_reach_the_model(
    tmp_path: Path, structured: bool
) -> None:
    (tmp_path / "big.py").write_text("".join(f"v_{n} = {n}\n" for n in range(5000)))
    buffer = io.BytesIO()
    Image.new("RGB", (300, 3000), (0, 0, 200)).save(buffer, format="PNG")
    (tmp_path / "tall.png").write_bytes(buffer.getvalue())

    async def scenario() -> tuple[dict[str, bool], dict[str, Any]]:
        outputs: dict[str, Any] = {}
        async with server(tmp_path, structured=structured) as mcp:
            tools = {t.name: t for t in await mcp.list_tools()}
            strict = {
                name: MCPUtil.to_function_tool(
                    tool, mcp, convert_schemas_to_strict=True
                ).strict_json_schema
                for name, tool in tools.items()
            }
            ctx = RunContextWrapper(context=None)
            calls = {
                "read": ("read", {"path": "big.py", "limit": 3}),
                "edit": (
                    "edit",
                    {"path": "big.py", "old_string": "v_2500 = 2500\n", "new_string": "v = 0\n"},
                ),
                "miss": ("edit", {"path": "big.py", "old_string": "absent", "new_string": "x"}),
                "image": ("read", {"path": "tall.png"}),
            }
            for key, (name, arguments) in calls.items():
                outputs[key] = await MCPUtil.invoke_mcp_tool(
                    mcp, tools[name], ctx, json.dumps(arguments)
                )
        return strict, outputs

    strict, outputs = anyio.run(scenario)
    assert strict == dict.fromkeys(
        ["read", "write", "edit", "multi_edit", "apply_patch", "undo"], True
    )
    given = {key: text_of(output) for key, output in outputs.items() if key != "image"}
    # The answers carry no structured content, so the model is given the text either way, once.
    assert given["read"].startswith("     1\tv_0 = 0")
    assert given["read"].count("v_1 = 1") == 1
    assert "Edited big.py (+1 -1)." in given["edit"] and "  2501\tv = 0" in given["edit"]
    assert len(given["edit"].encode()) <= 4096
    assert "Error (no_match): old_string was not found" in given["miss"]
    image = outputs["image"]
    parts = image if isinstance(image, list) else [image]
    pictures = [p for p in parts if isinstance(p, dict) and p.get("type") == "image"]
    assert len(pictures) == 1, parts
    url = pictures[0]["image_url"]
    assert url.startswith("data:image/png;base64,")
    size = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).size
    assert size == (157, 1568)
