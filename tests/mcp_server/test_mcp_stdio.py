"""The MCP server as a real child process, driven over stdio by the SDK's own client."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import anyio
import mcp_types as types
import pytest
from mcp_harness import check_answer, connected, result_of, text_of

from edittools import Session
from edittools.artifacts import ToolResult
from edittools.tools import TOOLS, input_schema

pytestmark = pytest.mark.integration

SOURCE = "def greet(name):\n    return 'hello ' + name\n\n\nprint(greet('world'))\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "app.py").write_text(SOURCE)
    (tmp_path / "notes.txt").write_text("one\ntwo\nthree\n")
    return tmp_path


def git_apply_check(root: Path, patch: str, *, reverse: bool = False) -> None:
    """Assert `patch` applies (or, with `reverse`, was applied) to the files under `root`, by git."""
    done = subprocess.run(
        ["git", "apply", "--check", *(["-R"] if reverse else []), "-"],
        input=patch.encode(),
        cwd=root,
        capture_output=True,
    )
    assert done.returncode == 0, done.stderr.decode()


def test_default_surface_lists_tools_with_schemas_and_honest_hints(root: Path) -> None:
    async def scenario() -> list[types.Tool]:
        async with connected(root) as client:
            return (await client.list_tools()).tools

    tools = anyio.run(scenario)
    assert [t.name for t in tools] == ["read", "write", "edit", "multi_edit", "apply_patch", "undo"]
    for tool in tools:
        spec = TOOLS[tool.name]
        assert tool.description == spec.description
        assert tool.title
        assert tool.input_schema["type"] == "object"
        assert tool.input_schema == input_schema(spec.params)
        assert "$ref" not in json.dumps(tool.input_schema)
        assert tool.output_schema is None  # the result rides in _meta: no structured content
        hints = tool.annotations
        assert hints is not None
        assert hints.read_only_hint is spec.read_only
        assert hints.destructive_hint is spec.destructive
        assert hints.idempotent_hint is spec.idempotent
        assert hints.open_world_hint is False
    by_name = {t.name: t.annotations for t in tools}
    assert by_name["read"].read_only_hint is True
    assert by_name["edit"].read_only_hint is False


def test_default_surface_read_edit_fail_patch_undo_round_trip(root: Path) -> None:
    patch = "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n"

    async def scenario() -> dict[str, types.CallToolResult]:
        async with connected(root) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            calls = {
                "read": ("read", {"path": str(root / "app.py")}),  # absolute, inside the root
                "edit": (
                    "edit",
                    {"path": "app.py", "old_string": "'hello '", "new_string": "'hi '"},
                ),
                "miss": (
                    "edit",
                    {"path": "app.py", "old_string": "no such text", "new_string": "x"},
                ),
                "bad_args": ("edit", {"path": "app.py", "old_string": 3}),
                "read_notes": ("read", {"path": "notes.txt"}),
                "patch": ("apply_patch", {"patch": patch}),
                "undo": ("undo", {"path": "app.py"}),
                "no_tool": ("delete_everything", {"path": "app.py"}),
            }
            results = {}
            for key, (name, arguments) in calls.items():
                result = await client.call_tool(name, arguments)
                assert isinstance(result, types.CallToolResult)
                if name in tools:
                    check_answer(result, tools[name])
                results[key] = result
            return results

    results = anyio.run(scenario)

    read = results["read"]
    assert read.is_error is False
    assert "     1\tdef greet(name):" in text_of(read)
    artifact = result_of(read)["artifact"]
    assert artifact["kind"] == "code" and artifact["payload"]["total_lines"] == 5

    edit = results["edit"]
    assert edit.is_error is False
    diff = result_of(edit)["artifact"]
    assert diff["kind"] == "diff" and diff["payload"]["path"] == "app.py"
    assert diff["payload"]["stats"] == {"added": 1, "removed": 1}
    assert "-    return 'hello ' + name\n+    return 'hi ' + name\n" in diff["payload"]["unified"]
    assert ToolResult.model_validate(result_of(edit)).artifact.kind == "diff"

    miss = results["miss"]
    assert miss.is_error is True
    error = result_of(miss)["artifact"]
    assert error["kind"] == "error" and error["status"] == "error"
    assert error["payload"]["code"] == "no_match"
    assert error["payload"]["message"] in text_of(miss)  # the message reaches the model intact
    assert "not found" in error["payload"]["message"]

    bad = results["bad_args"]
    assert bad.is_error is True
    assert result_of(bad)["artifact"]["payload"]["code"] == "invalid_arguments"
    assert "old_string" in text_of(bad) and "new_string" in text_of(bad)

    patched = results["patch"]
    assert patched.is_error is False, text_of(patched)
    assert (root / "notes.txt").read_text() == "one\nTWO\nthree\n"
    assert result_of(results["patch"])["artifact"]["kind"] in {"diff", "changeset"}

    assert results["undo"].is_error is False, text_of(results["undo"])
    assert (root / "app.py").read_text() == SOURCE

    no_tool = results["no_tool"]
    assert no_tool.is_error is True
    assert result_of(no_tool)["artifact"]["payload"]["code"] == "invalid_arguments"
    assert "delete_everything" in text_of(no_tool)


def test_claude_code_surface_read_then_edit(root: Path) -> None:
    async def scenario() -> tuple[list[str], types.CallToolResult, types.CallToolResult]:
        async with connected(root, "claude-code") as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            read = await client.call_tool("Read", {"file_path": str(root / "app.py"), "limit": 2})
            edit = await client.call_tool(
                "Edit",
                {
                    "file_path": str(root / "app.py"),
                    "old_string": "greet",
                    "new_string": "welcome",
                    "replace_all": True,
                },
            )
            check_answer(read, tools["Read"])
            check_answer(edit, tools["Edit"])
            return list(tools), read, edit

    names, read, edit = anyio.run(scenario)
    assert names == ["Read", "Write", "Edit", "NotebookEdit"]
    assert read.is_error is False
    assert text_of(read).startswith("     1\tdef greet(name):\n     2\t")
    assert "Use offset=3 to read more" in text_of(read)
    assert edit.is_error is False, text_of(edit)
    assert (root / "app.py").read_text() == SOURCE.replace("greet", "welcome")


def test_claude_code_surface_edits_a_notebook_cell(root: Path) -> None:
    cells = [{"cell_type": "code", "execution_count": 2, "id": "c1-abcdef", "metadata": {},
              "outputs": [{"name": "stdout", "output_type": "stream", "text": ["2\n"]}],
              "source": ["1 + 1"]}]  # fmt: skip
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    text = json.dumps(notebook, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    (root / "n.ipynb").write_text(text)

    async def scenario() -> types.CallToolResult:
        async with connected(root, "claude-code") as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            await client.call_tool("Read", {"file_path": str(root / "n.ipynb")})
            arguments = {"notebook_path": "n.ipynb", "cell_id": "c1-abcdef", "new_source": "2 + 2"}
            edit = await client.call_tool("NotebookEdit", arguments)
            check_answer(edit, tools["NotebookEdit"])
            return edit

    edit = anyio.run(scenario)
    assert edit.is_error is False, text_of(edit)
    assert result_of(edit)["artifact"]["kind"] == "diff"
    cells[0]["source"] = ["2 + 2"]  # its outputs and execution count kept
    want = json.dumps(notebook, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    assert (root / "n.ipynb").read_text() == want


def test_anthropic_surface_view_insert_and_replace(root: Path) -> None:
    tool = "str_replace_based_edit_tool"

    async def scenario() -> list[types.CallToolResult]:
        async with connected(root, "anthropic") as client:
            listed = (await client.list_tools()).tools
            assert [t.name for t in listed] == [tool]
            calls = [
                {"command": "view", "path": "."},
                {"command": "view", "path": "notes.txt", "view_range": [2, -1]},
                {"command": "insert", "path": "notes.txt", "insert_line": 1, "insert_text": "1.5"},
                {"command": "str_replace", "path": "notes.txt", "old_str": "three", "new_str": "3"},
                {"command": "str_replace", "path": "notes.txt", "old_str": "four", "new_str": "4"},
            ]
            results = []
            for arguments in calls:
                result = await client.call_tool(tool, arguments)
                check_answer(result, listed[0])
                results.append(result)
            return results

    listing, view, insert, replace, miss = anyio.run(scenario)
    assert text_of(listing).splitlines()[1:] == ["app.py", "notes.txt"]
    assert text_of(view).startswith("     2\ttwo\n     3\tthree")
    assert insert.is_error is False, text_of(insert)
    assert replace.is_error is False, text_of(replace)
    assert (root / "notes.txt").read_text() == "one\n1.5\ntwo\n3\n"
    assert miss.is_error is True
    assert result_of(miss)["artifact"]["payload"]["code"] == "no_match"


def test_mcp_filesystem_surface_read_then_edit_with_a_git_style_diff(root: Path) -> None:
    edits = [{"oldText": "two", "newText": "2"}]

    async def scenario() -> tuple[list[types.CallToolResult], str]:
        async with connected(root, "mcp-filesystem") as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert list(tools) == ["read_text_file", "write_file", "edit_file"]
            calls = [
                ("read_text_file", {"path": "notes.txt", "tail": 2}),
                ("edit_file", {"path": "notes.txt", "edits": edits, "dryRun": True}),
                ("edit_file", {"path": "notes.txt", "edits": edits}),
            ]
            results = []
            for name, arguments in calls:
                result = await client.call_tool(name, arguments)
                check_answer(result, tools[name])
                results.append(result)
                if len(results) == 2:
                    after_dry_run = (root / "notes.txt").read_text()
            return results, after_dry_run

    (tail, dry, real), after_dry_run = anyio.run(scenario)
    assert after_dry_run == "one\ntwo\nthree\n"
    assert text_of(tail).startswith("     2\ttwo\n     3\tthree")
    unified = result_of(dry)["artifact"]["payload"]["unified"]
    assert text_of(dry) == (
        f"Dry run: would edit notes.txt (+1 -1); nothing was written.\n\n```diff\n{unified}```"
    )
    assert unified.startswith("diff --git a/notes.txt b/notes.txt\n")
    assert real.is_error is False
    assert f"```diff\n{unified}```" in text_of(real)
    assert (root / "notes.txt").read_text() == "one\n2\nthree\n"
    git_apply_check(root, unified, reverse=True)  # the diff shown is the change made


def test_codex_surface_reads_nothing_and_applies_a_patch(root: Path) -> None:
    patch = (
        "*** Begin Patch\n*** Update File: notes.txt\n@@\n one\n-two\n+zwei\n three\n"
        "*** Add File: new.txt\n+fresh\n*** End Patch\n"
    )

    async def scenario() -> tuple[list[types.Tool], types.CallToolResult]:
        async with connected(root, "codex") as client:
            tools = (await client.list_tools()).tools
            result = await client.call_tool("apply_patch", {"input": patch})
            check_answer(result, tools[0])
            return tools, result

    tools, result = anyio.run(scenario)
    assert [t.name for t in tools] == ["apply_patch"]
    assert tools[0].input_schema["required"] == ["input"]
    assert result.is_error is False, text_of(result)
    assert (root / "notes.txt").read_text() == "one\nzwei\nthree\n"
    assert (root / "new.txt").read_text() == "fresh\n"


def test_a_change_that_breaks_the_syntax_carries_the_warning_or_is_refused(root: Path) -> None:
    broken = {"path": "app.py", "old_string": "def greet(name):", "new_string": "def greet(name)"}

    async def scenario(options: list[str]) -> tuple[types.CallToolResult, dict[str, object]]:
        async with connected(root, options=options) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            await client.call_tool("read", {"path": "app.py"})
            result = await client.call_tool("edit", broken)
            return result, check_answer(result, tools["edit"])

    result, data = anyio.run(scenario, ["--syntax-check", "refuse"])
    assert result.is_error and "syntax_error" in text_of(result)
    assert data["artifact"]["payload"]["code"] == "syntax_error"  # type: ignore[index]
    assert (root / "app.py").read_text() == SOURCE

    result, data = anyio.run(scenario, [])
    assert not result.is_error
    assert "no longer parses as Python" in text_of(result) and "was kept" in text_of(result)
    (diagnostic,) = data["artifact"]["payload"]["diagnostics"]  # type: ignore[index]
    assert (diagnostic["line"], diagnostic["source"]) == (1, "syntax")
    assert (root / "app.py").read_text() == SOURCE.replace("def greet(name):", "def greet(name)")


def test_a_read_in_one_server_counts_for_an_edit_in_the_next_one_per_call(root: Path) -> None:
    # As the Inspector's CLI does: a fresh server for every call, each exiting normally.
    async def call(name: str, arguments: dict[str, object]) -> types.CallToolResult:
        async with connected(root) as client:
            return await client.call_tool(name, arguments)

    async def scenario() -> list[types.CallToolResult]:
        first = await call("read", {"path": "app.py"})
        again = await call("read", {"path": "app.py"})  # unchanged: its record stays as it was
        edit = await call("edit", {"path": "app.py", "old_string": "hello", "new_string": "hi"})
        return [first, again, edit]

    results = anyio.run(scenario)
    assert [r.is_error for r in results] == [False, False, False], text_of(results[-1])
    assert (root / "app.py").read_text() == SOURCE.replace("hello", "hi")


def test_requests_sent_together_are_all_answered(root: Path) -> None:
    # Calls run one at a time on the server's event loop: whatever arrives meanwhile waits for
    # its turn and is answered, in any mix of tools, listings and pings.
    async def scenario() -> tuple[list[types.CallToolResult], int]:
        results: list[types.CallToolResult] = []
        listed: list[int] = []
        async with connected(root) as client:
            await client.list_tools()

            async def read(path: str) -> None:
                results.append(await client.call_tool("read", {"path": path}))

            async def listing() -> None:
                listed.append(len((await client.list_tools()).tools))
                await client.send_ping()

            with anyio.fail_after(60):
                async with anyio.create_task_group() as tasks:
                    for _ in range(5):
                        tasks.start_soon(read, "app.py")
                        tasks.start_soon(listing)
                        tasks.start_soon(read, "notes.txt")
        return results, sum(listed)

    results, listed = anyio.run(scenario)
    assert len(results) == 10 and not any(r.is_error for r in results)
    assert sorted(text_of(r).splitlines()[0] for r in results).count("     1\tone") == 5
    assert listed == 5 * 6


def test_the_client_s_name_is_the_actor_of_its_changes(root: Path) -> None:
    async def scenario() -> types.CallToolResult:
        async with connected(root) as client:  # the SDK's client says its name is "mcp"
            await client.call_tool("read", {"path": "app.py"})
            return await client.call_tool(
                "edit", {"path": "app.py", "old_string": "hello", "new_string": "hi"}
            )

    assert not anyio.run(scenario).is_error
    with Session(root) as s:
        assert [e.name for e in s.journal(agent="mcp")] == ["read", "edit"]
        changed = [b for b in s.blame("app.py") if b.origin.kind == "tools"]
    assert changed and all(b.origin.actor == "mcp" for b in changed)
