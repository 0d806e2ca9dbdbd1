"""The tool calls a server has in flight, so that a shutdown can let them answer first."""

from __future__ import annotations

from collections.abc import Callable

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

    async def drain(self, give_up: Callable[[], bool] = lambda: False) -> None:
        """Refuse new calls and wait until every call in flight has answered, or `give_up` says
        to stop waiting (a second Ctrl-C: a change is committed whole or not at all anyway)."""
        self.closing = True
        while self.count and not give_up():
            await anyio.sleep(_POLL)
