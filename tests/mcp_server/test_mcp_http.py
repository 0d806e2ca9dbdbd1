"""`serve --http`: the real server in a child process, reached by the SDK's HTTP client and raw
requests. Several clients at once are several actors on one state; a token is asked on every
address (made and printed when none is given); a foreign origin, a foreign Host, a missing or
wrong token and a judged header sent twice are refused before the MCP layer; a shutdown lets the
call in flight answer."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import anyio
import httpx2
import mcp_types as types
import pytest
from http_harness import (
    HEADERS,
    INIT,
    PROJECT,
    Served,
    client,
    messages,
    rpc,
    served,
    text,
)

from edittools import Session
from edittools.mcp_server._http import Address, parse_address, read_tokens


def test_two_clients_at_once_are_two_actors_on_one_state(root: Path) -> None:
    (root / "a.py").write_text("x = 1\ny = 2\n")
    (root / "b.py").write_text("z = 3\n")

    async def agent(server: Served, name: str, path: str, old: str, new: str) -> str:
        async with client(server.url, name, server.auth) as s:
            await s.call_tool("read", {"path": path})
            result = await s.call_tool("edit", {"path": path, "old_string": old, "new_string": new})
            assert not result.is_error, text(result)
            return text(result)

    async def both(server: Served) -> None:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(agent, server, "alpha", "a.py", "x = 1", "x = 10")
            tasks.start_soon(agent, server, "beta", "b.py", "z = 3", "z = 30")

    with served(root) as server:
        anyio.run(both, server)

        # A client reaching the server later reads what the others wrote.
        async def later() -> str:
            async with client(server.url, "gamma", server.auth) as s:
                return text(await s.call_tool("read", {"path": "a.py"}))

        assert "x = 10" in anyio.run(later)
    assert (root / "a.py").read_text() == "x = 10\ny = 2\n"
    assert (root / "b.py").read_text() == "z = 30\n"
    with Session(root) as s:
        (made_a,) = s.workspace.history("a.py")
        (made_b,) = s.workspace.history("b.py")
    # Each client is the agent it declares (`test_mcp_identity.py` has the other policies).
    assert (made_a.actor, made_b.actor) == ("alpha", "beta")


def _post(url: str, headers: dict[str, str] | list[tuple[str, str]]) -> httpx2.Response:
    """An `initialize` POST to `url` with `headers` besides the content's (a list: repeatable)."""
    sent = [*HEADERS.items(), *(headers.items() if isinstance(headers, dict) else headers)]
    return httpx2.post(url, json=INIT, headers=sent, timeout=30)


def test_a_foreign_origin_or_host_is_refused(root: Path) -> None:
    with served(root, "--allow-origin", "https://ide.example:8443") as server:
        port = server.url.split(":")[2].split("/")[0]
        auth = server.auth
        assert _post(server.url, {"origin": "http://evil.example", **auth}).status_code == 403
        assert _post(server.url, {"origin": "http://localhost:1", **auth}).status_code == 403
        # DNS rebinding: a name that resolved to this machine, sent as Host.
        assert _post(server.url, {"host": f"evil.example:{port}", **auth}).status_code == 421
        assert _post(server.url, auth).status_code == 200  # no Origin: not a browser
        assert _post(server.url, {"origin": f"http://localhost:{port}", **auth}).status_code == 200
        assert _post(server.url, {"origin": "https://ide.example:8443", **auth}).status_code == 200


def test_a_header_the_guard_judges_is_refused_when_sent_twice(root: Path) -> None:
    # Found: of two Origin or two Authorization headers, the last one was judged.
    with served(root) as server:
        port = server.url.split(":")[2].split("/")[0]
        own = ("origin", f"http://127.0.0.1:{port}")
        (auth,) = server.auth.items()
        for twice in (
            [("origin", "http://evil.example"), own, auth],
            [own, own, auth],
            [("authorization", "Bearer wrong-token-of-enough-length"), auth],
            [auth, auth],
        ):
            refused = _post(server.url, twice)
            assert refused.status_code == 400, (twice, refused.status_code)
            assert "one" in refused.text
        assert _post(server.url, [own, auth]).status_code == 200


