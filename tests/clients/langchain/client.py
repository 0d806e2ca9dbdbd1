"""LangChain's MCP adapter as its quickstart uses it, run in the adapter's own environment.

`MultiServerMCPClient(...).get_tools()` in its default mode, which opens a new MCP session for
every tool call. Reads a plan as JSON on standard input: the server's `url` and `calls`, each a
`tool`, its `args`, the bearer `token` and optionally the client's declared `name`; prints, as
JSON, each call's status (`success` or `error`) and the text its tool gave the model.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from langchain_core.tools import BaseTool
from langchain_mcp_adapters.client import MultiServerMCPClient
from mcp.types import Implementation


async def tools_of(url: str, token: str, name: str | None) -> dict[str, BaseTool]:
    """The adapter's tools for one client: `token` as its bearer token, `name` (when given) as
    the name it declares."""
    connection: dict[str, Any] = {
        "url": url,
        "transport": "streamable_http",
        "headers": {"Authorization": f"Bearer {token}"},
    }
    if name is not None:
        connection["session_kwargs"] = {"client_info": Implementation(name=name, version="1")}
    client = MultiServerMCPClient({"edittools": connection})
    return {tool.name: tool for tool in await client.get_tools()}


def text_of(content: Any) -> str:
    """The text of a tool message's content: a string, or a list of blocks."""
    if isinstance(content, str):
        return content
    parts = [b.get("text", "") if isinstance(b, dict) else str(b) for b in content]
    return "\n".join(parts)


async def run(plan: dict[str, Any]) -> list[dict[str, str]]:
    clients: dict[tuple[str, str | None], dict[str, BaseTool]] = {}
    outcomes = []
    for number, call in enumerate(plan["calls"]):
        key = (call["token"], call.get("name"))
        if key not in clients:
            clients[key] = await tools_of(plan["url"], *key)
        tool = clients[key][call["tool"]]
        sent = {
            "type": "tool_call",
            "id": f"call-{number}",
            "name": tool.name,
            "args": call["args"],
        }
        message = await tool.ainvoke(sent)
        outcomes.append({"status": message.status, "text": text_of(message.content)})
    return outcomes


if __name__ == "__main__":
    print(json.dumps(asyncio.run(run(json.load(sys.stdin)))))
