"""Tasks shared with a forked child (`in_parallel`): every result once, in order, whatever the
child does; and tree diffs that give the same entries run in one process, two, or any order."""

from __future__ import annotations

import os
import select
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import pytest
from diff_corpus import corpus

from edittools.diff import line_diff_dirs, tree_diff
from edittools.diff._files import _reader, _walk
from edittools.diff._forked import QUEUE, can_fork, in_parallel

T = TypeVar("T")
WAIT = 20.0  # seconds: a bound on waiting for the other process, never reached when it works

# Judged from the machine, not from `can_fork`, so that a `can_fork` that wrongly says no fails.
forking = pytest.mark.skipif(
    len(os.sched_getaffinity(0)) < 2, reason="a forked helper needs a second CPU"
)


def _meet(mine: int, theirs: int) -> bool:
    """Signal `mine`, then wait (bounded) for `theirs`: only two processes at once both pass."""
    os.write(mine, b"x")
    ready, _, _ = select.select([theirs], [], [], WAIT)
    return bool(ready)


@forking
def test_two_processes_take_tasks_at_once() -> None:
    """Two tasks that each wait for the other can only both finish in two processes."""
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
    assert [met for met, _ in results] == [True, True]
    assert len({pid for _, pid in results}) == 2
    assert os.getpid() in {pid for _, pid in results}


def test_results_come_in_task_order_each_task_once(tmp_path: Path) -> None:
    """More tasks than queue slots: runs of tasks share a slot, each task runs once in one of
    the processes (they log each run to one file), results stay in order."""
    count = QUEUE * 3 + 5
    log = os.open(tmp_path / "runs", os.O_WRONLY | os.O_CREAT | os.O_APPEND)

    def task(index: int) -> int:
        os.write(log, index.to_bytes(4, "little"))  # appends of 4 bytes do not interleave
        return index * index

    try:
        results = in_parallel([lambda i=i: task(i) for i in range(count)])
    finally:
        os.close(log)
    assert results == [i * i for i in range(count)]
    runs = (tmp_path / "runs").read_bytes()
    assert sorted(int.from_bytes(runs[k : k + 4], "little") for k in range(0, len(runs), 4)) == [
        *range(count)
    ]


@forking
def test_a_child_is_forked_only_without_other_threads() -> None:
    assert can_fork()
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not can_fork()
        assert in_parallel([os.getpid, os.getpid]) == [os.getpid()] * 2
    finally:
        stop.set()
        thread.join()


def test_fewer_than_two_tasks_run_here() -> None:
    assert in_parallel([]) == []
    assert in_parallel([os.getpid]) == [os.getpid()]


@forking
@pytest.mark.parametrize("failure", ["raises", "exits", "unpicklable"])
def test_a_failing_child_s_tasks_are_run_here(failure: str) -> None:
    """The child takes a task and fails in its own way: the parent runs that task itself."""
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
            return (index, _Unpicklable())
        if not waited:  # the parent's first task waits until the child has taken one
            waited.append(bool(select.select([started_read], [], [], WAIT)[0]))
        return index, os.getpid()

    try:
        results = in_parallel([lambda i=i: task(i) for i in range(4)])
    finally:
        os.close(started_read)
        os.close(started_write)
    assert waited == [True]  # the child did take a task
    assert results == [(i, parent) for i in range(4)]


class _Unpicklable:
    def __reduce__(self) -> str | tuple[object, ...]:
        raise TypeError("not picklable")


def test_an_error_in_a_task_reaches_the_caller() -> None:
    def broken() -> int:
        raise ValueError("broken task")

    with pytest.raises(ValueError, match="broken task"):
        in_parallel([lambda: 1, broken, lambda: 3])


