"""MCP latency and start-up, side by side: edittools' server, a minimal server on the same SDK, and
the reference filesystem server (node), all driven by the same SDK stdio client in one run.

    python benchmarks/bench_mcp.py [--calls 200] [--starts 5]

The reference server is the npm package `@modelcontextprotocol/server-filesystem`; set
`MCP_REFERENCE_SERVER` to its executable, or have `npx` able to run it offline from a local install
(`npm install @modelcontextprotocol/server-filesystem` in some folder, then point the variable at
`node_modules/.bin/mcp-server-filesystem`). Without it, that column is skipped with a note.

Per-call latency: the median wall time of `call_tool` over reads and one-line edits of a small and a
10,000-line file; the summary is the geometric mean over those four cases, as a ratio to the
reference. Our server syncs every write to disk; the reference does not.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import sys
import tempfile
import textwrap
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

PROJECT = Path(__file__).resolve().parents[1]

MINIMAL_SERVER = textwrap.dedent(
    '''
    """One tool on the SDK's low-level server: read a file. The floor for any server on this SDK."""
    import sys
    from pathlib import Path

    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    ROOT = Path(sys.argv[1])


    async def list_tools(ctx, params):
        schema = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
        return types.ListToolsResult(
            tools=[types.Tool(name="read", description="Read a file.", input_schema=schema)]
        )


    async def call_tool(ctx, params):
        text = (ROOT / params.arguments["path"]).read_text(encoding="utf-8")
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


    async def main():
        server = Server("minimal", on_list_tools=list_tools, on_call_tool=call_tool)
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())


    anyio.run(main)
    '''
)


def _env() -> dict[str, str]:
    path = os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")]))
    return {"PYTHONPATH": path, "PATH": os.environ.get("PATH", "")}


class Server:
    """How to start one server and how to phrase the four calls for it."""

    def __init__(self, name: str, params: StdioServerParameters, root: Path) -> None:
        self.name = name
        self.params = params
        self.root = root

    def read_call(self, rel: str) -> tuple[str, dict[str, Any]]:
        if self.name == "reference":
            return "read_text_file", {"path": str(self.root / rel)}
        return "read", {"path": rel}

    def edit_call(self, rel: str, old: str, new: str) -> tuple[str, dict[str, Any]] | None:
        if self.name == "reference":
            return "edit_file", {
                "path": str(self.root / rel),
                "edits": [{"oldText": old, "newText": new}],
            }
        if self.name.startswith("edittools"):
            return "edit", {"path": rel, "old_string": old, "new_string": new}
        return None


async def _timed_session(server: Server, body: Callable[[ClientSession], Awaitable[None]]) -> float:
    """Seconds from spawning the server to a finished `initialize`; then runs `body`."""
    with open(os.devnull, "w") as quiet:
        start = time.perf_counter()
        async with (
            stdio_client(server.params, errlog=quiet) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            ready = time.perf_counter() - start
            await body(session)
    return ready


async def call_times(
    session: ClientSession, calls: list[tuple[str, dict[str, Any]]], n: int
) -> list[float]:
    """Wall times of `n` calls, taking `calls` in turn; a failed call stops the run."""
    times = []
    for i in range(n):
        name, arguments = calls[i % len(calls)]
        start = time.perf_counter()
        result = await session.call_tool(name, arguments)
        times.append(time.perf_counter() - start)
        if result.is_error:
            raise RuntimeError(f"{name} failed: {result.content}")
    return times


async def _median_call(
    session: ClientSession, calls: list[tuple[str, dict[str, Any]]], n: int
) -> float:
    return statistics.median(await call_times(session, calls, n))


def _make_tree(root: Path) -> None:
    (root / "small.py").write_text("".join(f"value_{i} = {i}\n" for i in range(40)))
    (root / "big.py").write_text(
        "".join(f"line_{i} = {i} * 2  # some text\n" for i in range(10_000))
    )


async def _measure(server: Server, calls: int) -> dict[str, float]:
    results: dict[str, float] = {}

    async def body(session: ClientSession) -> None:
        await session.list_tools()
        for label, rel, needle in (
            ("small", "small.py", "value_20 = 20"),
            ("10k", "big.py", "line_5000 = 5000 * 2"),
        ):
            results[f"read {label}"] = await _median_call(session, [server.read_call(rel)], calls)
            forth = server.edit_call(rel, needle, needle + "  # edited")
            back = server.edit_call(rel, needle + "  # edited", needle)
            if forth is not None and back is not None:
                if server.name.startswith("edittools"):
                    await session.call_tool(*server.read_call(rel))
                results[f"edit {label}"] = await _median_call(session, [forth, back], calls)

    results["start"] = await _timed_session(server, body)
    return results


async def _startup(server: Server, starts: int) -> float:
    async def nothing(session: ClientSession) -> None:
        return None

    return statistics.median([await _timed_session(server, nothing) for _ in range(starts)])


def _reference_command() -> list[str] | None:
    explicit = os.environ.get("MCP_REFERENCE_SERVER")
    if explicit:
        return [explicit]
    found = shutil.which("mcp-server-filesystem")
    return [found] if found else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200, help="calls per case (default 200)")
    parser.add_argument(
        "--starts", type=int, default=5, help="start-ups timed per server (default 5)"
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "root"
        root.mkdir()
        _make_tree(root)
        minimal = Path(tmp) / "minimal_server.py"
        minimal.write_text(MINIMAL_SERVER)
        state = Path(tmp) / "state"
        env = _env() | {"EDITTOOLS_STATE_DIR": str(state), "XDG_STATE_HOME": str(state)}
        serve = ["-m", "edittools.cli", "serve", "--root", str(root)]
        servers = [
            Server(
                "edittools",
                StdioServerParameters(command=sys.executable, args=serve, env=env, cwd=str(root)),
                root,
            ),
            # The syntax check (on by default, warn) parses the file on each change; this column
            # shows the tools without it.
            Server(
                "edittools -S",
                StdioServerParameters(
                    command=sys.executable,
                    args=[*serve, "--syntax-check", "off"],
                    env=env,
                    cwd=str(root),
                ),
                root,
            ),
            Server(
                "minimal SDK",
                StdioServerParameters(
                    command=sys.executable, args=[str(minimal), str(root)], env=env
                ),
                root,
            ),
        ]
        reference = _reference_command()
        if reference is None:
            print(
                "note: reference server not found (set MCP_REFERENCE_SERVER); its column is skipped"
            )
        else:
            servers.append(
                Server(
                    "reference",
                    StdioServerParameters(
                        command=reference[0], args=[*reference[1:], str(root)], env=env
                    ),
                    root,
                )
            )

        table: dict[str, dict[str, float]] = {}
        for server in servers:
            table[server.name] = anyio.run(_measure, server, args.calls)
            table[server.name]["start"] = anyio.run(_startup, server, args.starts)

    cases = ["start", "read small", "read 10k", "edit small", "edit 10k"]
    names = [s.name for s in servers]
    print(f"{'case':<12}" + "".join(f"{n:>14}" for n in names))
    for case in cases:
        row = f"{case:<12}"
        for n in names:
            value = table[n].get(case)
            row += f"{'-':>14}" if value is None else f"{value * 1000:>11.2f} ms"
        print(row)
    calls = ["read small", "read 10k", "edit small", "edit 10k"]
    if "reference" in table:
        for ours in ("edittools", "edittools -S"):
            ratios = [table[ours][c] / table["reference"][c] for c in calls]
            geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
            print(f"per-call latency, geometric mean, {ours} / reference: {geo:.2f}x")
    reads = ["read small", "read 10k"]
    overhead = statistics.mean(table["edittools"][c] - table["minimal SDK"][c] for c in reads)
    print(f"edittools read over the minimal SDK server (mean of reads): {overhead * 1000:+.2f} ms")


if __name__ == "__main__":
    main()
