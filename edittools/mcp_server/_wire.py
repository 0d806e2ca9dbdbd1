"""Every request gets an answer: malformed lines from the client are answered here.

The SDK's stdio transport drops a line it cannot parse as a JSON-RPC message (no `method`, a
lone surrogate, bytes that are not UTF-8, not JSON at all), so the client would wait forever.
`ScreenedLines` sits between standard input and the SDK: well-formed lines pass through, and a
malformed one is answered with a JSON-RPC error (its id when one can be read, else null).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterable, AsyncIterator
from typing import Any

import mcp_types as types
from anyio.abc import ObjectSendStream

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602


class ScreenedLines:
    """The text lines of `source` (bytes lines) that are JSON-RPC messages; each other line is
    answered with an error sent to `answers`."""

    def __init__(
        self, source: AsyncIterable[bytes], answers: ObjectSendStream[types.JSONRPCError]
    ) -> None:
        self._source = source
        self._answers = answers

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        async for raw in self._source:
            if not raw.strip():
                continue
            line, error = screen(raw)
            if error is None:
                yield line
            else:
                await self._answers.send(error)


def screen(raw: bytes) -> tuple[str, types.JSONRPCError | None]:
    """`raw` as text when it is a JSON-RPC message the SDK takes, else the error answering it."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        request_id = _id_in(raw.decode("utf-8", "replace"))
        reason = f"Parse error: the message is not valid UTF-8 (byte {exc.start})."
        return "", _error(request_id, PARSE_ERROR, reason)
    try:
        types.jsonrpc_message_adapter.validate_json(text, by_name=False)
    except ValueError as exc:
        return "", _explain(text, exc)
    return text, None


def _explain(text: str, exc: ValueError) -> types.JSONRPCError:
    try:
        message = json.loads(text)
    except ValueError:
        return _error(None, PARSE_ERROR, "Parse error: the message is not JSON.")
    request_id = _id_of(message)
    if not isinstance(message, dict):
        return _error(None, INVALID_REQUEST, "Invalid Request: a message is a JSON object.")
    if not any(key in message for key in ("method", "result", "error")):
        return _error(request_id, INVALID_REQUEST, "Invalid Request: the message has no method.")
    if "method" in message and not isinstance(message["method"], str):
        return _error(request_id, INVALID_REQUEST, "Invalid Request: method is not a string.")
    if not _valid_unicode(message):
        return _error(
            request_id,
            INVALID_PARAMS,
            "Invalid params: a string holds a lone surrogate, which is not valid Unicode.",
        )
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return _error(request_id, INVALID_REQUEST, f"Invalid Request: {first}")


def _valid_unicode(message: Any) -> bool:
    try:
        json.dumps(message, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _id_in(text: str) -> types.RequestId | None:
    try:
        return _id_of(json.loads(text))
    except ValueError:
        return None


def _id_of(message: Any) -> types.RequestId | None:
    if isinstance(message, dict):
        value = message.get("id")
        if isinstance(value, str | int) and not isinstance(value, bool):
            return value
    return None


def _error(request_id: types.RequestId | None, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(
        jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message)
    )
