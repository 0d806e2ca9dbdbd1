"""Who makes a request: an agent's identity, and what a client can and cannot claim of it.

An identity has two parts, kept apart. The name is a claim: the name the client declares
(`clientInfo.name`, or the request's `_meta["edittools/agent"]`), which any client can make,
as over stdio; it tells agents apart only as far as they are honest. The part after the
separator is what the server itself vouches for: `token` for the agent a bearer token is mapped
to (`--token-file`), or the id of the MCP session the server opened for the connection (one
agent per session, `--agent-per-session`), taken from the server's record of the connection,
never from a header. An identity is written `name#part`, and a declared name never holds the
separator: `#`, `%`, and every character but letters, digits and a few plain marks are escaped
as `%XX` of their UTF-8 bytes (so nothing that looks like `#`, and no invisible or bidirectional
mark, comes through either). No declared name can therefore equal, or read as, an identity the
server vouches for: `alice#token` seen in a note or in blame is worth nothing to a client that
does not hold a token mapped to alice, nor a session's suffix to a client not on that session.

Which part a request gets is the server's policy (`Identities`), in this order: the agent its
token is mapped to; else the declared name, alone (the default: clients that share a name share
read records, so a client that opens a session per call reads in one and edits in the next) or
with the session part (`per_session`: a read counts only in the session that made it).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SEPARATOR = "#"
"""Between the name and the part the server vouches for; never in a declared name."""

TOKEN_PART = "token"
"""The vouched part of the agent a bearer token is mapped to: never a session's (hex digits)."""

AGENT_META = "edittools/agent"
"""The `_meta` key of a request that names its agent (a declared name, like `clientInfo.name`)."""

TOKEN_AGENT_SCOPE = "edittools.token_agent"
"""The ASGI scope key under which the HTTP guard leaves the agent the request's token maps to."""

NAME_CHARS = 80
"""Most characters of a declared name kept (escapes included)."""

SESSION_CHARS = 12
"""Hex digits of the session id shown: 48 bits, so that no client opens sessions until one
shares another agent's suffix."""

_PLAIN = frozenset(" -_.:@/+()[]")
"""Marks a declared name keeps as they are, besides letters and digits."""


def declared(name: str) -> str:
    """A client's declared name as an identity holds it: letters, digits, spaces and the marks
    `-_.:@/+()[]` as they are, every other character escaped as `%XX` of its UTF-8 bytes (the
    separator `#` and `%` itself among them, so two names never escape alike), cut at
    `NAME_CHARS` characters on a whole character."""
    kept: list[str] = []
    size = 0
    for char in name:
        part = char if char.isalnum() or char in _PLAIN else _escaped(char)
        size += len(part)
        if size > NAME_CHARS:
            break
        kept.append(part)
    return "".join(kept)


def _escaped(char: str) -> str:
    return "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))


@dataclass(frozen=True)
class Agent:
    """One agent's identity: a name, and the part the server vouches for (None: the declared
    name alone, as over stdio)."""

    name: str
    session: str | None = None
    """The id of the session the agent is bound to (its first `SESSION_CHARS` digits shown)."""
    by_token: bool = False
    """Whether the agent is the one a bearer token is mapped to (the session is then unused)."""

    def __str__(self) -> str:
        name = declared(self.name)
        if self.by_token:
            return f"{name}{SEPARATOR}{TOKEN_PART}"
        if self.session is None:
            return name
        return f"{name}{SEPARATOR}{self.session[:SESSION_CHARS]}"


@dataclass(frozen=True)
class Judged:
    """The agent a request was taken as, and how its read records are shared (said to a client
    whose change was refused for want of a read); `agent` None: unnamed."""

    agent: str | None
    sharing: str | None = None
    """A sentence on whose reads count for this agent; None over stdio (the name alone)."""


@dataclass(frozen=True)
class Identities:
    """The server's policy for who a request is: over stdio the declared name; over HTTP the
    agent its token is mapped to, else the declared name (`per_session`: with its session)."""

    per_session: bool = False

    def of(self, ctx: Any, meta: Mapping[str, Any] | None = None) -> Judged:
        """The agent of the request of `ctx` (the SDK's request context), with `meta` its
        params' `_meta`."""
        scope = _scope_of(ctx)
        if scope is None:  # stdio: a client that starts a server per call keeps its reads
            name = _declared_name(ctx, meta)
            return Judged(None if name is None else str(Agent(name)))
        vouched = scope.get(TOKEN_AGENT_SCOPE)
        if isinstance(vouched, str):
            agent = str(Agent(vouched, by_token=True))
            return Judged(agent, _sharing_by_token(agent))
        name = _declared_name(ctx, meta) or ""
        if not self.per_session:
            agent = str(Agent(name))
            return Judged(agent or None, _sharing_by_name(agent))
        session = _session_of(ctx)
        if session is None:  # a request of 2026-07-28 has no session: an agent of its own
            agent = str(Agent(name, secrets.token_hex(16)))
            return Judged(agent, _sharing_without_session(agent))
        agent = str(Agent(name, session))
        return Judged(agent, _sharing_by_session(agent))


def _declared_name(ctx: Any, meta: Mapping[str, Any] | None) -> str | None:
    """The name a request declares: its `_meta["edittools/agent"]`, else the client's
    `clientInfo.name`; None when it declares none."""
    named = (meta or {}).get(AGENT_META)
    if isinstance(named, str) and named:
        return named
    try:
        return str(ctx.session.client_params.client_info.name)
    except AttributeError:
        return None


def _scope_of(ctx: Any) -> Mapping[str, Any] | None:
    """The ASGI scope of the HTTP request of `ctx`; None on stdio."""
    scope = getattr(getattr(ctx, "request", None), "scope", None)
    return scope if isinstance(scope, Mapping) else None


def _session_of(ctx: Any) -> str | None:
    """The id of the session the server opened for the request's connection, from its own record
    of the connection; None on stdio and for requests without a session."""
    connection = getattr(ctx.session, "_connection", None)  # the SDK keeps it private
    session_id = getattr(connection, "session_id", None)
    return str(session_id) if session_id else None


def _sharing_by_token(agent: str) -> str:
    return (
        f"This call was taken as agent `{agent}`, the agent its bearer token is mapped to: "
        "reads count for every request whose token is mapped to that agent, and for no other."
    )


def _sharing_by_name(agent: str) -> str:
    return (
        f"This call was taken as agent `{agent or '(unnamed)'}`, the name its client declares "
        f'(`_meta["{AGENT_META}"]`, else clientInfo.name): reads count for every request that '
        "declares that name, in any session, and for no other name."
    )


def _sharing_by_session(agent: str) -> str:
    return (
        f"This call was taken as agent `{agent}`: this server keeps reads per MCP session "
        "(--agent-per-session), so a read counts only in the session that made it. Read and "
        "change the file in one session (a client that opens a session per call never can), "
        "or ask the server's operator for a token mapped to an agent (--token-file)."
    )


def _sharing_without_session(agent: str) -> str:
    return (
        f"This call was taken as agent `{agent}`, of this request alone: this server keeps "
        "reads per MCP session (--agent-per-session) and the request has none (MCP "
        "2026-07-28), so no read counts for it. Ask the server's operator for a token mapped "
        "to an agent (--token-file), whose reads count across requests."
    )
