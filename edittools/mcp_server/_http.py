"""MCP over streamable HTTP: the SDK's transport at `/mcp`, behind the checks a network server needs.

Every request passes `_Guard` first: a request that carries a header the guard judges twice is
refused (400: which one would count is anyone's guess), a browser page of another origin is
refused (403, the DNS-rebinding defence the MCP spec asks for), a loopback server answers only
to loopback host names and the address it is bound to (421), and every request must carry the
token as `Authorization: Bearer` (401). The token is asked on every address, loopback too: on a
shared machine another user can reach a loopback port, and would write files as the server's
user. Only a loopback server may go without one, when told so (`--no-auth`). A token may be
mapped to an agent (`read_tokens`): the guard hands the request on with that agent in its ASGI
scope, which nothing a client sends can set. A stop (SIGINT or SIGTERM) refuses new calls at
once, lets the calls in flight finish and their answers be written (`InFlight.drain`), and only
then closes the streams and exits.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import secrets
import signal
import socket
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import uvicorn
from mcp.server.lowlevel import Server
from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Receive, Scope, Send

from edittools.mcp_server._agents import TOKEN_AGENT_SCOPE
from edittools.mcp_server._calls import InFlight

MCP_PATH = "/mcp"
DEFAULT_HOST = "127.0.0.1"
_LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
_JUDGED = (b"origin", b"host", b"authorization")
"""The headers `_Guard` judges: each may come once (uvicorn's parsers refuse a second Host
already; the guard does not count on it)."""
_CLOSE_STREAMS_AFTER = 2
"""Seconds a shutdown leaves open streams (a client's GET stream) once every call has answered."""


@dataclass(frozen=True)
class Address:
    """Where the HTTP server listens."""

    host: str
    port: int

    @property
    def loopback(self) -> bool:
        """Whether only this machine can reach the address."""
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host.strip("[]")).is_loopback
        except ValueError:
            return False

    @property
    def name(self) -> str:
        """The host as a URL and a `Host` header write it (an IPv6 address in brackets)."""
        return f"[{self.host}]" if ":" in self.host and not self.host.startswith("[") else self.host

    def url(self, port: int | None = None) -> str:
        """The server's MCP endpoint."""
        return f"http://{self.name}:{self.port if port is None else port}{MCP_PATH}"


def parse_address(text: str) -> Address:
    """`[HOST:]PORT` as an Address (loopback when no host is given); ValueError when malformed."""
    host, _, port_text = text.rpartition(":")
    host = host.strip("[]") or DEFAULT_HOST
    try:
        port = int(port_text)
    except ValueError:
        raise ValueError(f"{text!r} is not [HOST:]PORT: {port_text!r} is not a port") from None
    if not 0 <= port <= 65535:
        raise ValueError(f"{text!r} is not [HOST:]PORT: {port} is not a port (0-65535)")
    return Address(host, port)


def check_auth(address: Address, *, tokens: Tokens | None, no_auth: bool) -> None:
    """ValueError when going without a token is asked where it is refused: on an address beyond
    loopback (anyone who reaches it could write files as the server's user), or together with
    tokens."""
    if no_auth and tokens is not None:
        raise ValueError("--no-auth serves without a token: give it or --token-file, not both")
    if no_auth and not address.loopback:
        raise ValueError(
            f"--no-auth is for loopback addresses only; {address.host} can be reached from other "
            "machines, so every request there needs a token (--token-file, or the one made and "
            "printed when none is given)"
        )


Tokens = Mapping[str, str | None]
"""The bearer tokens a server accepts, each with the agent it is mapped to (None: its clients
are the names they declare)."""


