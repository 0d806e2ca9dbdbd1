"""An asyncio event loop on a thread of its own, for synchronous callers.

The language servers' clients live on this loop; `Checkers` submits coroutines to it and waits on
their futures with a timeout, so a caller never waits longer than it chose to.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class LoopThread:
    """An event loop started on first use, run by one daemon thread until `stop`."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    @property
    def started(self) -> bool:
        """Whether the loop's thread runs."""
        return self._thread is not None

    def submit(self, coroutine: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Run `coroutine` on the loop; its future can be waited on from any thread."""
        with self._lock:
            if self._loop is None:
                self._start()
            assert self._loop is not None
            return asyncio.run_coroutine_threadsafe(coroutine, self._loop)

    def stop(self, timeout: float) -> None:
        """Stop the loop, cancel what still runs on it, and join the thread within `timeout`."""
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout)

    def _start(self) -> None:
        loop = asyncio.new_event_loop()
        ready = threading.Event()
        thread = threading.Thread(
            target=self._run, args=(loop, ready), name=self._name, daemon=True
        )
        thread.start()
        ready.wait()
        self._loop, self._thread = loop, thread

    @staticmethod
    def _run(loop: asyncio.AbstractEventLoop, ready: threading.Event) -> None:
        asyncio.set_event_loop(loop)
        loop.call_soon(ready.set)
        try:
            loop.run_forever()
            tasks = asyncio.all_tasks(loop)
            for task in tasks:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(loop.shutdown_default_executor())
        finally:
            asyncio.set_event_loop(None)
            loop.close()
