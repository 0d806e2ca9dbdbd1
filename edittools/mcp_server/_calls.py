"""The tool calls a server has in flight, so that a shutdown can let them answer first."""

from __future__ import annotations

import anyio

_POLL = 0.02
"""Seconds between looks at the count while draining (an event would tie this to one loop)."""


class InFlight:
    """Counts the calls being answered; `drain` closes to new calls and waits for the rest."""

    def __init__(self) -> None:
        self.count = 0
        self.closing = False
        """Set by `drain`: new calls are refused from then on."""

    def __enter__(self) -> None:
        self.count += 1

    def __exit__(self, *exc: object) -> None:
        self.count -= 1

    async def drain(self) -> None:
        """Refuse new calls and wait until every call in flight has answered."""
        self.closing = True
        while self.count:
            await anyio.sleep(_POLL)
