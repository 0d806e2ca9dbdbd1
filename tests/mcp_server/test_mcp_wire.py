"""Every request gets an answer: raw lines written to a real server process's standard input."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp_harness import PROJECT

from edittools.mcp_server._wire import top_level_id

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