def test_a_server_bound_to_another_loopback_address_answers_to_the_url_it_printed(
    root: Path,
) -> None:
    # Found: bound to 127.0.0.2, the server refused its own URL (421): only localhost,
    # 127.0.0.1 and [::1] were known as its names.
    with served(root, listen="127.0.0.2:0") as server:
        assert server.url.startswith("http://127.0.0.2:")
        assert server.token is not None
        assert _post(server.url, server.auth).status_code == 200
        port = server.url.split(":")[2].split("/")[0]
        own = {"origin": f"http://127.0.0.2:{port}", **server.auth}
        assert _post(server.url, own).status_code == 200
        assert _post(server.url, {"host": f"evil.example:{port}", **server.auth}).status_code == 421


def test_a_token_file_is_required_of_every_request(root: Path, tmp_path: Path) -> None:
    (root / "a.txt").write_text("one\n")
    token_file = tmp_path / "token"
    token_file.write_text("s3cret-token-of-enough-length\n")

    async def read(url: str, headers: dict[str, str]) -> str:
        async with client(url, "t", headers) as s:
            return text(await s.call_tool("read", {"path": "a.txt"}))

    with served(root, "--token-file", str(token_file)) as server:
        assert server.token is None  # given, so not printed
        refused = _post(server.url, {})
        assert refused.status_code == 401
        assert refused.headers["www-authenticate"].startswith("Bearer")
        assert _post(server.url, {"authorization": "Bearer wrong"}).status_code == 401
        good = {"authorization": "Bearer s3cret-token-of-enough-length"}
        assert _post(server.url, good).status_code == 200
        assert "one" in anyio.run(read, server.url, good)


@pytest.mark.parametrize("listen", ["127.0.0.1:0", "0.0.0.0:0"])
def test_every_address_gets_a_token_made_and_printed_once(root: Path, listen: str) -> None:
    # Found: on loopback no token was asked, so another user of the machine could connect and
    # write files as the server's user.
    with served(root, listen=listen) as server:
        assert server.token is not None and len(server.token) >= 43  # 256 bits
        url = server.url.replace("0.0.0.0", "127.0.0.1")
        assert _post(url, {}).status_code == 401
        assert _post(url, {"authorization": f"Bearer {server.token}x"}).status_code == 401
        assert _post(url, server.auth).status_code == 200


def test_the_bearer_scheme_is_read_in_any_letter_case(root: Path) -> None:
    # Found: "bearer TOKEN" was refused; an auth scheme is case-insensitive (RFC 9110 11.1).
    with served(root) as server:
        for scheme in ("Bearer", "bearer", "BEARER", "bEaReR"):
            sent = {"authorization": f"{scheme} {server.token}"}
            assert _post(server.url, sent).status_code == 200, scheme
        for wrong in (f"Basic {server.token}", f"Bearer{server.token}", f"{server.token}"):
            assert _post(server.url, {"authorization": wrong}).status_code == 401, wrong


def test_no_auth_serves_loopback_without_a_token(root: Path) -> None:
    with served(root, "--no-auth") as server:
        assert server.token is None
        assert _post(server.url, {}).status_code == 200


def _big_file(root: Path) -> Path:
    """A 160 MB file, large enough that an edit of its last line is still running when a signal
    sent at the edit's first progress report lands."""
    big = root / "big.txt"
    with big.open("w") as out:
        line = "filler " * 15 + "\n"
        for _ in range(1_500_000):
            out.write(line)
        out.write("the end\n")
    return big


_LAST_LINE = {"path": "big.txt", "offset": 1_500_001, "limit": 1}
_EDIT_END = {"path": "big.txt", "old_string": "the end", "new_string": "THE END"}


