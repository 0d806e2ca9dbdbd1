"""Every request gets an answer: malformed lines from the client are answered here.

The SDK's stdio transport drops a line it cannot parse as a JSON-RPC message (no `method`, a
lone surrogate, bytes that are not UTF-8, not JSON at all), so the client would wait forever.
`ScreenedLines` sits between standard input and the SDK: well-formed lines pass through, and a
malformed one is answered with a JSON-RPC error (its id when one can be read, else null).
That includes well-formed JSON nested deeper than the parsers recurse (pydantic's stops at a few
hundred levels, the standard library's at the interpreter's recursion limit): its id is read by
a scan of the top-level object that does not recurse (`top_level_id`).

The SDK also cancels what it is running when its input ends, so a request read just before the
end went unanswered (a change in flight committed, unsaid). `Unanswered` counts the requests read
and not yet answered; at the end of input `ScreenedLines` waits for their answers before it ends.
"""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from collections.abc import AsyncIterable, AsyncIterator
from typing import Any, Protocol

import mcp_types as types
from anyio.abc import ObjectSendStream
from mcp.shared.dispatcher import coerce_request_id
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from edittools.mcp_server._calls import InFlight

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

_log = logging.getLogger(__name__)


class ScreenedLines:
    """The text lines of `source` (bytes lines) that are JSON-RPC messages; each other line is
    answered with an error sent to `answers`. With `unanswered`, each request and answer is
    counted there, and the lines end only once they are all answered (`Unanswered.settled`)."""

    def __init__(
        self,
        source: AsyncIterable[bytes],
        answers: ObjectSendStream[types.JSONRPCError],
        *,
        unanswered: Unanswered | None = None,
    ) -> None:
        self._source = source
        self._answers = answers
        self._unanswered = unanswered

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        async for raw in self._source:
            if not raw.strip():
                continue
            try:
                screened = screen(raw)
            except Exception:  # a line nothing here foresaw is still answered, and costs no more
                _log.exception("a message could not be screened")
                screened = _unreadable(raw)
            if isinstance(screened, types.JSONRPCError):
                if self._unanswered is not None:
                    self._unanswered.expect(screened.id)
                await self._answers.send(screened)
                continue
            line, message = screened
            if self._unanswered is not None:
                self._unanswered.read(message)
            yield line
        if self._unanswered is not None:
            await self._unanswered.settled()


