"""`in_parallel`: independent tasks run by this process and a forked child, each taking the next
(the command line's runner for tree diffs: only the process that owns its threads may fork).

A tree diff spends its time opening files and diffing lines in Python, which holds the global
interpreter lock: threads would only take turns. A child forked after the imports starts in
about a millisecond and shares the parent's memory copy-on-write, tasks included. Both
processes take task numbers from one pipe, filled before the fork: a read of one number is
atomic, so every task runs once, and whichever process is free takes the next one (a large
file in one task does not leave the other process idle). The child sends its results back
through a second pipe, marshalled when they are plain data (built in: no module to import,
and a few times faster than pickle) and pickled otherwise.

The child is only a helper. When it cannot help (no ``fork``, a single CPU, other threads
running: a child forked from a threaded process can deadlock on a lock some thread held) or
it fails in any way, the parent runs the tasks it lacks results for itself, so results and
errors are always those of a run in one process.
"""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import Any, TypeVar, cast

Result = TypeVar("Result")

QUEUE = 1024
"""Most numbers in the queue: one page of the pipe, which takes them without blocking. Past
that many tasks, each number stands for a run of consecutive tasks."""
_TOKEN = 4
_READ = 1 << 20
_MARSHAL, _PICKLE = b"m", b"p"


def in_parallel(
    tasks: Sequence[Callable[[], Result]], *, meanwhile: Callable[[], object] | None = None
) -> list[Result]:
    """Run independent `tasks` here and in a forked child when that can help; results in order.

    Results must be picklable; plain data (tuples, lists, dicts, strings, bytes, numbers, None)
    travels fastest. A bytearray from the child's tasks comes back as bytes. `meanwhile` runs
    here once, when this process finds no task left to take, while the child may still be busy:
    work the caller needs next anyway (loading modules, say); its result is dropped.
    """
    if len(tasks) < 2 or not can_fork():
        return _here(tasks, meanwhile)
    per = -(-len(tasks) // QUEUE)
    claims, filler = os.pipe()
    queue = range(0, len(tasks), per)
    os.write(filler, b"".join(index.to_bytes(_TOKEN, "little") for index in queue))
    os.close(filler)  # an empty queue now reads as the end
    results, sender = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        for fd in (claims, results, sender):
            os.close(fd)
        return _here(tasks, meanwhile)
    if pid == 0:  # pragma: no cover - the child; its results are checked in the parent
        _child(tasks, per, claims, results, sender)
    os.close(sender)
    reaped = False
    try:
        done = _claimed(tasks, per, claims)
        if meanwhile is not None:
            meanwhile()
        data = _read_all(results)
        _, status = os.waitpid(pid, 0)
        reaped = True
    finally:
        os.close(claims)
        os.close(results)
        if not reaped:  # the parent failed or was interrupted: the child's work is moot
            import signal

            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) == 0:
        with suppress(Exception):  # a garbled result: the missing tasks run here below
            done.update(_decoded(data))
    return [done[index] if index in done else task() for index, task in enumerate(tasks)]


def _here(
    tasks: Sequence[Callable[[], Result]], meanwhile: Callable[[], object] | None
) -> list[Result]:
    """The tasks run in this process alone, `meanwhile` after them."""
    done = [task() for task in tasks]
    if meanwhile is not None:
        meanwhile()
    return done


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


def _claimed(tasks: Sequence[Callable[[], Result]], per: int, claims: int) -> dict[int, Result]:
    """Run the tasks whose numbers this process reads from the queue (each the first of `per`
    consecutive tasks), until it is empty."""
    done: dict[int, Result] = {}
    while len(token := os.read(claims, _TOKEN)) == _TOKEN:
        first = int.from_bytes(token, "little")
        for index in range(first, min(first + per, len(tasks))):
            done[index] = tasks[index]()
    return done


def _child(
    tasks: Sequence[Callable[[], object]], per: int, claims: int, results: int, sender: int
) -> None:  # pragma: no cover - runs in the child
    """Run claimed tasks, write their results, and leave without running the parent's
    clean-up (exit handlers, buffered output, finally blocks up the stack are the parent's)."""
    status = 1
    try:
        os.close(results)
        data = _encoded(_claimed(tasks, per, claims))
        view = memoryview(data)
        while view:
            view = view[os.write(sender, view) :]
        status = 0
    except BaseException:  # any failure: the parent runs these tasks itself
        pass
    finally:
        os._exit(status)


def _encoded(done: dict[int, object]) -> bytes:
    """The results as bytes, tagged: marshal when it takes them all (it refuses other types,
    subclasses of its own included, rather than change them; only a bytearray turns into
    bytes), else pickle."""
    try:
        return _MARSHAL + marshal.dumps(done)
    except ValueError:
        import pickle

        return _PICKLE + pickle.dumps(done, protocol=pickle.HIGHEST_PROTOCOL)


def _decoded(data: bytes) -> dict[int, Any]:
    body = memoryview(data)[1:]
    if data[:1] == _MARSHAL:
        return cast(dict[int, Any], marshal.loads(body))
    import pickle

    return cast(dict[int, Any], pickle.loads(body))


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, _READ):
        chunks.append(chunk)
    return b"".join(chunks)
