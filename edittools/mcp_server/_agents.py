"""Who makes a request: an agent's identity, from what a client cannot copy out of another's output.

An identity has two parts, kept apart. The name the client declares (`clientInfo.name`) is a
claim any client can make, as over stdio: it tells agents apart only as far as they are honest.
The connection part is what the server itself knows of the connection: over HTTP, the id of the
session the server opened for it (`Agent.session`), taken from the server's record of the
connection, never from a header (a request without a session, as every request of 2026-07-28 is,
can carry an `mcp-session-id` header too). An identity is written `name#connection`, and a
declared name never holds the separator: `#`, `%`, and every character but letters, digits and a
few plain marks are escaped as `%XX` of their UTF-8 bytes (so nothing that looks like `#`, and no
invisible or bidirectional mark, comes through either). No declared name can therefore equal, or
read as, an identity with a connection part: the suffix seen in another agent's notes and blame
is worth nothing to a client that is not on that connection.

The parts a later source may fill: a name the server vouches for (a token mapped to an agent), a
name given per request, one agent per session or per name. Each fits one of the two parts;
`Agent` is where they meet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SEPARATOR = "#"
"""Between the declared name and the connection part; never in a declared name."""

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
    """One agent's identity: the name its client declares, and the connection part the server
    knows (None without one: the declared name alone, as over stdio)."""

    name: str
    session: str | None = None

    def __str__(self) -> str:
        name = declared(self.name)
        if self.session is None:
            return name
        return f"{name}{SEPARATOR}{self.session[:SESSION_CHARS]}"


def agent_of(ctx: Any) -> str | None:
    """The identity of the agent making the request of `ctx` (the SDK's request context): the
    client's declared name, with the id of the session the server opened for its connection
    when there is one (HTTP before 2026-07-28), so two connections there are two agents; None
    when the client declared no name.

    Over stdio the name alone: a client that starts a server per call (as the MCP Inspector's
    CLI does) keeps its read records from one server to the next, and two clients of one name
    share them."""
    try:
        name = str(ctx.session.client_params.client_info.name)
    except AttributeError:
        return None
    return str(Agent(name, _session_of(ctx)))


def _session_of(ctx: Any) -> str | None:
    """The id of the session the server opened for the request's connection, from its own record
    of the connection; None on stdio and for requests without a session."""
    connection = getattr(ctx.session, "_connection", None)  # the SDK keeps it private
    session_id = getattr(connection, "session_id", None)
    return str(session_id) if session_id else None