# Files a tree diff must count alike on every path: CRLF, no final newline, binary, empty,
# lone CRs, a rename with changes, an identical rename, added and deleted files.
EDGE_FILES: list[tuple[str, bytes | None, bytes | None]] = [
    ("crlf.txt", b"one\r\ntwo\r\nthree\r\n", b"one\r\n2\r\nthree\r\n"),
    ("crlf-to-lf.txt", b"a\r\nb\r\n", b"a\nb\n"),
    ("no-newline.txt", b"a\nb", b"a\nb\n"),
    ("lost-newline.txt", b"a\nb\n", b"a\nb"),
    ("binary.bin", b"\0\1\2", b"\0\1\3"),
    ("becomes-binary.txt", b"text\n", b"te\0xt\n"),
    ("latin-1.css", b"a { content: '\xe9' }\n", b"a { content: '\xe8' }\n"),
    ("emptied.txt", b"gone\n", b""),
    ("filled.txt", b"", b"new\n"),
    ("empty.txt", b"", b""),
    ("lone-cr.txt", b"a\rb\rc\n", b"a\rB\rc\n"),
    ("same.txt", b"same\n", b"same\n"),
    ("deleted.txt", b"bye\n", None),
    ("added.txt", None, b"hello\n"),
    ("old/name.py", b"".join(b"line %d\n" % i for i in range(40)), None),
    ("new/name.py", None, b"".join(b"line %d\n" % i for i in range(40)).replace(b"7\n", b"!\n")),
    ("moved/same.md", b"# moved\n\ntext\n", None),
    ("elsewhere/same.md", None, b"# moved\n\ntext\n"),
]


@pytest.fixture
def trees(tmp_path: Path) -> tuple[Path, Path]:
    """Two trees of the edge files and the corpus, enough of them for many tasks."""
    files = list(EDGE_FILES)
    for index, case in enumerate(corpus()):
        files.append((f"corpus/d{index % 7}/{case.name}-{index}.txt", case.old, case.new))
    for side, root in ((1, tmp_path / "old"), (2, tmp_path / "new")):
        root.mkdir()
        for entry in files:
            data = entry[side]
            if data is not None:
                path = root / str(entry[0])
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
    return tmp_path / "old", tmp_path / "new"


def _in_reverse(tasks: Sequence[Callable[[], T]]) -> list[T]:
    """A runner that runs the last task first: the result must not depend on the order."""
    return [task() for task in reversed(tasks)][::-1]


def _summary(entries: list[object]) -> list[tuple[object, ...]]:
    return [
        (e.path, e.old_path, e.similarity, e.result.operation, e.result.binary, e.result.counts())
        for e in entries
    ]


@pytest.mark.parametrize("hunks", [True, False])
def test_tree_diff_is_the_same_in_one_process_in_two_and_in_any_order(
    trees: tuple[Path, Path], hunks: bool
) -> None:
    old, new = trees
    alone = line_diff_dirs(old, new, hunks=hunks)
    shared = line_diff_dirs(old, new, hunks=hunks, parallel=True)
    with _reader(old) as read_old, _reader(new) as read_new:
        reordered = tree_diff(
            _walk(old), _walk(new), read_old, read_new, hunks=hunks, run=_in_reverse
        )
    assert shared == alone
    assert reordered == alone
    assert len(alone) > 64  # several tasks' worth of changed files
    paths = {entry.path for entry in alone}
    assert {"crlf.txt", "binary.bin", "emptied.txt", "added.txt", "new/name.py"} <= paths
    assert "same.txt" not in paths and "empty.txt" not in paths


def test_counts_alone_equal_the_counts_of_the_hunks_on_every_path(
    trees: tuple[Path, Path],
) -> None:
    old, new = trees
    full = _summary(line_diff_dirs(old, new))
    assert _summary(line_diff_dirs(old, new, hunks=False, parallel=True)) == full
    by_path = {row[0]: row for row in full}
    assert by_path["crlf.txt"][5] == (1, 1)
    assert by_path["no-newline.txt"][5] == (1, 1)
    assert by_path["emptied.txt"][5] == (0, 1)
    assert by_path["binary.bin"][4] and by_path["latin-1.css"][4]
    assert by_path["new/name.py"][1:] == ("old/name.py", 90, "rename", False, (4, 4))  # git: 90%
    assert by_path["elsewhere/same.md"][1:4] == ("moved/same.md", 100, "rename")


@pytest.mark.parametrize("size", [0, 1, (1 << 16) - 1, 1 << 16, (1 << 16) + 1, (3 << 20) + 7])
def test_a_tree_s_files_are_read_whole_at_any_size(tmp_path: Path, size: int) -> None:
    """Around the first read's size and past several later reads, every byte comes back."""
    data = bytes((i * 7 + i // 251) % 256 for i in range(size))
    (tmp_path / "f").write_bytes(data)
    with _reader(tmp_path) as read:
        assert read("f") == data
