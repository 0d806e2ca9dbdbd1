"""A real MCP server child process over stdio, driven by the SDK's own client."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import jsonschema
import mcp_types as types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

PROJECT = Path(__file__).resolve().parents[2]


@asynccontextmanager
async def connected(
    root: Path, surface: str | None = None, *, options: Sequence[str] = ()
) -> AsyncIterator[ClientSession]:
    """An initialised client session with `python -m edittools.mcp_server --root root [options]`."""
    args = ["-m", "edittools.mcp_server", "--root", str(root), *options]
    if surface is not None:
        args += ["--surface", surface]
    # A stdio child gets a minimal environment; the project is not installed, so point at it,
    # and keep its state in the test's state folder (never in the user's home).
    env = {
        "PYTHONPATH": os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")])),
        "EDITTOOLS_STATE_DIR": os.environ["EDITTOOLS_STATE_DIR"],
        "XDG_STATE_HOME": os.environ["XDG_STATE_HOME"],
    }
    params = StdioServerParameters(command=sys.executable, args=args, env=env, cwd=str(root))
    with open(os.devnull, "w") as quiet:
        async with (
            stdio_client(params, errlog=quiet) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


def text_of(result: types.CallToolResult) -> str:
    """The one text block of a call's content."""
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


def check_structured(result: types.CallToolResult, tool: types.Tool) -> dict[str, Any]:
    """The call's structured content, after checking it against the tool's declared output schema
    and against the text block and error flag it must agree with."""
    data = result.structured_content
    assert isinstance(data, dict)
    assert tool.output_schema is not None
    jsonschema.validate(data, tool.output_schema)
    assert data["value"] == text_of(result)
    assert data["is_error"] is result.is_error
    return data
