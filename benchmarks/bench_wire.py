"""Bytes per call on the wire and as models receive them, and per-call latency over HTTP beside stdio.

    python benchmarks/bench_wire.py [--calls 200]

Bytes: a read of an 11 KB, 267-line Python module, a one-line edit of it (after that read), and
`tools/list` of the default surface, each measured four ways in one run:

- `stdio`: the JSON-RPC answer as the server writes it to standard output (the raw line, without
  its newline), read by a client of our own so nothing is re-encoded;
- `pydantic-ai`: what an `Agent` with an `MCPToolset` hands its model, recorded by a `FunctionModel`
  (`ToolReturnPart.model_response_str()`; for `tools/list`, each tool's name, description and
  parameter schema as compact JSON);
- `agents` and `agents structured`: what the OpenAI Agents SDK hands its model from
  `MCPUtil.invoke_mcp_tool`, with `use_structured_content` False and True (the string it returns,
  or the text of the text parts; for `tools/list`, the function tools' name, description and
  parameter schema as compact JSON).

Each is also given as a ratio to the model-facing text: the bytes of the answer's text blocks.

Latency: the median and 90th percentile wall time of the SDK client's `call_tool` for a read of a
40-line file and a one-line edit of it (read once first, then edits back and forth), over stdio and
over streamable HTTP (`--http 127.0.0.1:0`, the bearer token it makes sent with every request), one
client session each, and the ratio HTTP / stdio.

The server child imports edittools from the tree this script lies in (put first on PYTHONPATH), so a
copy of the script in another checkout measures that checkout with the same environment.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as types
from agents import RunContextWrapper
from agents.mcp import MCPServerStdio, MCPUtil
from bench_mcp import call_times  # the same timed calls as the MCP latency benchmark
from fastmcp.client.transports import StdioTransport
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from pydantic_ai import Agent
from pydantic_ai.mcp import MCPToolset
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

PROJECT = Path(__file__).resolve().parents[1]
MODULE = "orders.py"
SMALL = "small.py"
OLD_LINE = "DEFAULT_TIMEOUT = 30.0\n"
NEW_LINE = "DEFAULT_TIMEOUT = 45.0\n"
CASES = ("read", "edit", "tools/list")
VIEWS = ("stdio", "pydantic-ai", "agents", "agents structured")

_HEADER = '''\
"""Orders, invoices and shipments kept in memory, with the rules that move them along."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from decimal import Decimal

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 30.0
MAX_ITEMS = 250


class NotFound(LookupError):
    """Raised when a record with the given id does not exist."""

'''

_BLOCK = '''
@dataclass
class {Name}:
    """One {name}: who owns it, when it was made, and the lines it holds."""

    id: int
    owner: str
    created: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    lines: list[tuple[str, int, Decimal]] = field(default_factory=list)
    closed: bool = False

    def total(self) -> Decimal:
        """The sum of every line's quantity times its unit price, in the {name}'s currency."""
        return sum((quantity * price for _, quantity, price in self.lines), Decimal(0))

    def add(self, sku: str, quantity: int, price: Decimal) -> None:
        """Append a line; a closed {name} or one already at MAX_ITEMS lines refuses it."""
        if self.closed:
            raise ValueError(f"{name} {{self.id}} is closed and cannot take more lines")
        if len(self.lines) >= MAX_ITEMS:
            raise ValueError(f"{name} {{self.id}} already holds {{MAX_ITEMS}} lines")
        self.lines.append((sku, quantity, price))
        log.debug("added %s x%d to {name} %d for %s", sku, quantity, self.id, self.owner)


class {Name}Store:
    """Every {name} by id, kept in memory; not safe to share between threads."""

    def __init__(self) -> None:
        self._records_by_id: dict[int, {Name}] = {{}}
        self._next_id = 1

    def create(self, owner: str) -> {Name}:
        record = {Name}(id=self._next_id, owner=owner)
        self._records_by_id[record.id] = record
        self._next_id += 1
        return record

    def get(self, record_id: int) -> {Name}:
        """The {name} with this id; NotFound if the store never held one."""
        if record_id not in self._records_by_id:
            raise NotFound(f"there is no {name} with id {{record_id}} in this store")
        return self._records_by_id[record_id]

    def stale(self, age: timedelta) -> list[{Name}]:
        """Open records created more than `age` ago, the oldest first."""
        now = datetime.now(timezone.utc)
        found = [r for r in self._records_by_id.values() if not r.closed and now - r.created > age]
        return sorted(found, key=lambda record: record.created)
