"""A watcher stopped at once gives back its descriptors: watchdog's inotify reader, stopped before
its thread first reads, would otherwise keep its inotify descriptor and a pipe open for good."""

from __future__ import annotations

import os
import pathlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from sandbox import Sandbox, Watcher


def _descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


@contextmanager
def _busy_interpreter() -> Iterator[None]:
    """Threads that keep the interpreter busy, so a new thread is slow to get going (as on a
    loaded host): the stop then often comes before the reader's first read."""
    done = threading.Event()

    def spin() -> None:
        while not done.is_set():
            sum(range(1000))

    spinners = [threading.Thread(target=spin, name=f"spin-{i}") for i in range(2)]
    for spinner in spinners:
        spinner.start()
    try:
        yield
    finally:
        done.set()
        for spinner in spinners:
            spinner.join()


def test_watchers_started_and_stopped_at_once_give_back_every_descriptor(
    tmp_path: pathlib.Path,
) -> None:
    with Sandbox(tmp_path) as sb:
        first = Watcher(sb)
        first.start()
        first.stop()  # one-time descriptors (the state database) opened before counting
        before = _descriptors()
        with _busy_interpreter():
            for _ in range(50):
                watcher = Watcher(sb)
                watcher.start()
                watcher.stop()
        assert _descriptors() == before
