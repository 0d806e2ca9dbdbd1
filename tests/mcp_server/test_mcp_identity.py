"""Who a request over `serve --http` is: the agent its token is mapped to, else the name its
client declares (`_meta["edittools/agent"]`, else `clientInfo.name`), with its session under
`--agent-per-session`. A client that opens a session per call can read, then edit; two names
keep two read records; a token's agent cannot be spoken for by another token's holder; a
`not_read` says which agent was judged and whose reads count."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from http_harness import (
    HEADERS,
    MODERN,
    Served,
    client,
    messages,
    rpc,
    served,
    stateless_call,
    text,
)

from edittools import Session

pytestmark = pytest.mark.integration

_EDIT = {"path": "a.py", "old_string": "x = 1", "new_string": "x = 2"}
_ALICE = "alice-token-0123456789"
_BOB = "bob-token-0123456789ab"
_ANYONE = "anyone-token-0123456789"


async def _call(
    server: Served,
    name: str,
    tool: str,
    arguments: dict[str, Any],
    *,
    headers: dict[str, str] | None = None,
    meta: dict[str, Any] | None = None,
) -> tuple[bool, str]:
    """One call on a session of its own (opened, initialised, closed), as a client that opens a
    session per call makes it: whether it failed, and its text."""
    async with client(server.url, name, server.auth if headers is None else headers) as s:
        result = await s.call_tool(tool, arguments, meta=meta)
        return bool(result.is_error), text(result)


def _actors(root: Path) -> list[str | None]:
    with Session(root) as s:
        return [change.actor for change in s.workspace.history("a.py")]


def test_a_client_that_opens_a_session_per_call_reads_then_edits(root: Path) -> None:
    # Found: each session was its own agent, so such a client got not_read on every edit.
    (root / "a.py").write_text("x = 1\n")

    async def run(server: Served) -> tuple[bool, str]:
        await _call(server, "per-call", "read", {"path": "a.py"})
        return await _call(server, "per-call", "edit", _EDIT)

    with served(root) as server:
        failed, said = anyio.run(run, server)
    assert not failed, said
    assert (root / "a.py").read_text() == "x = 2\n"
    assert _actors(root) == ["per-call"]


def test_two_declared_names_keep_two_read_records(root: Path) -> None:
    (root / "a.py").write_text("x = 1\n")

    async def run(server: Served) -> list[tuple[bool, str]]:
        await _call(server, "alice", "read", {"path": "a.py"})
        by_bob = await _call(server, "bob", "edit", _EDIT)
        # A name given per request wins over the client's: here alice reads, bob edits.
        await _call(server, "mcp", "read", {"path": "a.py"}, meta={"edittools/agent": "carol"})
        as_dave = await _call(server, "mcp", "edit", _EDIT, meta={"edittools/agent": "dave"})
        as_carol = await _call(server, "mcp", "edit", _EDIT, meta={"edittools/agent": "carol"})
        return [by_bob, as_dave, as_carol]

    with served(root) as server:
        (bob_failed, bob_said), (dave_failed, dave_said), (carol_failed, said) = anyio.run(
            run, server
        )
    assert bob_failed and "(not_read)" in bob_said
    assert "taken as agent `bob`, the name its client declares" in bob_said, bob_said
    assert "every request that declares that name" in bob_said
    assert dave_failed and "agent `dave`" in dave_said, dave_said
    assert not carol_failed, said
    assert _actors(root) == ["carol"]


def test_a_token_mapped_to_an_agent_cannot_be_spoken_for_by_another_token(
    root: Path, tmp_path: Path
) -> None:
    (root / "a.py").write_text("x = 1\n")
    tokens = tmp_path / "tokens"
    tokens.write_text(f"# agents\n{_ALICE} alice\n{_BOB} bob\n{_ANYONE}\n")

    def bearer(token: str) -> dict[str, str]:
        return {"authorization": f"Bearer {token}"}

    async def run(server: Served) -> dict[str, tuple[bool, str]]:
        # alice reads, under any declared name: the token decides.
        await _call(server, "whatever", "read", {"path": "a.py"}, headers=bearer(_ALICE))
        said = {
            "bob": await _call(server, "alice", "edit", _EDIT, headers=bearer(_BOB)),
            "named": await _call(server, "alice#token", "edit", _EDIT, headers=bearer(_ANYONE)),
            "meta": await _call(
                server,
                "x",
                "edit",
                _EDIT,
                headers=bearer(_ANYONE),
                meta={"edittools/agent": "alice"},
            ),
        }
        said["alice"] = await _call(server, "other", "edit", _EDIT, headers=bearer(_ALICE))
        return said

    with served(root, "--token-file", str(tokens)) as server:
        said = anyio.run(run, server)
        forged = stateless_call(
            Served(server.proc, server.url, _ANYONE), "edit", _EDIT, client_name="alice#token"
        )
    for who in ("bob", "named", "meta"):
        assert said[who][0] and "(not_read)" in said[who][1], (who, said[who])
    assert "taken as agent `bob#token`, the agent its bearer token is mapped to" in said["bob"][1]
    assert "agent `alice%23token`" in said["named"][1], said["named"]
    assert forged["isError"] is True and "alice%23token" in forged["content"][0]["text"]
    assert not said["alice"][0], said["alice"]
    assert _actors(root) == ["alice#token"]


def test_with_an_agent_per_session_a_read_in_one_session_does_not_vouch_for_another(
    root: Path,
) -> None:
    (root / "a.py").write_text("x = 1\n")

    async def run(server: Served) -> tuple[tuple[bool, str], bool]:
        await _call(server, "per-call", "read", {"path": "a.py"})
        refused = await _call(server, "per-call", "edit", _EDIT)
        async with client(server.url, "per-call", server.auth) as s:  # one session: it counts
            await s.call_tool("read", {"path": "a.py"})
            made = await s.call_tool("edit", _EDIT)
        return refused, bool(made.is_error)

    with served(root, "--agent-per-session") as server:
        (failed, said), made_failed = anyio.run(run, server)
    assert failed and "(not_read)" in said
    assert "keeps reads per MCP session (--agent-per-session)" in said, said
    assert "Read and change the file in one session" in said
    assert "token mapped to an agent (--token-file)" in said
    assert not made_failed
    (actor,) = _actors(root)
    assert (
        actor is not None and actor.startswith("per-call#") and len(actor) == len("per-call#") + 12
    )


@pytest.mark.parametrize("how", ["a name with the suffix", "the name and a session header"])
def test_a_stateless_request_cannot_pass_for_an_agent_of_a_session(root: Path, how: str) -> None:
    # Found: a 2026-07-28 request (no session) named `alice#<8 hex>`, the suffix read in alice's
    # notes and blame, edited on alice's read record and was blamed on alice.
    (root / "a.py").write_text("x = 1\n")
    edit = {"path": "a.py", "old_string": "x = 2", "new_string": "x = 3"}

    async def alice_reads_and_edits(server: Served) -> None:
        async with client(server.url, "alice", server.auth) as s:
            await s.call_tool("read", {"path": "a.py"})
            changed = await s.call_tool("edit", _EDIT)
            assert not changed.is_error, text(changed)

    with served(root, "--agent-per-session") as server:
        anyio.run(alice_reads_and_edits, server)
        (alice,) = _actors(root)
        assert alice is not None and alice.startswith("alice#")
        if how == "a name with the suffix":
            forged = stateless_call(server, "edit", edit, client_name=alice)
        else:
            name, _, suffix = alice.partition("#")
            forged = stateless_call(
                server, "edit", edit, client_name=name, **{"mcp-session-id": suffix}
            )
    assert forged["isError"] is True, forged
    said = forged["content"][0]["text"]
    assert "(not_read)" in said, forged  # never read by this agent
    assert "the request has none (MCP 2026-07-28)" in said, said
    assert (root / "a.py").read_text() == "x = 2\n"
    assert _actors(root) == [alice]


def test_stateless_requests_are_served_beside_the_handshake(root: Path) -> None:
    (root / "a.py").write_text("x = 1\n")
    with served(root) as server:
        envelope = {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "modern", "version": "1"},
        }
        sent = {**HEADERS, **server.auth, "mcp-protocol-version": MODERN}
        sent["mcp-method"] = "server/discover"
        answer = rpc(
            server.url, sent, {"id": 1, "method": "server/discover", "params": {"_meta": envelope}}
        )
        assert answer.status_code == 200, answer.text
        assert "mcp-session-id" not in answer.headers
        (found,) = messages(answer.text.splitlines())
        assert MODERN in found["result"]["supportedVersions"]
        assert "tools" in found["result"]["capabilities"]
        # Two requests of one declared name are one agent, as over stdio; the handshake's
        # clients are served beside them.
        read = stateless_call(server, "read", {"path": "a.py"}, client_name="modern")
        assert read["isError"] is False, read
        edited = stateless_call(server, "edit", _EDIT, client_name="modern")
        assert edited["isError"] is False, edited

        async def legacy() -> tuple[bool, str]:
            return await _call(server, "modern", "read", {"path": "a.py"})

        assert "x = 2" in anyio.run(legacy)[1]
    assert _actors(root) == ["modern"]
