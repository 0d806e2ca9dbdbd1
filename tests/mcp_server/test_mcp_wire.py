"""Every request gets an answer: raw lines written to a real server process's standard input."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp_harness import PROJECT

from edittools.mcp_server._calls import InFlight
from edittools.mcp_server._wire import Unanswered, screen, top_level_id

pytestmark = pytest.mark.integration


class RawClient:
    """A server child process spoken to line by line, without any client library."""

    def __init__(self, root: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(PROJECT)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "edittools.mcp_server", "--root", str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )

    def send(self, line: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def answer(self, timeout: float = 20) -> dict[str, object]:
        """The next message from the server; fails if none comes within `timeout` seconds."""
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        assert ready, "the server did not answer"
        answer = json.loads(self.process.stdout.readline())
        assert isinstance(answer, dict)
        return answer

    def request(self, message: dict[str, object]) -> dict[str, object]:
        self.send(json.dumps(message).encode())
        return self.answer()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[RawClient]:
    (tmp_path / "a.txt").write_text("one\n")
    raw = RawClient(tmp_path)
    init = raw.request(
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "1"},
            },
        }
    )
    assert "result" in init
    raw.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
    yield raw
    assert raw.process.stdin is not None
    raw.process.stdin.close()
    assert raw.process.wait(timeout=20) == 0
    assert raw.process.stdout is not None
    raw.process.stdout.close()


MALFORMED = [
    (b'{"jsonrpc": "2.0", "id": 7}', 7, -32600, "no method"),
    (b'{"jsonrpc": "2.0", "id": "x", "method": 5}', "x", -32600, "not a string"),
    (b'{"jsonrpc": "2.0", "id": 8, "method": "no/such/method"}', 8, -32601, "not found"),
    (
        b'{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "read", '
        b'"arguments": {"path": "\\ud800.txt"}}}',
        9,
        -32602,
        "lone surrogate",
    ),
    (
        b'{"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "read", '
        b'"arguments": {"path": "\xff\xfe.txt"}}}',
        10,
        -32700,
        "UTF-8",
    ),
    (b"this is not json", None, -32700, "not JSON"),
    (b"[1, 2]", None, -32600, "object"),
]


@pytest.mark.parametrize(("line", "request_id", "code", "words"), MALFORMED)
def test_malformed_request_gets_an_error_and_the_server_keeps_serving(
    client: RawClient, line: bytes, request_id: object, code: int, words: str
) -> None:
    client.send(line)
    answer = client.answer()
    assert answer["id"] == request_id
    error = answer["error"]
    assert isinstance(error, dict) and error["code"] == code
    assert words.lower() in str(error["message"]).lower()
    read = client.request(
        {
            "jsonrpc": "2.0",
            "id": 99,
            "method": "tools/call",
            "params": {"name": "read", "arguments": {"path": "a.txt"}},
        }
    )
    result = read["result"]
    assert isinstance(result, dict) and result["isError"] is False


def deep(shape: str, depth: int) -> bytes:
    """A JSON value nested `depth` levels deep: objects in objects, or arrays in arrays."""
    if shape == "object":
        return b'{"a":' * depth + b"1" + b"}" * depth
    return b"[" * depth + b"]" * depth


NESTED = [
    ("object", 300, "first"),  # deeper than pydantic reads, not than the standard library
    ("object", 1_000, "first"),
    ("object", 1_000, "last"),
    ("object", 1_000, "none"),  # a notification: answered with id null
    ("array", 100_000, "first"),
    ("object", 100_000, "last"),
]


@pytest.mark.parametrize(("shape", "depth", "where"), NESTED)
def test_deeply_nested_request_is_answered_and_the_server_lives(
    client: RawClient, shape: str, depth: int, where: str
) -> None:
    head = b'{"jsonrpc": "2.0", "id": 5, ' if where == "first" else b'{"jsonrpc": "2.0", '
    tail = b', "id": 5}' if where == "last" else b"}"
    client.send(
        head + b'"method": "ping", "params": {"_meta": {"x": ' + deep(shape, depth) + b"}}" + tail
    )
    answer = client.answer()
    assert answer["id"] == (None if where == "none" else 5)
    error = answer["error"]
    assert isinstance(error, dict) and error["code"] == -32700
    assert client.request({"jsonrpc": "2.0", "id": 6, "method": "ping"}) == {
        "jsonrpc": "2.0",
        "id": 6,
        "result": {},
    }
    assert client.process.poll() is None  # and the fixture sees it exit cleanly at the end


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"id": 5, "params": {"id": 6}}', 5),
        ('{"params": {"id": 6}, "id": "x"}', "x"),
        ('{"params": [{"id": 6}, "id"], "method": "id"}', None),
        ('{"id": 1, "id": 2}', 2),
        ('{"id": 1, "id": {"a": 1}}', None),
        ('{"id": true}', None),
        ('{"id": -3}', -3),
        ('{"\\u0069d": 7}', 7),
        ('{"id": "a\\"b}"}', 'a"b}'),
        ('{"a": "} ] {", "id": 3}', 3),
        ('{"a": {"b": [1, {"c": "]"}]}, "id": 4}', 4),
        ('[{"id": 1}]', None),
        ("5", None),
        ('{"id": 9, "x": ' + "[" * 100_000 + "]" * 100_000 + "}", 9),
        ('{"x": ' + '{"a":' * 100_000 + "1" + "}" * 100_000 + ', "id": 9}', 9),
    ],
)
def test_top_level_id_reads_the_id_as_json_does_at_any_depth(text: str, expected: object) -> None:
    assert top_level_id(text) == expected
    if len(text) < 1000:  # the standard library reads it: it agrees
        message = json.loads(text)
        value = message.get("id") if isinstance(message, dict) else None
        assert expected == (
            value if isinstance(value, str | int) and not isinstance(value, bool) else None
        )


def _all_at_once(root: Path, lines: list[bytes]) -> tuple[list[dict[str, Any]], int, str]:
    """The answers of a server process given `lines` and the end of its input at once, its exit
    code and the end of what it wrote on standard error."""
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    done = subprocess.run(
        [sys.executable, "-m", "edittools.mcp_server", "--root", str(root)],
        input=b"".join(line + b"\n" for line in lines),
        capture_output=True,
        env=env,
        timeout=300,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    return answers, done.returncode, done.stderr.decode()[-3000:]


def _rpc(request_id: int | None, method: str, params: dict[str, Any] | None = None) -> bytes:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if request_id is not None:
        message["id"] = request_id
    if params is not None:
        message["params"] = params
    return json.dumps(message).encode()


_OPENING = [
    _rpc(
        0,
        "initialize",
        {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"},
        },
    ),
    _rpc(None, "notifications/initialized"),
]


def test_every_request_read_before_the_end_of_input_is_answered_then_the_server_exits_0(
    tmp_path: Path,
) -> None:
    # Found: at the end of input the SDK cancelled what it had read and not answered (the last
    # answers were missing), and the server sometimes exited 1 with a ClosedResourceError.
    (tmp_path / "a.txt").write_text("one\n")
    lines = [
        *_OPENING,
        _rpc(1, "ping"),
        _rpc(2, "tools/list"),
        _rpc(3, "tools/call", {"name": "read", "arguments": {"path": "a.txt"}}),
        _rpc(4, "tools/call", {"name": "write", "arguments": {"path": "a.txt", "content": "2\n"}}),
        b"this is not json",
        _rpc(5, "ping"),
    ]
    for _ in range(5):  # the loss was a race: it must not happen in any run
        (tmp_path / "a.txt").write_text("one\n")
        answers, code, said = _all_at_once(tmp_path, lines)
        assert sorted(map(str, (a.get("id") for a in answers))) == [
            "0", "1", "2", "3", "4", "5", "None"]  # fmt: skip
        assert code == 0, said
        (written,) = [a for a in answers if a.get("id") == 4]
        assert written["result"]["isError"] is False, written


def test_a_large_edit_read_just_before_the_end_of_input_finishes_and_is_answered(
    tmp_path: Path,
) -> None:
    big = tmp_path / "big.txt"
    with big.open("w") as out:
        line = "filler " * 15 + "\n"
        for _ in range(1_000_000):  # 120 MB: the edit is still running at the end of input
            out.write(line)
        out.write("the end\n")
    edit = {"path": "big.txt", "old_string": "the end", "new_string": "THE END"}
    lines = [
        *_OPENING,
        _rpc(
            1, "tools/call", {"name": "read", "arguments": {"path": "big.txt", "offset": 1_000_001}}
        ),
        _rpc(2, "tools/call", {"name": "edit", "arguments": edit, "_meta": {"progressToken": "p"}}),
        _rpc(3, "ping"),
    ]
    for _ in range(2):
        big.write_bytes(big.read_bytes().replace(b"THE END", b"the end"))
        answers, code, said = _all_at_once(tmp_path, lines)
        by_id = {a["id"]: a for a in answers if "id" in a}
        assert sorted(by_id) == [0, 1, 2, 3]
        assert by_id[2]["result"]["isError"] is False, by_id[2]
        assert "big.txt" in by_id[2]["result"]["content"][0]["text"]
        assert code == 0, said
        assert big.read_text().endswith("THE END\n")


def test_a_request_is_unanswered_until_its_answer_or_its_cancel() -> None:
    in_flight = InFlight()
    unanswered = Unanswered(in_flight)
    for line in (_rpc(7, "ping"), _rpc(8, "ping"), _rpc(None, "notifications/initialized")):
        screened = screen(line)
        assert not isinstance(screened, types.JSONRPCError)
        unanswered.read(screened[1])
    assert in_flight.writing == 2
    unanswered.written("7")  # the SDK matches "7" and 7 as one id
    assert in_flight.writing == 1
    cancel = screen(_rpc(None, "notifications/cancelled", {"requestId": 8}))
    assert not isinstance(cancel, types.JSONRPCError)
    unanswered.read(cancel[1])  # the SDK answers no cancelled request: not waited for
    assert in_flight.writing == 0
    unanswered.written(8)  # an answer already on its way when the cancel came counts once
    unanswered.written(9)
    assert in_flight.writing == 0


_FIGURES = {
    # (the words a figure of `tools/list` is given in, its unit in bytes, which lists it sizes)
    r"`tools/list` of the default surface is ([\d,]+) bytes": (1, ("default",)),
    r"take `tools/list` from ([\d.]+) to ([\d.]+) KB": (1000, ("default", "structure")),
    r"^\| \(none: our surface\) \|.*\| ([\d,]+) \|$": (1, ("default",)),
    r"^\| `--structure` \|.*\| ([\d,]+) \|$": (1, ("structure",)),
}


def test_the_figures_of_tools_list_in_the_docs_are_its_size_on_the_wire(tmp_path: Path) -> None:
    # Found: the README said `--structure` takes tools/list "from 5.9 to 9.5 KB"; on the wire it
    # went from 5,678 to 9,083 bytes.
    sizes = {}
    for name, options in (("default", []), ("structure", ["--structure"])):
        env = {**os.environ, "PYTHONPATH": str(PROJECT)}
        done = subprocess.run(
            [sys.executable, "-m", "edittools.mcp_server", "--root", str(tmp_path), *options],
            input=b"".join(line + b"\n" for line in [*_OPENING, _rpc(2, "tools/list")]),
            capture_output=True,
            env=env,
            timeout=120,
        )
        (line,) = [line for line in done.stdout.splitlines() if b'"id":2' in line]
        sizes[name] = len(line)
    texts = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]
    found = 0
    for path in texts:
        text = path.read_text()
        for words, (unit, lists) in _FIGURES.items():
            for match in re.finditer(words, text, flags=re.MULTILINE):
                for said, name in zip(match.groups(), lists, strict=True):
                    figure = float(said.replace(",", ""))
                    exact = sizes[name] if unit == 1 else round(sizes[name] / unit, 1)
                    assert figure == exact, f"{path.name}: {match.group()!r}: {sizes[name]} bytes"
                    found += 1
    assert found, "no figure of tools/list found: the words of _FIGURES are out of date"
