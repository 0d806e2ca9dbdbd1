"""A real `edittools serve --http` child process, reached by the SDK's HTTP client and by raw
requests (those of the 2026-07-28 revision among them)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import httpx2
import mcp_types as types
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

PROJECT = Path(__file__).resolve().parents[2]
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"},
    },
}
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
MODERN = "2026-07-28"
"""The protocol revision without sessions: each request says who the client is."""


class Served:
    """A running `edittools serve --http` child: its process, URL and what it printed."""

    def __init__(self, proc: subprocess.Popen[str], url: str, token: str | None) -> None:
        self.proc = proc
        self.url = url
        self.token = token

    @property
    def auth(self) -> dict[str, str]:
        """The header that carries the token the server printed (none when it printed none)."""
        return {"authorization": f"Bearer {self.token}"} if self.token else {}


@contextmanager
def served(root: Path, *options: str, listen: str = "127.0.0.1:0") -> Iterator[Served]:
    """`edittools serve --root root --http listen options` in a child, stopped at the end, with
    the token it printed when it made one."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")])),
    }
    args = [sys.executable, "-m", "edittools.mcp_server", "--root", str(root), "--http", listen]
    proc = subprocess.Popen(
        [*args, *options], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env
    )
    assert proc.stderr is not None
    url = token = None
    deadline = time.monotonic() + 30
    while url is None and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        if found := re.search(r"bearer token \(shown once\): (\S+)", line):
            token = found.group(1)
        if found := re.search(r"serving MCP at (\S+)", line):
            url = found.group(1)
    try:
        assert url is not None, f"the server did not start: {proc.stderr.read()}"
        yield Served(proc, url, token)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)
        proc.stderr.close()


@asynccontextmanager
async def client(
    url: str, name: str, headers: dict[str, str] | None = None
) -> AsyncIterator[ClientSession]:
    """An initialised SDK client session named `name` over HTTP."""
    async with (
        httpx2.AsyncClient(headers=headers or {}, timeout=60) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write, client_info=types.Implementation(name=name, version="1")) as s,
    ):
        await s.initialize()
        yield s


def text(result: types.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


def stateless_call(
    server: Served, name: str, arguments: dict[str, Any], *, client_name: str, **headers: str
) -> dict[str, Any]:
    """A 2026-07-28 `tools/call`: no session, the client's name and capabilities in `_meta`."""
    envelope = {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": client_name, "version": "1"},
    }
    params = {"name": name, "arguments": arguments, "_meta": envelope}
    sent = {
        **HEADERS,
        **server.auth,
        "mcp-protocol-version": MODERN,
        "mcp-method": "tools/call",
        "mcp-name": name,
        **headers,
    }
    answer = rpc(server.url, sent, {"id": 9, "method": "tools/call", "params": params})
    assert answer.status_code == 200, answer.text
    (message,) = [m for m in messages(answer.text.splitlines()) if m.get("id") == 9]
    return dict(message["result"])


def messages(lines: list[str]) -> list[dict[str, Any]]:
    """The JSON-RPC messages of a response body: each SSE event's data, or the JSON body."""
    data = [line[5:].strip() for line in lines if line.startswith("data:")]
    return [json.loads(d) for d in data if d] if data else [json.loads("".join(lines))]


def rpc(url: str, headers: dict[str, str], message: dict[str, Any]) -> httpx2.Response:
    return httpx2.post(url, json={"jsonrpc": "2.0", **message}, headers=headers, timeout=60)