'''

_NAMES = ("order", "invoice", "shipment", "payment", "refund")


def module_source() -> str:
    """A realistic Python module of 267 lines and 11 KB (generated, so every run is alike)."""
    blocks = [_BLOCK.format(Name=n.capitalize(), name=n) for n in _NAMES]
    return _HEADER + "\n".join(blocks)


def small_source() -> str:
    """A 40-line file for the latency calls."""
    return "".join(f"value_{i} = {i}\n" for i in range(40))


def make_root(parent: Path, name: str) -> Path:
    """A fresh root holding the two files, so each client starts from the same tree."""
    root = parent / name
    root.mkdir()
    (root / MODULE).write_text(module_source())
    (root / SMALL).write_text(small_source())
    return root


def child_env(state: Path) -> dict[str, str]:
    """The server child's environment: this tree first on the path, state kept in `state`."""
    path = os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")]))
    return {
        "PYTHONPATH": path,
        "PATH": os.environ.get("PATH", ""),
        "EDITTOOLS_STATE_DIR": str(state),
        "XDG_STATE_HOME": str(state),
    }


def server_args(root: Path) -> list[str]:
    return ["-m", "edittools.mcp_server", "--root", str(root)]


def read_args() -> dict[str, Any]:
    return {"path": MODULE}


def edit_args() -> dict[str, Any]:
    return {"path": MODULE, "old_string": OLD_LINE, "new_string": NEW_LINE}


def utf8(text: str) -> int:
    return len(text.encode("utf-8"))


def compact(value: Any) -> int:
    """Bytes of `value` as compact JSON (how a request body to a model carries tool definitions)."""
    return utf8(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


@dataclass
class Sizes:
    """Bytes per case for each view, and what the wire showed of each answer."""

    bytes: dict[tuple[str, str], int] = field(default_factory=dict)
    text: dict[str, int] = field(default_factory=dict)
    keys: dict[str, list[str]] = field(default_factory=dict)


# --- the wire: a raw line-by-line client -------------------------------------------------------


class RawStdio:
    """A server child spoken to in JSON-RPC lines, keeping each answer's raw bytes."""

    def __init__(self, root: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, *server_args(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=root,
        )
        self._id = 0

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> bytes:
        """The raw answer line to one request (notifications in between are skipped)."""
        self._id += 1
        self.send({"jsonrpc": "2.0", "id": self._id, "method": method, "params": params})
        assert self.process.stdout is not None
        while line := self.process.stdout.readline():
            if json.loads(line).get("id") == self._id:
                return line.rstrip(b"\r\n")
        raise RuntimeError(f"the server closed its output before answering {method}")

    def close(self) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)
        self.process.stdout.close()


def measure_wire(root: Path, env: dict[str, str], sizes: Sizes) -> None:
    """The raw stdio answers to `tools/list`, the read and the edit."""
    raw = RawStdio(root, env)
    try:
        raw.request(
            "initialize",
            {
                "protocolVersion": types.LATEST_PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "bench_wire", "version": "1"},
            },
        )
        raw.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        sizes.bytes["tools/list", "stdio"] = len(raw.request("tools/list", {}))
        for case, arguments in (("read", read_args()), ("edit", edit_args())):
            line = raw.request("tools/call", {"name": case, "arguments": arguments})
            result = json.loads(line)["result"]
            if result.get("isError"):
                raise RuntimeError(f"{case} failed: {result['content']}")
            sizes.bytes[case, "stdio"] = len(line)
            sizes.text[case] = sum(
                utf8(block["text"]) for block in result["content"] if block["type"] == "text"
            )
            sizes.keys[case] = sorted(result)
    finally:
        raw.close()


# --- pydantic-ai: what a FunctionModel is handed -----------------------------------------------


def measure_pydantic_ai(root: Path, env: dict[str, str], sizes: Sizes) -> None:
    """Run an agent whose scripted model reads then edits, and size what it was handed."""
    script = [("read", read_args()), ("edit", edit_args())]
    seen: list[ModelMessage] = []
    definitions: list[dict[str, Any]] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen[:] = messages
        definitions[:] = [
            {"name": t.name, "description": t.description, "parameters": t.parameters_json_schema}
            for t in info.function_tools
        ]
        step = sum(isinstance(m, ModelResponse) for m in messages)
        if step < len(script):
            name, arguments = script[step]
            return ModelResponse(parts=[ToolCallPart(name, arguments, tool_call_id=name)])
        return ModelResponse(parts=[TextPart("done")])

    transport = StdioTransport(
        sys.executable, server_args(root), env=env, cwd=str(root), keep_alive=False
    )
    agent = Agent(FunctionModel(model), toolsets=[MCPToolset(transport)])
    anyio.run(agent.run, "go")
    returns = {
        part.tool_call_id: part
        for message in seen
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    }
    for case in ("read", "edit"):
        sizes.bytes[case, "pydantic-ai"] = utf8(returns[case].model_response_str())
    sizes.bytes["tools/list", "pydantic-ai"] = compact(definitions)


# --- the OpenAI Agents SDK: what invoke_mcp_tool returns for the model ---------------------------


def agents_text(output: Any) -> str:
    """The text a model is given for a tool output: a string as is, or its text parts."""
    if isinstance(output, str):
        return output
    parts = output if isinstance(output, list) else [output]
    texts = [p.get("text") if isinstance(p, dict) else getattr(p, "text", None) for p in parts]
    return "\n".join(str(t) for t in texts if t is not None)


async def _agents_calls(server: MCPServerStdio, view: str, sizes: Sizes) -> None:
    async with server:
        tools = {t.name: t for t in await server.list_tools()}
        functions = [MCPUtil.to_function_tool(t, server, False) for t in tools.values()]
        sizes.bytes["tools/list", view] = compact(
            [
                {"name": f.name, "description": f.description, "parameters": f.params_json_schema}
                for f in functions
            ]
        )
        context = RunContextWrapper(context=None)
        for case, arguments in (("read", read_args()), ("edit", edit_args())):
            output = await MCPUtil.invoke_mcp_tool(
                server, tools[case], context, json.dumps(arguments)
            )
            sizes.bytes[case, view] = utf8(agents_text(output))


def measure_agents(parent: Path, env: dict[str, str], sizes: Sizes) -> None:
    """Both settings of `use_structured_content`, each on a fresh root."""
    for structured, view in ((False, "agents"), (True, "agents structured")):
        root = make_root(parent, view.replace(" ", "-"))
        params = {"command": sys.executable, "args": server_args(root), "env": env, "cwd": root}
        server = MCPServerStdio(
            params, use_structured_content=structured, client_session_timeout_seconds=60
        )
        anyio.run(_agents_calls, server, view, sizes)


# --- latency: the SDK client over stdio and over HTTP -------------------------------------------


@asynccontextmanager
async def stdio_session(root: Path, env: dict[str, str]) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable, args=server_args(root), env=env, cwd=root
    )
    with open(os.devnull, "w") as quiet:
        async with (
            stdio_client(params, errlog=quiet) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


@contextmanager
def http_server(root: Path, env: dict[str, str]) -> Iterator[tuple[str, str]]:
    """A `--http 127.0.0.1:0` child; yields its URL and the token it made (asked of every
    request, as a client in use sends it), and stops it (SIGTERM) at the end."""
    process = subprocess.Popen(
        [sys.executable, *server_args(root), "--http", "127.0.0.1:0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=root,
    )
    assert process.stderr is not None
    try:
        url = token = None
        while url is None and (line := process.stderr.readline()):
            if found := re.search(r"bearer token \(shown once\): (\S+)", line):
                token = found.group(1)
            if found := re.search(r"serving MCP at (\S+)", line):
                url = found.group(1)
        if url is None or token is None:
            raise RuntimeError("the HTTP server did not start (or printed no token)")
        # Keep reading its standard error so that a chatty server never blocks on it.
        threading.Thread(target=process.stderr.read, daemon=True).start()
        yield url, token
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)


@asynccontextmanager
async def http_session(url: str, token: str) -> AsyncIterator[ClientSession]:
    async with (
        httpx2.AsyncClient(headers={"authorization": f"Bearer {token}"}, timeout=60) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def _latency_calls(session: ClientSession, n: int) -> dict[str, list[float]]:
    read = ("read", {"path": SMALL})
    forth = ("edit", {"path": SMALL, "old_string": "value_20 = 20", "new_string": "value_20 = 0"})
    back = ("edit", {"path": SMALL, "old_string": "value_20 = 0", "new_string": "value_20 = 20"})
    await session.list_tools()
    times = {"read": await call_times(session, [read], n)}
    await session.call_tool(*read)
    times["edit"] = await call_times(session, [forth, back], n)
    return times


async def _over_stdio(root: Path, env: dict[str, str], n: int) -> dict[str, list[float]]:
    async with stdio_session(root, env) as session:
        return await _latency_calls(session, n)


async def _over_http(url: str, token: str, n: int) -> dict[str, list[float]]:
    async with http_session(url, token) as session:
        return await _latency_calls(session, n)


def measure_latency(parent: Path, env: dict[str, str], n: int) -> dict[str, dict[str, list[float]]]:
    """Call times per transport and case."""
    times = {"stdio": anyio.run(_over_stdio, make_root(parent, "stdio"), env, n)}
    with http_server(make_root(parent, "http"), env) as (url, token):
        times["http"] = anyio.run(_over_http, url, token, n)
    return times


# --- report ------------------------------------------------------------------------------------


def server_tree(env: dict[str, str]) -> str:
    """The folder the server child imports edittools from."""
    code = "import edittools, os; print(os.path.dirname(os.path.dirname(edittools.__file__)))"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1]


def print_sizes(sizes: Sizes) -> None:
    width = 24
    print(f"{'bytes per call':<12}{'text':>8}" + "".join(f"{v:>{width}}" for v in VIEWS))
    for case in CASES:
        text = sizes.text.get(case)
        row = f"{case:<12}{'-' if text is None else f'{text:,}':>8}"
        for view in VIEWS:
            value = sizes.bytes[case, view]
            cell = f"{value:,}" if text is None else f"{value:,} ({value / text:.2f}x)"
            row += f"{cell:>{width}}"
        print(row)
    print("(x: bytes / the answer's text blocks; tools/list: the definitions a model is given)")


def print_latency(times: dict[str, dict[str, list[float]]]) -> None:
    print(
        f"{'latency':<12}{'stdio p50':>12}{'p90':>10}{'HTTP p50':>12}{'p90':>10}{'HTTP/stdio':>12}"
    )
    for case in ("read", "edit"):
        stdio, http = times["stdio"][case], times["http"][case]
        ratio = statistics.median(http) / statistics.median(stdio)
        print(
            f"{case:<12}{statistics.median(stdio) * 1e3:>9.2f} ms{p90(stdio) * 1e3:>7.2f} ms"
            f"{statistics.median(http) * 1e3:>9.2f} ms{p90(http) * 1e3:>7.2f} ms{ratio:>11.2f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200, help="calls per latency case (200)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        parent = Path(tmp)
        env = child_env(parent / "state")
        source = module_source()
        print(f"server tree: {server_tree(env)}")
        print(f"module: {source.count(chr(10))} lines, {utf8(source):,} bytes")
        sizes = Sizes()
        measure_wire(make_root(parent, "wire"), env, sizes)
        measure_pydantic_ai(make_root(parent, "pydantic-ai"), env, sizes)
        measure_agents(parent, env, sizes)
        for case, keys in sizes.keys.items():
            print(f"{case} answer on the wire: {', '.join(keys)}")
        print()
        print_sizes(sizes)
        print()
        print_latency(measure_latency(parent, env, args.calls))


if __name__ == "__main__":
    main()
