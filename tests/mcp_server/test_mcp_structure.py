"""The tools by structure and anchor over MCP: offered on request (`--structure`), on our surface
only, called through the real stdio server."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import anyio
import mcp_types as types
from mcp_harness import PROJECT, connected, text_of

SOURCE = "class Parser:\n    def parse(self, text):\n        return text.split()\n"


def test_structure_adds_four_tools_that_work(root: Path) -> None:
    (root / "p.py").write_text(SOURCE)

    async def scenario() -> tuple[list[types.Tool], dict[str, types.CallToolResult]]:
        async with connected(root, options=["--structure"]) as client:
            tools = (await client.list_tools()).tools
            outline = await client.call_tool("symbols", {"path": "p.py"})
            shown = await client.call_tool("read_symbol", {"path": "p.py", "symbol": "parse"})
            body = {"path": "p.py", "symbol": "Parser.parse", "new_text": "return []"}
            edit = await client.call_tool("edit_symbol", {**body, "where": "body"})
            read = await client.call_tool("read", {"path": "p.py", "anchors": True})
            anchor = re.search(r"^(3#[0-9a-f]+)\|", text_of(read), re.M)
            assert anchor is not None, text_of(read)
            lines = await client.call_tool(
                "edit_lines",
                {
                    "path": "p.py",
                    "start": anchor.group(1),
                    "end": anchor.group(1),
                    "new_text": "        return [text]\n",
                },
            )
            calls = {"outline": outline, "shown": shown, "edit": edit, "lines": lines}
            return tools, calls

    tools, calls = anyio.run(scenario)
    assert [t.name for t in tools][6:] == ["symbols", "read_symbol", "edit_symbol", "edit_lines"]
    for name, result in calls.items():
        assert not result.is_error, (name, text_of(result))
    assert "2-3\t  method Parser.parse" in text_of(calls["outline"])
    assert (root / "p.py").read_text() == SOURCE.replace("text.split()", "[text]")


def test_without_structure_the_default_surface_has_its_six_tools(root: Path) -> None:
    async def scenario() -> list[str]:
        async with connected(root) as client:
            return [t.name for t in (await client.list_tools()).tools]

    assert anyio.run(scenario) == ["read", "write", "edit", "multi_edit", "apply_patch", "undo"]


def test_structure_on_another_surface_is_refused(root: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "edittools.mcp_server",
            "--root",
            str(root),
            "--structure",
            "--surface",
            "claude-code",
        ],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(PROJECT), "PATH": ""},
        timeout=60,
    )
    assert done.returncode == 2 and "--structure" in done.stderr
