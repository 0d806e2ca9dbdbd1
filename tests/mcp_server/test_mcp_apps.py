"""The change card offered over MCP: only to clients that declare MCP Apps, on every tool that
changes files, with the review tools the card calls; through the real stdio server."""

from __future__ import annotations

from pathlib import Path

import anyio
import mcp_types as types
from mcp_harness import connected, result_of, text_of

from edittools import Session
from edittools.mcp_server import build_server
from edittools.mcp_server._card import APPS_EXTENSION, CARD_MIME_TYPE, CARD_URI, card_html

APPS = {APPS_EXTENSION: {"mimeTypes": [CARD_MIME_TYPE]}}


def test_a_client_without_apps_sees_no_card_and_no_review_tools(root: Path) -> None:
    (root / "a.txt").write_text("one\n")

    async def scenario() -> tuple[list[types.Tool], list[types.Resource], types.CallToolResult]:
        async with connected(root) as client:
            tools = (await client.list_tools()).tools
            resources = (await client.list_resources()).resources
            reject = await client.call_tool("reject", {"path": "a.txt", "hunk": 0})
            return tools, resources, reject

    tools, resources, reject = anyio.run(scenario)
    assert [t.name for t in tools] == ["read", "write", "edit", "multi_edit", "apply_patch", "undo"]
    assert all(t.meta is None for t in tools)
    assert resources == []
    assert reject.is_error and "There is no tool 'reject'" in text_of(reject)


def test_a_client_with_apps_gets_the_card_on_changing_tools(root: Path) -> None:
    async def scenario() -> tuple[list[types.Tool], list[types.Resource], types.ReadResourceResult]:
        async with connected(root, extensions=APPS) as client:
            tools = (await client.list_tools()).tools
            resources = (await client.list_resources()).resources
            card = await client.read_resource(CARD_URI)
            return tools, resources, card

    tools, resources, card = anyio.run(scenario)
    ui = {t.name: (t.meta or {}).get("ui") for t in tools}
    assert ui == {
        "read": None,
        "write": {"resourceUri": CARD_URI},
        "edit": {"resourceUri": CARD_URI},
        "multi_edit": {"resourceUri": CARD_URI},
        "apply_patch": {"resourceUri": CARD_URI},
        "undo": {"resourceUri": CARD_URI},
        "changes": {"resourceUri": CARD_URI},
        "reject": {"resourceUri": CARD_URI, "visibility": ["app"]},  # the card's, not the model's
    }
    assert [(r.uri, r.mime_type) for r in resources] == [(CARD_URI, CARD_MIME_TYPE)]
    (contents,) = card.contents
    assert isinstance(contents, types.TextResourceContents)
    assert contents.mime_type == CARD_MIME_TYPE and contents.text == card_html()
    assert contents.meta is not None
    assert contents.meta["ui"]["csp"]["connectDomains"] == []


def test_the_server_declares_the_apps_extension(root: Path) -> None:
    with Session(root) as session:
        capabilities = build_server(session).create_initialization_options().capabilities
    assert capabilities.extensions == {APPS_EXTENSION: {}}


def test_a_review_through_the_server_takes_one_hunk_back(root: Path) -> None:
    lines = [f"line {n}\n" for n in range(1, 41)]
    (root / "a.txt").write_text("".join(lines))

    async def scenario() -> tuple[dict, types.CallToolResult]:
        async with connected(root, extensions=APPS) as client:
            await client.call_tool("read", {"path": "a.txt"})
            for n in (3, 30):
                edit = await client.call_tool(
                    "edit", {"path": "a.txt", "old_string": f"line {n}\n", "new_string": "X\n"}
                )
                assert not edit.is_error, text_of(edit)
            changes = result_of(await client.call_tool("changes", {}))
            reject = await client.call_tool("reject", {"path": "a.txt", "hunk": 1})
            return changes, reject

    changes, reject = anyio.run(scenario)
    (file,) = changes["artifact"]["payload"]["files"]
    assert file["path"] == "a.txt" and len(file["hunks"]) == 2
    assert not reject.is_error, text_of(reject)
    want = lines.copy()
    want[2] = "X\n"  # the first hunk stays; the second is taken back
    assert (root / "a.txt").read_text() == "".join(want)