def test_a_shutdown_lets_the_call_in_flight_answer(root: Path) -> None:
    big = _big_file(root)

    async def edit_then_stop(server: Served) -> types.CallToolResult:
        async with client(server.url, "slow", server.auth) as s:
            await s.call_tool("read", _LAST_LINE)

            async def stop_once_running(done: float, total: float | None, said: str | None) -> None:
                if not stopped:  # the edit is running
                    stopped.append(True)
                    server.proc.send_signal(signal.SIGTERM)

            stopped: list[bool] = []
            result = await s.call_tool("edit", _EDIT_END, progress_callback=stop_once_running)
            assert stopped, "the edit answered before it reported progress: no stop during it"
            return result

    with served(root) as server:
        result = anyio.run(edit_then_stop, server)
        assert server.proc.wait(timeout=30) == 0
    assert not result.is_error, text(result)
    assert big.read_text().endswith("THE END\n")


def test_a_stop_during_a_committed_edit_sends_its_whole_answer_before_exiting(
    root: Path,
) -> None:
    # Found: the change was written and the server exited 0, but the client got HTTP 200 with an
    # empty body (the SSE stream closed at the signal), so a client that retried duplicated it.
    big = _big_file(root)
    with served(root) as server:
        opened = _post(server.url, server.auth)
        assert opened.status_code == 200
        headers = {**HEADERS, **server.auth, "mcp-session-id": opened.headers["mcp-session-id"]}
        rpc(server.url, headers, {"method": "notifications/initialized"})
        read = rpc(server.url, headers, {"id": 2, "method": "tools/call", "params": {
            "name": "read", "arguments": _LAST_LINE}})  # fmt: skip
        assert "the end" in read.text
        edit = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "edit", "arguments": _EDIT_END, "_meta": {"progressToken": "p"}}}  # fmt: skip
        body: list[str] = []
        stopped = False
        with httpx2.stream("POST", server.url, json=edit, headers=headers, timeout=60) as answer:
            assert answer.status_code == 200
            for line in answer.iter_lines():
                body.append(line)
                if "notifications/progress" in line and not stopped:
                    server.proc.send_signal(signal.SIGTERM)  # the edit is running
                    stopped = True
        assert server.proc.wait(timeout=30) == 0
    assert stopped, "the edit answered before it reported progress: no stop during it"
    assert big.read_text().endswith("THE END\n")
    (result,) = [m for m in messages(body) if m.get("id") == 3]
    assert result["result"]["isError"] is False, result
    assert "big.txt" in result["result"]["content"][0]["text"]
    assert result["result"]["_meta"]["edittools/result"]["artifact"]["kind"] == "diff"


def test_listen_addresses_parse() -> None:
    assert parse_address("8123") == Address("127.0.0.1", 8123)
    assert parse_address("0.0.0.0:80") == Address("0.0.0.0", 80)
    assert parse_address("[::1]:9000") == Address("::1", 9000)
    assert parse_address("localhost:1").loopback
    assert parse_address("[::1]:1").loopback
    assert not parse_address("0.0.0.0:1").loopback
    assert not parse_address("example.org:1").loopback
    for bad in ("", "host:", "x:port", "1:70000", "-1"):
        with pytest.raises(ValueError, match="PORT"):
            parse_address(bad)


def test_a_token_file_holds_long_words_each_maybe_mapped_to_an_agent(tmp_path: Path) -> None:
    (tmp_path / "short").write_text("abc\n")
    (tmp_path / "spaced").write_text("abcdefgh ijklmnopq\n")  # a short token, mapped
    (tmp_path / "twice").write_text("abcdefghijklmnopq a\nabcdefghijklmnopq b\n")
    (tmp_path / "empty").write_text("# no token\n\n")
    (tmp_path / "good").write_text("  abcdefghijklmnopq\n")
    (tmp_path / "mapped").write_text(
        "# who may write\nabcdefghijklmnopq reviewer\n\n0123456789abcdefgh\tthe writer \nzyxwvutsrqponmlkj\n"
    )
    assert read_tokens(str(tmp_path / "good")) == {"abcdefghijklmnopq": None}
    assert read_tokens(str(tmp_path / "mapped")) == {
        "abcdefghijklmnopq": "reviewer",
        "0123456789abcdefgh": "the writer",
        "zyxwvutsrqponmlkj": None,
    }
    for name in ("short", "spaced", "twice", "empty", "missing"):
        with pytest.raises(ValueError, match="token"):
            read_tokens(str(tmp_path / name))


