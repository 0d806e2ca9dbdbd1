"""The MCP server: one session over a root directory, its tools listed and called over stdio.

Built on the SDK's low-level server so that each call's answer is ours to shape: the text for the
model, the ToolResult as structured content, and `isError` with the message intact.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from edittools import SYNTAX_POLICIES, Session, ToolError
from edittools.dialects import result_to_call_tool_result as call_tool_result
from edittools.mcp_server._results import output_schema
from edittools.mcp_server._surfaces import surface_tools
from edittools.mcp_server._tool import SurfaceTool

SERVER_NAME = "edittools"
SERVER_VERSION = "0.1.0"
TRANSPORTS = ("stdio",)
"""Transports `serve` speaks."""

_log = logging.getLogger(__name__)


def tool_definition(tool: SurfaceTool) -> types.Tool:
    """The MCP definition of a tool: schemas, title, and hints as the tool really behaves."""
    return types.Tool(
        name=tool.name,
        title=tool.title,
        description=tool.description,
        input_schema=tool.input_schema,
        output_schema=output_schema(),
        annotations=types.ToolAnnotations(
            title=tool.title,
            read_only_hint=tool.read_only,
            destructive_hint=tool.destructive,
            idempotent_hint=tool.idempotent,
            open_world_hint=False,
        ),
    )


def build_server(session: Session, *, surface: str = "edittools") -> Server[Any]:
    """An MCP server exposing `session`'s tools under surface `surface`'s names and parameters.

    Calls run one at a time in a worker thread, so the event loop stays responsive while a
    session (which is not thread-safe) sees no overlapping calls.
    """
    tools = {tool.name: tool for tool in surface_tools(surface)}
    definitions = [tool_definition(tool) for tool in tools.values()]
    one_at_a_time = anyio.Lock()

    async def list_tools(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=definitions)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = tools.get(params.name)
        if tool is None:
            known = ", ".join(tools)
            result = ToolError(
                "invalid_arguments", f"There is no tool {params.name!r}. Tools: {known}."
            ).result()
            return call_tool_result(result)
        arguments = params.arguments or {}
        async with one_at_a_time:
            try:
                result = await anyio.to_thread.run_sync(tool.call, session, arguments)
            except Exception as exc:  # the one place the server catches what the tools did not
                _log.exception("tool %s failed unexpectedly", tool.name)
                result = ToolError(
                    "internal_error",
                    f"{tool.name} failed unexpectedly ({type(exc).__name__}: {exc}). The file "
                    "may be unchanged; read it before trying again.",
                ).result()
        return call_tool_result(result)

    return Server(
        SERVER_NAME,
        version=SERVER_VERSION,
        title="edittools",
        instructions=(
            f"File tools confined to the workspace root {session.sandbox.root}. Paths are "
            "relative to it (absolute paths inside it work too). Read a file before changing "
            "it; every change returns a diff, and can be undone."
        ),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def serve(
    root: str,
    *,
    surface: str = "edittools",
    deny: Sequence[str] = (),
    transport: str = "stdio",
    syntax_check: str = "warn",
    allow_git_writes: bool = False,
) -> None:
    """Serve the tools over `root` to one MCP client until it disconnects (blocking).

    `surface` picks the tool names and parameters (see `SURFACES`); `deny` holds gitignore-style
    patterns the tools may not touch; `syntax_check` is the policy for changes that break a file's
    syntax (see `SessionOptions`); `allow_git_writes` lifts the rule refusing writes under `.git/`.
    Raises ValueError for an unknown surface or transport and
    the sandbox's error when `root` cannot be opened.
    """
    if transport not in TRANSPORTS:
        raise ValueError(f"unknown transport {transport!r}; choose one of: {', '.join(TRANSPORTS)}")
    surface_tools(surface)  # refuse an unknown surface before taking over stdio
    if syntax_check not in SYNTAX_POLICIES:
        raise ValueError(
            f"unknown syntax_check {syntax_check!r}; choose one of: {', '.join(SYNTAX_POLICIES)}"
        )
    with Session(
        root, deny=deny, syntax_check=syntax_check, allow_git_writes=allow_git_writes
    ) as session:
        server = build_server(session, surface=surface)

        async def run() -> None:
            async with stdio_server() as (read_stream, write_stream):
                await server.run(read_stream, write_stream, server.create_initialization_options())

        anyio.run(run)
