"""A cancelled call is not made: `notifications/cancelled` from the SDK's client, over stdio."""

from __future__ import annotations

import hashlib
from pathlib import Path

import anyio
import mcp_types as types
import pytest
from mcp_harness import connected, text_of

from edittools import Session
from edittools.mcp_server import SURFACES, build_server, surface_tools, tool_definition
from edittools.mcp_server._server import CANCELLING

pytestmark = pytest.mark.integration

LINE = b"x = 'an ordinary line of python, repeated to make a large file'\n"
BIG = LINE * (36_000_000 // len(LINE)) + b"TARGET = 1\n"  # 36 MB


@pytest.mark.parametrize(
    "options",
    [
        pytest.param((), id="in-memory"),
        pytest.param(("--max-file-bytes", "1000000"), id="streamed"),
    ],
)
def test_an_edit_cancelled_before_its_commit_writes_nothing(
    tmp_path: Path, options: tuple[str, ...]
) -> None:
    (tmp_path / "big.py").write_bytes(BIG)
    (tmp_path / "small.txt").write_text("one\n")
    digest = hashlib.sha256(BIG).hexdigest()

    async def scenario() -> tuple[bool, types.CallToolResult, types.CallToolResult]:
        async with connected(tmp_path, options=options) as client:
            read = await client.call_tool("read", {"path": "big.py", "limit": 2})
            assert read.is_error is False, text_of(read)
            edit = {"path": "big.py", "old_string": "TARGET = 1", "new_string": "TARGET = 2"}
            # Leaving the scope cancels the call: the client sends notifications/cancelled.
            with anyio.move_on_after(0.03) as waiting:
                await client.call_tool("edit", edit)
            # The server goes on: a read, and a change of another file, are answered.
            again = await client.call_tool("read", {"path": "small.txt"})
            change = await client.call_tool(
                "edit", {"path": "small.txt", "old_string": "one", "new_string": "two"}
            )
            return waiting.cancelled_caught, again, change

    cancelled, again, change = anyio.run(scenario)
    assert cancelled, "the edit was answered within 30 ms: nothing was cancelled"
    assert again.is_error is False and "one" in text_of(again)
    assert change.is_error is False, text_of(change)
    assert (tmp_path / "small.txt").read_text() == "two\n"

    assert hashlib.sha256((tmp_path / "big.py").read_bytes()).hexdigest() == digest
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.py", "small.txt"]  # no temp left
    with Session(tmp_path) as session:
        edits = [e for e in session.journal() if e.name == "edit"]
        assert [e.is_error for e in edits] == [True, False]
        assert "Error (cancelled)" in edits[0].value
        assert "nothing was written" in edits[0].value
        undo = session.undo("big.py")  # no change to big.py was recorded either
        assert undo.is_error and "nothing_to_undo" in undo.value


def test_the_server_says_once_how_a_cancelled_call_ends(tmp_path: Path) -> None:
    with Session(tmp_path) as session:
        for surface in SURFACES:
            server = build_server(session, surface=surface)
            assert CANCELLING in (server.create_initialization_options().instructions or "")
            for tool in surface_tools(surface):
                assert CANCELLING not in (tool_definition(tool).description or "")


def test_calls_are_made_one_at_a_time_in_order(tmp_path: Path) -> None:
    """A change runs on a worker thread; a read sent meanwhile waits for it, as before."""
    (tmp_path / "big.py").write_bytes(BIG)
    last = BIG.count(b"\n")

    async def scenario() -> tuple[types.CallToolResult, types.CallToolResult]:
        async with connected(tmp_path) as client:
            await client.call_tool("read", {"path": "big.py", "limit": 2})
            results: dict[str, types.CallToolResult] = {}

            async def call(name: str, arguments: dict[str, object]) -> None:
                results[name] = await client.call_tool(name, arguments)

            edit: dict[str, object] = {
                "path": "big.py",
                "old_string": "TARGET = 1",
                "new_string": "TARGET = 2",
            }
            async with anyio.create_task_group() as calls:
                calls.start_soon(call, "edit", edit)
                await anyio.sleep(0.005)  # sent second, while the edit runs
                calls.start_soon(call, "read", {"path": "big.py", "offset": last})
            return results["edit"], results["read"]

    edit, read = anyio.run(scenario)
    assert edit.is_error is False, text_of(edit)
    assert "TARGET = 2" in text_of(read)