def test_serve_refuses_a_bad_address_token_file_or_no_auth_before_starting(
    root: Path, tmp_path: Path
) -> None:
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    (tmp_path / "token").write_text("s3cret-token-of-enough-length\n")
    for extra, said in (
        (["--http", "nowhere"], "PORT"),
        (["--http", "0", "--token-file", str(tmp_path / "none")], "token file"),
        (["--http", "0.0.0.0:0", "--no-auth"], "loopback addresses only"),
        (["--http", "0", "--no-auth", "--token-file", str(tmp_path / "token")], "not both"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "edittools.mcp_server", "--root", str(root), *extra],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert done.returncode == 2, extra
        assert "error:" in done.stderr and said in done.stderr, done.stderr


def test_a_draining_server_refuses_new_calls_as_busy_and_writes_nothing(root: Path) -> None:
    from mcp import Client

    from edittools.mcp_server import build_server
    from edittools.mcp_server._calls import InFlight

    (root / "a.txt").write_text("one\n")
    in_flight = InFlight()

    async def scenario(session: Session) -> types.CallToolResult:
        async with Client(build_server(session, in_flight=in_flight)) as client:
            assert not (await client.call_tool("read", {"path": "a.txt"})).is_error
            await in_flight.drain()  # nothing in flight: returns at once, closed from now on
            return await client.call_tool("write", {"path": "a.txt", "content": "two\n"})

    with Session(root) as session:
        refused = anyio.run(scenario, session)
    assert refused.is_error and "Error (busy)" in text(refused)
    assert (root / "a.txt").read_text() == "one\n"


def test_a_drain_waits_for_the_calls_in_flight_unless_told_to_give_up() -> None:
    from edittools.mcp_server._calls import InFlight

    async def scenario() -> tuple[float, float]:
        in_flight = InFlight()
        in_flight.__enter__()  # a call that answers after 0.2 s

        async def answer() -> None:
            await anyio.sleep(0.2)
            in_flight.__exit__()

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(answer)
            began = time.monotonic()
            await in_flight.drain()
            waited = time.monotonic() - began
        in_flight.__enter__()  # one that never answers: a second Ctrl-C stops the wait
        began = time.monotonic()
        with anyio.fail_after(5):
            await in_flight.drain(give_up=lambda: True)
        return waited, time.monotonic() - began

    waited, gave_up = anyio.run(scenario)
    assert waited >= 0.15 and gave_up < 0.1


def test_a_drain_waits_for_the_answers_being_written_after_the_calls_within_a_bound() -> None:
    from edittools.mcp_server._calls import InFlight

    async def scenario() -> tuple[float, float]:
        in_flight = InFlight()
        writing = in_flight.answering()
        writing.__enter__()  # a call has returned; its answer is written 0.2 s later

        async def written() -> None:
            await anyio.sleep(0.2)
            writing.__exit__(None, None, None)

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(written)
            began = time.monotonic()
            await in_flight.drain()
            waited = time.monotonic() - began
        with in_flight.answering():  # a client that never reads its answer: the bound ends it
            began = time.monotonic()
            with anyio.fail_after(5):
                await in_flight.drain(write_within=0.1)
            bounded = time.monotonic() - began
        return waited, bounded

    waited, bounded = anyio.run(scenario)
    assert waited >= 0.15 and 0.05 <= bounded < 1