def read_tokens(path: str) -> dict[str, str | None]:
    """The bearer tokens kept in the file at `path`: one a line, each one word of at least 16
    characters, optionally followed by the name of the agent it is mapped to (the rest of the
    line); blank lines and lines starting with `#` are skipped. A file of one word is one
    token mapped to no agent."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read the token file {path!r}: {exc}") from None
    tokens: dict[str, str | None] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        token, *agent = line.split(None, 1)
        if len(token) < 16 or not token.isprintable():
            raise ValueError(
                f"line {number} of the token file {path!r}: a token is one word of at least 16 "
                "characters (then, optionally, a space and the agent it is mapped to)"
            )
        if token in tokens:
            raise ValueError(f"line {number} of the token file {path!r} repeats a token")
        tokens[token] = agent[0].strip() if agent else None
    if not tokens:
        raise ValueError(f"the token file {path!r} holds no token")
    return tokens


class _Guard:
    """The ASGI checks every request passes before the MCP transport sees it."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: frozenset[str] | None,
        origins: frozenset[str],
        tokens: Tokens | None,
        in_flight: InFlight,
    ) -> None:
        self._app = app
        self._in_flight = in_flight
        self._hosts = hosts
        self._origins = origins
        self._tokens = None if tokens is None else [(t.encode(), a) for t, a in tokens.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        judged: dict[bytes, list[bytes]] = {name: [] for name in _JUDGED}
        for key, value in scope["headers"]:
            if (name := key.lower()) in judged:
                judged[name].append(value)
        twice = [name.decode() for name, values in judged.items() if len(values) > 1]
        origin = judged[b"origin"][0] if judged[b"origin"] else None
        host = judged[b"host"][0].decode("latin-1").lower() if judged[b"host"] else ""
        authorization = judged[b"authorization"][0] if judged[b"authorization"] else None
        holder = self._holder(authorization)
        if twice:
            await _refuse(send, 400, f"a request may carry one {' and one '.join(twice)} header")
        elif self._hosts is not None and host not in self._hosts:
            await _refuse(send, 421, f"this server answers to {', '.join(sorted(self._hosts))}")
        elif origin is not None and origin.decode("latin-1").lower() not in self._origins:
            await _refuse(send, 403, "requests from this origin are refused (see --allow-origin)")
        elif self._tokens is not None and holder is None:
            await _refuse(send, 401, "a bearer token is required", bearer=True)
        elif scope["method"] == "GET":  # a standing stream: it has no answer to wait for
            await self._app(scope, receive, send)
        else:
            if holder is not None and holder[1] is not None:
                scope = {**scope, TOKEN_AGENT_SCOPE: holder[1]}  # read by `Identities.of`
            with self._in_flight.answering():  # the app returns once its answer is sent whole
                await self._app(scope, receive, send)

    def _holder(self, authorization: bytes | None) -> tuple[bytes, str | None] | None:
        """The token an `Authorization` header carries, with the agent it is mapped to; None
        when it carries none of them. Every token is compared, in constant time each, so the
        time taken says nothing of which one came close."""
        sent = _bearer(authorization)
        found = None
        for token, agent in self._tokens or ():
            if hmac.compare_digest(sent, token):
                found = (token, agent)
        return found


def _bearer(authorization: bytes | None) -> bytes:
    """The credentials of an `Authorization: Bearer` header, its scheme in any letter case (RFC
    9110 11.1); empty when there is none."""
    scheme, _, credentials = (authorization or b"").strip().partition(b" ")
    return credentials.lstrip(b" ") if scheme.lower() == b"bearer" else b""


async def _refuse(send: Send, status: int, reason: str, *, bearer: bool = False) -> None:
    body = f"{reason}\n".encode()
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", b"%d" % len(body)),
    ]
    if bearer:
        headers.append((b"www-authenticate", b'Bearer realm="edittools"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def http_app(
    server: Server[Any],
    in_flight: InFlight,
    *,
    address: Address,
    port: int,
    tokens: Tokens | None,
    allow_origins: Sequence[str] = (),
) -> ASGIApp:
    """The ASGI app serving `server` at `/mcp` on `address` (listening on `port`), guarded:
    every request must carry one of `tokens` (None: no token asked, `check_auth`), and is the
    agent its token is mapped to, if any; `in_flight` counts the answers it is writing."""
    # The SDK's own Host/Origin check is replaced by `_Guard` (one place, exact origins);
    # it still checks a POST's content type.
    unchecked = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    inner = server.streamable_http_app(streamable_http_path=MCP_PATH, transport_security=unchecked)
    # A loopback server answers to the loopback names and to the address it is bound to (which
    # it prints), e.g. 127.0.0.2; a client leaves out the port 80 of the scheme.
    names = {*_LOOPBACK_NAMES, address.name} if address.loopback else {address.name}
    authorities = {f"{name}:{port}" for name in names} | (names if port == 80 else set())
    origins = {f"http://{at}" for at in authorities} | {o.rstrip("/") for o in allow_origins}
    hosts = frozenset(at.lower() for at in authorities) if address.loopback else None
    return _Guard(
        inner,
        hosts=hosts,
        origins=frozenset(o.lower() for o in origins),
        tokens=tokens,
        in_flight=in_flight,
    )


class _DrainingServer(uvicorn.Server):
    """A uvicorn server that, asked to stop, first lets the calls in flight answer.

    uvicorn's own stop sets `should_exit` at the signal, and the SDK's SSE responses end as soon
    as they see it (sse-starlette watches it): the answer of a call still running then never
    reaches its client, though the call completes. Here a signal only closes to new calls;
    `should_exit` is set once every call has ended and its answer has been written
    (`InFlight.drain`), or at a second Ctrl-C.
    """

    def __init__(self, config: uvicorn.Config, in_flight: InFlight) -> None:
        super().__init__(config)
        self._in_flight = in_flight
        self._drain: asyncio.Task[None] | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self._in_flight.closing and sig == signal.SIGINT:
            self.force_exit = True  # a second Ctrl-C: stop waiting
        self._in_flight.closing = True  # a plain flag: a signal handler starts nothing

    async def on_tick(self, counter: int) -> bool:
        if self._in_flight.closing and self._drain is None:
            self._drain = asyncio.create_task(self._in_flight.drain(lambda: self.force_exit))
        if self._drain is not None and self._drain.done():
            self.should_exit = True
        return await super().on_tick(counter)


def run_http(
    server: Server[Any],
    in_flight: InFlight,
    *,
    address: Address,
    tokens: Tokens | None,
    allow_origins: Sequence[str] = (),
) -> None:
    """Serve `server` over HTTP at `address` until SIGINT or SIGTERM (blocking).

    Says where on standard error (and the token, when it was made here, once).
    """
    family = socket.AF_INET6 if ":" in address.host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((address.host, address.port))
    listener.listen(2048)  # connections wait in the backlog until uvicorn serves them
    port = listener.getsockname()[1]
    app = http_app(
        server, in_flight, address=address, port=port, tokens=tokens, allow_origins=allow_origins
    )
    config = uvicorn.Config(
        app,
        log_level="warning",
        lifespan="on",
        timeout_graceful_shutdown=_CLOSE_STREAMS_AFTER,
    )
    print(f"edittools: serving MCP at {address.url(port)}", file=sys.stderr, flush=True)
    # A signal that lands once uvicorn has put back the handlers it found is taken quietly: the
    # stop is under way, and it ends the process normally (status 0).
    previous = {sig: signal.signal(sig, _stopped) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        _DrainingServer(config, in_flight).run(sockets=[listener])
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    print("edittools: stopped", file=sys.stderr, flush=True)


def _stopped(sig: int, frame: object) -> None:
    """The handler of a stopping signal outside uvicorn's run: the stop is already under way."""


def new_token() -> str:
    """A fresh bearer token (256 random bits)."""
    return secrets.token_urlsafe(32)
