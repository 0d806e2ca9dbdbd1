"""Scenarios of tasks shared with a forked child, each run in a fresh interpreter by the tests.

A fresh interpreter has no other thread, so a helper can be forked whatever threads earlier tests
of the session left running (with them, `in_parallel` rightly runs everything in one process).
Each scenario returns plain data (JSON) for the test to check.
"""

from __future__ import annotations

import os
import select
import threading
from pathlib import Path
from typing import NamedTuple

from edittools.cli._forked import QUEUE, can_fork, in_parallel
from edittools.diff import line_diff_dirs, tree_diff
from edittools.diff._files import _reader, _walk

WAIT = 20.0  # seconds: a bound on waiting for the other process, never reached when it works


def _meet(mine: int, theirs: int) -> bool:
    """Signal `mine`, then wait (bounded) for `theirs`: only two processes at once both pass."""
    os.write(mine, b"x")
    ready, _, _ = select.select([theirs], [], [], WAIT)
    return bool(ready)


def meet() -> dict[str, object]:
    """Two tasks that each wait for the other."""
    a_read, a_write = os.pipe()
    b_read, b_write = os.pipe()
    try:
        results = in_parallel(
            [
                lambda: (_meet(a_write, b_read), os.getpid()),
                lambda: (_meet(b_write, a_read), os.getpid()),
            ]
        )
    finally:
        for fd in (a_read, a_write, b_read, b_write):
            os.close(fd)
    pids = {pid for _, pid in results}
    return {"met": [met for met, _ in results], "pids": len(pids), "here": os.getpid() in pids}


def each_once(log_name: str) -> dict[str, object]:
    """More tasks than queue slots, each logging its run to one file (appends of 4 bytes do
    not interleave); the parent's first task waits until the child has run one."""
    count = QUEUE * 3 + 5
    per = -(-count // QUEUE)  # tasks per slot of the queue
    parent = os.getpid()
    log = os.open(log_name, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    started_read, started_write = os.pipe()
    waited: list[bool] = []

    def task(index: int) -> tuple[int, int]:
        os.write(log, index.to_bytes(4, "little"))
        if os.getpid() != parent:
            os.write(started_write, b"x")
        elif not waited:
            waited.append(bool(select.select([started_read], [], [], WAIT)[0]))
        return index * index, os.getpid()

    try:
        results = in_parallel([lambda i=i: task(i) for i in range(count)])
    finally:
        for fd in (log, started_read, started_write):
            os.close(fd)
    runs = Path(log_name).read_bytes()
    return {
        "in_order": [value for value, _ in results] == [i * i for i in range(count)],
        "runs": sorted(int.from_bytes(runs[k : k + 4], "little") for k in range(0, len(runs), 4)),
        "count": count,
        "pids": len({pid for _, pid in results}),
        "waited": waited,
        # Whoever claims a slot runs all its tasks: none is left over for the parent's fallback.
        "slots_whole": all(
            len({pid for _, pid in results[first : first + per]}) == 1
            for first in range(0, count, per)
        ),
    }


def failing(failure: str) -> dict[str, object]:
    """The child takes a task and fails (`raises`, `exits` or `unpicklable`)."""
    parent = os.getpid()
    started_read, started_write = os.pipe()
    waited: list[bool] = []

    def task(index: int) -> tuple[int, int]:
        if os.getpid() != parent:
            os.write(started_write, b"x")
            if failure == "raises":
                raise RuntimeError("the child fails")
            if failure == "exits":
                os._exit(3)
            return (index, _Unpicklable())  # type: ignore[return-value]
        if not waited:  # the parent's first task waits until the child has taken one
            waited.append(bool(select.select([started_read], [], [], WAIT)[0]))
        return index, os.getpid()

    try:
        results = in_parallel([lambda i=i: task(i) for i in range(4)])
    finally:
        os.close(started_read)
        os.close(started_write)
    return {"waited": waited, "all_here": results == [(i, parent) for i in range(4)]}


class _Unpicklable:
    def __reduce__(self) -> str | tuple[object, ...]:
        raise TypeError("not picklable")


class Pair(NamedTuple):
    first: int
    second: int


def kinds(batch: str) -> dict[str, object]:
    """Results come back from the child as they left it: a `plain` batch (marshalled) and a
    `mixed` one, whose named tuple and set marshal refuses (pickled)."""
    parent = os.getpid()
    started_read, started_write = os.pipe()

    def value(index: int) -> object:
        if batch == "mixed" and index % 2:
            return (Pair(index, -index), {index})
        return [index, "text", b"bytes", (1.5, None, True), {"k": [index]}, 2**70]

    def task(index: int) -> tuple[object, int]:
        if os.getpid() != parent:
            os.write(started_write, b"x")
        elif index == 0:  # the parent's first task waits until the child has taken one
            select.select([started_read], [], [], WAIT)
        return value(index), os.getpid()

    try:
        results = in_parallel([lambda i=i: task(i) for i in range(6)])
    finally:
        os.close(started_read)
        os.close(started_write)
    by_child = [i for i, (_, pid) in enumerate(results) if pid != parent]
    return {
        "by_child": len(by_child),
        "kinds": [
            [type(part).__name__ for part in results[i][0]]  # type: ignore[attr-defined]
            for i in by_child
        ],
        "same": [result for result, _ in results] == [value(i) for i in range(6)],
    }


def meanwhile() -> dict[str, object]:
    """`meanwhile` runs here, once, while the child is still busy: the child's task waits for
    it (bounded), and the parent's task waits until the child has taken its own."""
    parent = os.getpid()
    started_read, started_write = os.pipe()
    ran_read, ran_write = os.pipe()
    calls: list[int] = []

    def task() -> tuple[str, bool]:
        if os.getpid() != parent:
            os.write(started_write, b"x")
            return "child", bool(select.select([ran_read], [], [], WAIT)[0])
        return "parent", bool(select.select([started_read], [], [], WAIT)[0])

    def note() -> None:
        calls.append(os.getpid())
        os.write(ran_write, b"x")

    try:
        results = in_parallel([task, task], meanwhile=note)
    finally:
        for fd in (started_read, started_write, ran_read, ran_write):
            os.close(fd)
    return {"results": sorted(results), "calls": [pid == parent for pid in calls]}


def threads() -> dict[str, object]:
    """Whether a helper is forked alone, and beside another thread."""
    alone = can_fork()
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        beside = can_fork()
        pids = {pid for pid in in_parallel([os.getpid, os.getpid])}
    finally:
        stop.set()
        thread.join()
    return {"alone": alone, "beside_a_thread": beside, "pids": len(pids)}


def trees(old: str, new: str, hunks: str) -> dict[str, object]:
    """A tree diff in two processes, in one, and with the tasks run last first."""
    counts_only = hunks == "counts"
    shared = line_diff_dirs(old, new, hunks=not counts_only, run=in_parallel)
    alone = line_diff_dirs(old, new, hunks=not counts_only)
    with _reader(Path(old)) as read_old, _reader(Path(new)) as read_new:
        reordered = tree_diff(
            _walk(Path(old)),
            _walk(Path(new)),
            read_old,
            read_new,
            hunks=not counts_only,
            run=lambda tasks: [task() for task in reversed(tasks)][::-1],
        )
    return {
        "forked": can_fork(),
        "same": shared == alone,
        "same_in_reverse": reordered == alone,
        "entries": [
            [
                e.path,
                e.old_path,
                e.similarity,
                e.result.operation,
                e.result.binary,
                *e.result.counts(),
            ]
            for e in shared
        ],
    }
