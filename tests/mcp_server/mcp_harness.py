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

from edittools.artifacts import ToolResult
from edittools.artifacts._schema import export_schema
from edittools.artifacts.access import MCP_RESULT_META

PROJECT = Path(__file__).resolve().parents[2]


@asynccontextmanager
async def connected(
    root: Path,
    surface: str | None = None,
    *,
    options: Sequence[str] = (),
    extensions: dict[str, dict[str, Any]] | None = None,
) -> AsyncIterator[ClientSession]:
    """An initialised client session with `python -m edittools.mcp_server --root root [options]`,
    the client declaring `extensions` (SEP-2133) when given."""
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
            ClientSession(read, write, extensions=extensions) as session,
        ):
            await session.initialize()
            yield session


def text_of(result: types.CallToolResult) -> str:
    """The one text block of a call's content."""
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


def result_of(result: types.CallToolResult) -> dict[str, Any]:
    """The ToolResult an answer carries, as a dict: the text block as its value, the rest from
    `_meta["edittools/result"]`."""
    assert result.meta is not None
    rest = result.meta[MCP_RESULT_META]
    assert isinstance(rest, dict)
    texts = [block.text for block in result.content if isinstance(block, types.TextContent)]
    return {**rest, "value": "\n".join(texts)}


def check_answer(result: types.CallToolResult, tool: types.Tool) -> dict[str, Any]:
    """The ToolResult an answer carries, after checking the answer's shape: no structured
    content and no output schema (the text goes once), the result object valid with its
    artifact valid against the protocol's schema, and its error flag the answer's."""
    assert result.structured_content is None
    assert tool.output_schema is None
    data = result_of(result)
    ToolResult.model_validate(data)
    if data["artifact"] is not None:
        jsonschema.validate(data["artifact"], export_schema())
    assert data["is_error"] is result.is_error
    return data
