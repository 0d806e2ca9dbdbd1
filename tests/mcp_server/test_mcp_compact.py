"""What a client receives over MCP: compact results, contents as resources, images, policies."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import anyio
import mcp_types as types
import pytest
from mcp.shared.exceptions import MCPError
from mcp_harness import check_answer, connected, result_of, text_of
from PIL import Image

from edittools import Session, ToolError
from edittools.mcp_server import SURFACES

pytestmark = pytest.mark.integration

STRUCTURED_LIMIT = 4 * 1024
LIST_LIMIT = 32 * 1024


def big_source() -> str:
    """About 47 KB of Python, every line distinct."""
    lines = [f"def function_{n}(value):\n    return value * {n} + {n % 7}\n\n" for n in range(900)]
    text = "".join(lines)
    assert 46_000 < len(text.encode()) < 50_000
    return text


def wire_size(model: types.Result | dict[str, object]) -> int:
    """Bytes of a result as JSON on the wire (wire names, unset fields left out)."""
    if isinstance(model, dict):
        return len(json.dumps(model, separators=(",", ":"), ensure_ascii=False).encode())
    return len(model.model_dump_json(by_alias=True, exclude_none=True).encode())


def png(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buffer, format="PNG")
    return buffer.getvalue()


def test_one_line_edit_of_a_large_file_is_small_and_its_texts_are_resources(
    tmp_path: Path,
) -> None:
    source = big_source()
    (tmp_path / "big.py").write_text(source)

    async def scenario() -> tuple[types.CallToolResult, list[types.ResourceTemplate], str, str]:
        async with connected(tmp_path) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            await client.call_tool("read", {"path": "big.py"})
            edit = await client.call_tool(
                "edit",
                {
                    "path": "big.py",
                    "old_string": "return value * 450 +",
                    "new_string": "return 0 +",
                },
            )
            check_answer(edit, tools["edit"])
            payload = result_of(edit)["artifact"]["payload"]
            templates = (await client.list_resource_templates()).resource_templates
            old = await client.read_resource(f"edittools://blob/{payload['old_ref']}")
            new = await client.read_resource(f"edittools://blob/{payload['new_ref']}")
            texts = []
            for contents in (old, new):
                (block,) = contents.contents
                assert isinstance(block, types.TextResourceContents)
                texts.append(block.text)
            return edit, templates, texts[0], texts[1]

    edit, templates, old, new = anyio.run(scenario)
    assert edit.is_error is False, text_of(edit)
    assert wire_size(result_of(edit)) <= STRUCTURED_LIMIT
    payload = result_of(edit)["artifact"]["payload"]
    assert payload["old"] is None and payload["new"] is None and payload["truncated"] is True
    assert payload["stats"] == {"added": 1, "removed": 1}
    assert [t.uri_template for t in templates] == ["edittools://blob/{id}"]
    assert old == source
    assert new == (tmp_path / "big.py").read_text() != source


def test_inline_texts_puts_full_texts_back(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\n")

    async def scenario() -> types.CallToolResult:
        async with connected(tmp_path, options=["--inline-texts"]) as client:
            await client.call_tool("read", {"path": "a.txt"})
            return await client.call_tool(
                "edit", {"path": "a.txt", "old_string": "two", "new_string": "2"}
            )

    payload = result_of(anyio.run(scenario))["artifact"]["payload"]
    assert (payload["old"], payload["new"]) == ("one\ntwo\n", "one\n2\n")
    assert payload["truncated"] is False


def test_a_read_sends_its_text_once(tmp_path: Path) -> None:
    """The window goes in the text block alone: no structured content, and the artifact in
    `_meta` keeps only where the text is (its content's blob and lines)."""
    lines = [f"    value_{i} = compute(value_{i - 1}, {i})  # step {i}" for i in range(250)]
    source = "def run():\n" + "\n".join(lines) + "\n"
    (tmp_path / "mod.py").write_text(source)

    async def scenario() -> tuple[types.CallToolResult, str]:
        async with connected(tmp_path) as client:
            read = await client.call_tool("read", {"path": "mod.py"})
            payload = result_of(read)["artifact"]["payload"]
            blob = await client.read_resource(f"edittools://blob/{payload['text_ref']}")
            (block,) = blob.contents
            assert isinstance(block, types.TextResourceContents)
            return read, block.text

    read, kept = anyio.run(scenario)
    assert len(source) > 11_000
    text = text_of(read)
    assert read.structured_content is None
    assert wire_size(read) <= 1.1 * len(text.encode()) + 1024
    payload = result_of(read)["artifact"]["payload"]
    assert payload["text"] == ""
    assert (payload["start_line"], payload["end_line"]) == (1, 251)
    assert kept == source  # the window is lines start_line..end_line of this content


def test_the_default_tool_list_fits_in_6_kb(tmp_path: Path) -> None:
    async def scenario() -> types.ListToolsResult:
        async with connected(tmp_path) as client:
            return await client.list_tools()

    assert wire_size(anyio.run(scenario)) <= 6 * 1024


@pytest.mark.parametrize("surface", list(SURFACES))
def test_tool_list_is_small_on_every_surface(tmp_path: Path, surface: str) -> None:
    async def scenario() -> types.ListToolsResult:
        async with connected(tmp_path, surface) as client:
            return await client.list_tools()

    listing = anyio.run(scenario)
    assert wire_size(listing) <= LIST_LIMIT
    for tool in listing.tools:
        assert tool.output_schema is None
        assert "$defs" not in json.dumps(tool.input_schema)


def test_unknown_or_hostile_resource_ids_are_errors_and_the_server_keeps_serving(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.txt").write_text("a\n")
    ids = ["0" * 64, "../../../etc/passwd", "%2e%2e/state", "", "A" * 64]

    async def scenario() -> tuple[list[str], types.CallToolResult]:
        messages = []
        async with connected(tmp_path) as client:
            for blob_id in ids:
                with pytest.raises(MCPError) as caught:
                    await client.read_resource(f"edittools://blob/{blob_id}")
                messages.append(caught.value.error.message)
            with pytest.raises(MCPError):
                await client.read_resource("file:///etc/passwd")
            return messages, await client.call_tool("read", {"path": "a.txt"})

    messages, read = anyio.run(scenario)
    assert all("No stored content" in m for m in messages)
    assert read.is_error is False


def test_read_image_sends_the_model_a_scaled_image_block(tmp_path: Path) -> None:
    (tmp_path / "wide.png").write_bytes(png(3200, 800))
    (tmp_path / "small.png").write_bytes(png(40, 20))

    async def scenario() -> tuple[dict[str, types.CallToolResult], types.ReadResourceResult]:
        async with connected(tmp_path) as client:
            results = {
                name: await client.call_tool("read", {"path": name})
                for name in ("wide.png", "small.png")
            }
            payload = result_of(results["wide.png"])["artifact"]["payload"]
            blob_id = payload["images"][0]["attachment"]["id"]
            return results, await client.read_resource(f"edittools://blob/{blob_id}")

    results, original = anyio.run(scenario)
    (contents,) = original.contents  # the host fetches the full-size bytes by attachment id
    assert isinstance(contents, types.BlobResourceContents) and contents.mime_type == "image/png"
    assert base64.b64decode(contents.blob) == (tmp_path / "wide.png").read_bytes()
    sizes = {}
    for name, result in results.items():
        assert result.is_error is False
        text, image = result.content
        assert isinstance(text, types.TextContent) and name in text.text
        assert isinstance(image, types.ImageContent)
        sizes[name] = Image.open(io.BytesIO(base64.b64decode(image.data))).size
        attachment = result_of(result)["artifact"]["payload"]["images"][0]["attachment"]
        assert attachment["id"] in text.text
    assert sizes["wide.png"] == (1568, 392)  # long side capped, aspect kept
    assert sizes["small.png"] == (40, 20)  # small enough: sent as it is


def test_image_limits_are_configurable(tmp_path: Path) -> None:
    (tmp_path / "square.png").write_bytes(png(500, 500))

    async def scenario() -> types.CallToolResult:
        async with connected(tmp_path, options=["--image-max-side", "100"]) as client:
            return await client.call_tool("read", {"path": "square.png"})

    image = anyio.run(scenario).content[1]
    assert isinstance(image, types.ImageContent)
    assert Image.open(io.BytesIO(base64.b64decode(image.data))).size == (100, 100)


def test_serve_policies_reach_the_session(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("say  hello\n")
    (tmp_path / "big.txt").write_text("x" * 5000)

    async def scenario() -> list[types.CallToolResult]:
        flags = ["--no-require-read", "--strict", "--max-file-bytes", "1000", "--deny", "*.env"]
        (tmp_path / "k.env").write_text("KEY=1\n")
        async with connected(tmp_path, options=flags) as client:
            return [
                # no read first: allowed with --no-require-read; strict refuses the tolerance
                await client.call_tool(
                    "edit", {"path": "a.txt", "old_string": "say hello", "new_string": "hi"}
                ),
                await client.call_tool(
                    "edit", {"path": "a.txt", "old_string": "say  hello", "new_string": "hi"}
                ),
                await client.call_tool("write", {"path": "big.txt", "content": "y"}),
                await client.call_tool("read", {"path": "k.env"}),
            ]

    tolerant, exact, big, denied = anyio.run(scenario)
    assert result_of(tolerant)["artifact"]["payload"]["code"] == "no_match"
    assert exact.is_error is False, text_of(exact)
    assert (tmp_path / "a.txt").read_text() == "hi\n"
    assert result_of(big)["artifact"]["payload"]["code"] == "too_large"
    assert result_of(denied)["artifact"]["payload"]["code"] == "denied"


def test_session_blob_returns_referenced_contents_and_refuses_unknown_ids(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\n")
    (tmp_path / "p.png").write_bytes(png(3, 2))
    with Session(tmp_path) as session:
        session.read("a.txt")
        payload = session.edit("a.txt", "one", "two").artifact.payload
        assert session.blob(payload.old_ref) == b"one\n"
        assert session.blob(payload.new_ref) == b"two\n"
        image = session.read("p.png").artifact.payload.images[0]
        assert session.blob(image.attachment.id) == (tmp_path / "p.png").read_bytes()
        for bad in ["0" * 64, "../a.txt", "a.txt", str(tmp_path / "a.txt"), "", None]:
            with pytest.raises(ToolError) as caught:
                session.blob(bad)  # type: ignore[arg-type]
            assert caught.value.code == "unknown_ref"


@pytest.mark.parametrize(("mode", "code"), [("legacy", -32002), ("2026-07-28", -32602)])
def test_a_missing_resource_is_worded_as_the_connection_s_revision_asks(
    tmp_path: Path, mode: str, code: int
) -> None:
    """Before 2026-07-28 a missing resource is -32002; from that revision on, -32602. Both
    carry the resource's uri in `data`."""
    from mcp import Client

    from edittools import Session
    from edittools.mcp_server import build_server

    uri = "edittools://blob/" + "0" * 64

    async def scenario(session: Session) -> MCPError:
        async with Client(build_server(session), mode=mode) as client:
            with pytest.raises(MCPError) as caught:
                await client.read_resource(uri)
            return caught.value

    with Session(tmp_path) as session:
        error = anyio.run(scenario, session)
    assert error.error.code == code
    assert error.error.data == {"code": "unknown_ref", "uri": uri}