def screen(raw: bytes) -> tuple[str, types.JSONRPCMessage] | types.JSONRPCError:
    """`raw` as text with the JSON-RPC message it holds when the SDK takes it, else the error
    answering it."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        request_id = _id_in(raw.decode("utf-8", "replace"))
        reason = f"Parse error: the message is not valid UTF-8 (byte {exc.start})."
        return _error(request_id, PARSE_ERROR, reason)
    try:
        message = types.jsonrpc_message_adapter.validate_json(text, by_name=False)
    except ValueError as exc:
        return _explain(text, exc)
    return text, message


class Unanswered:
    """The requests read from the client and not answered yet, each an exchange of `in_flight`
    (`InFlight.opened`) until its answer is written (`Answered`)."""

    def __init__(self, in_flight: InFlight) -> None:
        self._in_flight = in_flight
        self._ids: Counter[types.RequestId | None] = Counter()

    def read(self, message: types.JSONRPCMessage) -> None:
        """Note a message the client sent: a request opens an exchange, and a cancel closes
        the request it names (the SDK answers no request its client cancelled)."""
        if isinstance(message, types.JSONRPCRequest):
            self.expect(message.id)
        elif (
            isinstance(message, types.JSONRPCNotification)
            and message.method == "notifications/cancelled"
        ):
            request_id = (message.params or {}).get("requestId")
            if isinstance(request_id, str | int) and not isinstance(request_id, bool):
                self.written(request_id)

    def expect(self, request_id: types.RequestId | None) -> None:
        """Open an exchange answered by a message with `request_id`."""
        self._ids[_key(request_id)] += 1
        self._in_flight.opened()

    def written(self, request_id: types.RequestId | None) -> None:
        """Close an exchange of `request_id`, if one is open."""
        key = _key(request_id)
        if self._ids[key] > 0:
            self._ids[key] -= 1
            self._in_flight.answered()

    async def settled(self) -> None:
        """Wait until every request is answered (`InFlight.settled`)."""
        await self._in_flight.settled()


def _key(request_id: types.RequestId | None) -> types.RequestId | None:
    """One key for "7" and 7, as the SDK matches a request, its cancel and its answer."""
    return None if request_id is None else coerce_request_id(request_id)


class _Sender(Protocol):
    async def send(self, item: SessionMessage, /) -> None: ...
    async def aclose(self) -> None: ...


class Answered:
    """The stream of messages to the client, `stream`, noting each answer in `unanswered` once
    the stream has taken it."""

    def __init__(self, stream: _Sender, unanswered: Unanswered) -> None:
        self._stream = stream
        self._unanswered = unanswered

    async def send(self, item: SessionMessage, /) -> None:
        await self._stream.send(item)
        message = item.message
        if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
            self._unanswered.written(message.id)

    async def aclose(self) -> None:
        await self._stream.aclose()

    async def __aenter__(self) -> Answered:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def _explain(text: str, exc: ValueError) -> types.JSONRPCError:
    try:
        message = json.loads(text)
    except RecursionError:
        reason = _json_problem(exc) or "the message nests too deeply to be read."
        return _error(top_level_id(text), PARSE_ERROR, f"Parse error: {reason}")
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
    problem = _json_problem(exc)  # JSON the standard library reads and pydantic does not
    if problem is not None:
        return _error(request_id, PARSE_ERROR, f"Parse error: {problem}")
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return _error(request_id, INVALID_REQUEST, f"Invalid Request: {first}")


def _json_problem(exc: ValueError) -> str | None:
    """Pydantic's reason when it could not read the text as JSON (e.g. too deeply nested)."""
    if isinstance(exc, ValidationError):
        errors = exc.errors(include_url=False)
        if errors and errors[0]["type"] == "json_invalid":
            return str(errors[0]["msg"]).rstrip(".") + "."
    return None


def _valid_unicode(message: Any) -> bool:
    try:
        json.dumps(message, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    except RecursionError:  # too deep to write back out; the lone surrogate check is moot
        return True
    return True


def _id_in(text: str) -> types.RequestId | None:
    try:
        return _id_of(json.loads(text))
    except RecursionError:
        return top_level_id(text)
    except ValueError:
        return None


def _unreadable(raw: bytes) -> types.JSONRPCError:
    """The answer to a line that failed in a way `screen` did not foresee: its id if readable."""
    try:
        request_id = _id_in(raw.decode("utf-8", "replace"))
    except Exception:
        request_id = None
    return _error(request_id, INTERNAL_ERROR, "Internal error: the message could not be read.")


# A JSON string, a run of brackets, a colon or comma, or any other run (a number, a literal).
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[{]+|[\]}]+|[:,]|[^\s\[\]{}:,"]+')


def top_level_id(text: str) -> types.RequestId | None:
    """The `id` member of the JSON object `text`, read without recursing into other members.

    For a message the parsers cannot read because it nests too deeply; brackets are only
    counted, so any depth costs one pass. As `json.loads`, the last of repeated members wins.
    """
    depth = 0
    name: str | None = None  # the member whose value comes next, at the top level
    found: Any = None
    for match in _TOKEN.finditer(text):
        token = match.group()
        head = token[0]
        if head in "[{":
            if depth == 0 and head != "{":
                return None
            if depth == 1 and name == "id":
                found = None  # an object or array is not an id
            depth += len(token)
        elif head in "]}":
            depth -= len(token)
            if depth <= 0:
                break
        elif depth != 1:
            continue
        elif head == ",":
            name = None
        elif head == ":":
            continue
        elif name is None and head == '"':
            name = _scalar(token)
        elif name == "id":
            found = _scalar(token)
    return _id_of({"id": found})


def _scalar(token: str) -> Any:
    try:
        return json.loads(token)
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
