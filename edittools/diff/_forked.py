"""`in_two`: two independent pieces of work at once, the second in a forked child process.

A tree diff spends its time opening files and diffing lines in Python, which holds the global
interpreter lock: threads would only take turns. A child forked after the imports starts in
about a millisecond and shares the parent's memory copy-on-write; it runs one piece and sends
its result back pickled through a pipe while the parent runs the other.

The child is only a helper. When it cannot help (no ``fork``, a single CPU, other threads
running: a child forked from a threaded process can deadlock on a lock some thread held) or
it fails in any way, the parent runs the second piece itself, so results and errors are
always those of a run in one process.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from typing import TypeVar

First = TypeVar("First")
Second = TypeVar("Second")

_READ = 1 << 20


def in_two(first: Callable[[], First], second: Callable[[], Second]) -> tuple[First, Second]:
    """Run `first` here and `second` in a forked child when that can help; return both results.

    Both must be independent of each other, and `second`'s result picklable.
    """
    if not can_fork():
        return first(), second()
    import pickle  # only a forked run needs it

    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return first(), second()
    if pid == 0:  # pragma: no cover - the child; its result is checked in the parent
        _child(second, read_end, write_end)
    os.close(write_end)
    reaped = False
    try:
        here = first()
        data = _read_all(read_end)
        _, status = os.waitpid(pid, 0)
        reaped = True
    finally:
        os.close(read_end)
        if not reaped:  # the parent failed or was interrupted: the child's work is moot
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) == 0:
        try:
            there: Second = pickle.loads(data)
        except Exception:  # a garbled result: do the work here
            there = second()
        else:
            return here, there
    return here, second()


def can_fork() -> bool:
    """Whether a forked helper can run beside this process: fork exists, two CPUs are ours,
    and no other thread runs (only the main thread would exist in the child)."""
    if not hasattr(os, "fork"):
        return False
    threading = sys.modules.get("threading")  # not imported: no thread was started from Python
    if threading is not None and threading.active_count() > 1:
        return False
    cpus = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    return (len(cpus) if cpus is not None else os.cpu_count() or 1) > 1


def _child(work: Callable[[], object], read_end: int, write_end: int) -> None:  # pragma: no cover
    """Run `work`, write its pickled result, and leave without running the parent's clean-up
    (exit handlers, buffered output, finally blocks up the stack belong to the parent)."""
    import pickle

    status = 1
    try:
        os.close(read_end)
        view = memoryview(pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL))
        while view:
            view = view[os.write(write_end, view) :]
        status = 0
    except BaseException:  # any failure: the parent does the work itself
        pass
    finally:
        os._exit(status)


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, _READ):
        chunks.append(chunk)
    return b"".join(chunks)
