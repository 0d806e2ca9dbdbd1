"""Parsing a file before its first change: on a background thread, between tool calls.

A change is checked against the tree of the text it started from; with none kept, the first change
of a large file pays a full parse (tens of milliseconds for 10,000 lines of Python). A `read` comes
before a change, so it hands the text here and a worker thread parses it while the agent thinks.

The binding holds the GIL while it parses, so a parse running beside a tool call would hold that
call up. The worker therefore parses only while no call runs (`in_call` marks them) and a little
after one ended (its result is still being sent), in slices of about a millisecond: a halted
tree-sitter parse resumes where it stopped, and a call that starts meanwhile waits at most a slice.
A check that needs a parse under way has the worker finish it at once and waits; one whose parse
has not begun takes it off the queue (and parses as it would without).
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial

from tree_sitter import Language, Parser, Point, Tree

from edittools.syntax._languages import CHECKED_LANGUAGES, grammar, language_of
from edittools.syntax._trees import Kept, holds, keep, take

_MIN_CHARS = 16 * 1024  # below this a parse at the change costs about what the hand-over does
_SLICE = 0.001  # seconds of parsing before the worker looks whether a call wants to run
_QUIET = 0.02  # seconds after a call before the worker parses: the call's result is being sent
_MAX_SLICES = 50_000  # a parse that never finishes is given up
_QUEUED = 8


@dataclass
class _Job:
    language: str
    text: str
    done: threading.Event = field(default_factory=threading.Event)
    wanted: bool = False
    """A check waits for this parse: run it now, calls or not."""


_queued: OrderedDict[str, _Job] = OrderedDict()
_running: dict[str, _Job] = {}
_turns = threading.Condition()  # guards all of the above and below
_worker: threading.Thread | None = None
_calls = 0
_last_call = 0.0


def _forked() -> None:
    """A forked child has no worker, and the locks the parent's threads held must not stay held."""
    global _turns, _worker, _calls
    _turns = threading.Condition()
    _queued.clear()
    _running.clear()
    _worker = None
    _calls = 0


os.register_at_fork(after_in_child=_forked)


def warm_up(path: str, text: str) -> None:
    """Parse `text`, what `path` holds, in the background, ready for the file's next change.

    Small texts and names without a grammar are left alone; so is a text whose tree is kept.
    """
    global _worker
    language = language_of(path)
    if language not in CHECKED_LANGUAGES or len(text) < _MIN_CHARS:
        return
    if holds(path, text.encode("utf-8", "replace")):
        return
    with _turns:
        old = _queued.pop(path, None)
        if old is not None:
            old.done.set()
        _queued[path] = _Job(language, text)
        while len(_queued) > _QUEUED:
            _queued.popitem(last=False)[1].done.set()
        if _worker is None:
            # One thread for the process, waiting when idle: starting a thread per read would
            # make the read wait for the new thread to be scheduled (milliseconds on a busy host).
            _worker = threading.Thread(target=_work, name="edittools-syntax-warm", daemon=True)
            _worker.start()
        elif not _calls:
            _turns.notify_all()  # in a call, its end wakes the worker: no thread switch before


@contextmanager
def in_call() -> Iterator[None]:
    """Mark a tool call: no background parse starts a slice while one runs."""
    global _calls, _last_call
    with _turns:
        _calls += 1
    try:
        yield
    finally:
        with _turns:
            _calls -= 1
            _last_call = time.monotonic()
            if _queued or _running:
                _turns.notify_all()


def kept_tree(language: Language, path: str, source: bytes) -> Kept | None:
    """What is kept for `path` if it is the parse of `source` (taken: keep it again after use).

    A parse of `path` under way is finished first; one not begun is dropped (the caller parses).
    """
    with _turns:
        queued = _queued.pop(path, None)
        running = _running.get(path)
        if running is not None:
            running.wanted = True
            _turns.notify_all()
    if queued is not None:
        queued.done.set()
    if running is not None:
        running.done.wait()
    return take(language, path, source)


def settle(timeout: float | None = None) -> bool:
    """Wait until no parse is queued or under way; False if `timeout` seconds passed first."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        with _turns:
            jobs = [*_running.values(), *_queued.values()]
        if not jobs:
            return True
        left = None if deadline is None else deadline - time.monotonic()
        if (left is not None and left <= 0) or not jobs[0].done.wait(left):
            return False


def _work() -> None:
    while True:
        with _turns:
            while not _queued:
                _turns.wait()
            path, job = _queued.popitem(last=False)
            _running[path] = job
        try:
            language = grammar(job.language)
            if language is not None:
                source = job.text.encode("utf-8", "replace")
                tree = sliced_parse(language, source, partial(_wait_turn, job))
                if tree is not None:
                    keep(path, Kept(language, source, tree))
        finally:
            with _turns:
                del _running[path]
            job.done.set()


def _wait_turn(job: _Job) -> None:
    """Return when the worker may parse a slice: no call runs and the last ended a while ago."""
    with _turns:
        while not job.wanted:
            quiet = _last_call + _QUIET - time.monotonic()
            if _calls == 0 and quiet <= 0:
                return
            _turns.wait(None if _calls else quiet)


def sliced_parse(
    language: Language, source: bytes, before_slice: Callable[[], None] | None = None
) -> Tree | None:
    """Parse `source` a slice at a time, calling `before_slice` before each; None if it never
    finishes."""
    parser = Parser(language)
    view = memoryview(source)
    deadline = 0.0

    def read(offset: int, _: Point) -> memoryview:
        return view[offset:]

    def halt(_offset: int, _has_error: bool) -> bool:
        return time.perf_counter() > deadline

    for _ in range(_MAX_SLICES):
        if before_slice is not None:
            before_slice()
        deadline = time.perf_counter() + _SLICE
        try:
            return parser.parse(read, progress_callback=halt)
        except ValueError:  # halted: the parser resumes there on the next call
            continue
    return None
