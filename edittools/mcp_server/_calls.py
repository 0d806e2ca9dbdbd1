"""The tool calls a server has in flight and the answers it is writing, so that a stop (or the end
of a client's input) lets the calls finish and their answers reach the client first."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import anyio

_POLL = 0.02
"""Seconds between looks at the counts while draining (an event would tie this to one loop)."""

WRITE_WITHIN = 10.0
"""Most seconds a drain waits, while no call runs, for the answers to be written: the client
reads them at its pace, and one that reads nothing must not hold the server forever."""


class InFlight:
    """Counts the calls being run and the answers being written; `drain` closes to new calls and
    waits for both."""

    def __init__(self) -> None:
        self.count = 0
        """Calls being run (`with in_flight:`)."""
        self.writing = 0
        """Exchanges whose answer is not written yet (`answering`, or `opened` to `answered`):
        an HTTP request is one, and so is a request read from standard input."""
        self.closing = False
        """Set by a stop (or `drain`): new calls are refused from then on."""

    def __enter__(self) -> None:
        self.count += 1

    def __exit__(self, *exc: object) -> None:
        self.count -= 1

    @contextmanager
    def answering(self) -> Iterator[None]:
        """Count one exchange until its answer has been handed to the connection whole."""
        self.opened()
        try:
            yield
        finally:
            self.answered()

    def opened(self) -> None:
        """Count one exchange whose answer is not written yet, ended by `answered`."""
        self.writing += 1

    def answered(self) -> None:
        """The answer of an exchange `opened` has been handed to the connection whole."""
        self.writing -= 1

    async def drain(
        self, give_up: Callable[[], bool] = lambda: False, *, write_within: float = WRITE_WITHIN
    ) -> None:
        """Refuse new calls, wait until every call in flight has ended, then until every answer
        has been written (for `write_within` seconds at most), or until `give_up` says to stop
        waiting (a second Ctrl-C: a change is committed whole or not at all anyway).

        A call returns before its answer is on the wire: a stop that ended at the call's return
        would close the stream the answer was on its way to."""
        self.closing = True
        await self.settled(give_up, write_within=write_within)

    async def settled(
        self, give_up: Callable[[], bool] = lambda: False, *, write_within: float = WRITE_WITHIN
    ) -> None:
        """Wait as `drain` does, still taking new calls: until no call runs and every exchange
        is answered, for `write_within` seconds at most while no call runs (an exchange may be
        counted before its call starts: a request read and not yet dispatched)."""
        deadline = time.monotonic() + write_within
        while (self.count or self.writing) and not give_up():
            if self.count:
                deadline = time.monotonic() + write_within  # a running call holds the wait open
            elif time.monotonic() >= deadline:
                break
            await anyio.sleep(_POLL)
