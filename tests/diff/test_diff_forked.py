"""Tasks shared with a forked child (`in_parallel`): every result once, in order, whatever the
child does; and tree diffs that give the same entries run in one process, two, or any order.

The scenarios that fork run in a fresh interpreter (`forked_scenarios`): threads that earlier
tests of the session left running would rightly keep `in_parallel` to one process here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from diff_corpus import corpus

from edittools.cli._forked import in_parallel
from edittools.diff._files import _reader

HERE = Path(__file__).resolve().parent

# Judged from the machine, not from `can_fork`, so that a `can_fork` that wrongly says no fails.
forking = pytest.mark.skipif(
    len(os.sched_getaffinity(0)) < 2, reason="a forked helper needs a second CPU"
)


def fresh(scenario: str, *args: str) -> dict[str, object]:
    """Run a scenario of `forked_scenarios` in a fresh interpreter; its result."""
    code = (
        "import json, sys, forked_scenarios\n"
        f"print(json.dumps(forked_scenarios.{scenario}(*sys.argv[1:])))\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parents[1]), str(HERE)]))
    proc = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=False
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, object] = json.loads(proc.stdout)
    return result


@forking
def test_two_processes_take_tasks_at_once() -> None:
    """Two tasks that each wait for the other can only both finish in two processes."""
    assert fresh("meet") == {"met": [True, True], "pids": 2, "here": True}


@forking
def test_each_task_runs_once_in_one_of_the_processes_and_results_keep_their_order(
    tmp_path: Path,
) -> None:
    """More tasks than queue slots: runs of tasks share a slot; the tasks log each run."""
    result = fresh("each_once", str(tmp_path / "runs"))
    assert result["in_order"] is True
    assert result["runs"] == list(range(int(result["count"])))  # type: ignore[call-overload]
    assert result["pids"] == 2 and result["waited"] == [True]
    assert result["slots_whole"] is True


def test_results_keep_their_order_in_this_process_too() -> None:
    assert in_parallel([lambda i=i: i * i for i in range(50)]) == [i * i for i in range(50)]


@forking
@pytest.mark.parametrize("batch", ["plain", "mixed"])
def test_results_come_back_from_the_child_as_they_left_it(batch: str) -> None:
    """Plain data travels marshalled; a batch with a named tuple (which marshal refuses)
    pickled. Either way every value keeps its type: tuples stay tuples, bytes bytes."""
    result = fresh("kinds", batch)
    assert result["by_child"] and result["same"] is True
    plain = ["int", "str", "bytes", "tuple", "dict", "int"]
    assert all(kinds in (plain, ["Pair", "set"]) for kinds in result["kinds"])  # type: ignore[attr-defined]


@forking
def test_meanwhile_runs_here_once_while_the_child_still_works() -> None:
    assert fresh("meanwhile") == {
        "results": [["child", True], ["parent", True]],
        "calls": [True],
    }


def test_meanwhile_runs_once_after_the_tasks_in_one_process() -> None:
    order: list[str] = []
    results = in_parallel(
        [lambda: order.append("task") or 1], meanwhile=lambda: order.append("meanwhile")
    )
    assert results == [1] and order == ["task", "meanwhile"]


@forking
def test_a_child_is_forked_only_without_other_threads() -> None:
    assert fresh("threads") == {"alone": True, "beside_a_thread": False, "pids": 1}


def test_fewer_than_two_tasks_run_here() -> None:
    assert in_parallel([]) == []
    assert in_parallel([os.getpid]) == [os.getpid()]


@forking
@pytest.mark.parametrize("failure", ["raises", "exits", "unpicklable"])
def test_a_failing_child_s_tasks_are_run_here(failure: str) -> None:
    """The child takes a task and fails in its own way: the parent runs that task itself."""
    assert fresh("failing", failure) == {"waited": [True], "all_here": True}


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


@forking
def test_tree_diff_is_the_same_in_one_process_in_two_and_in_any_order(
    trees: tuple[Path, Path],
) -> None:
    old, new = trees
    full = fresh("trees", str(old), str(new), "hunks")
    counted = fresh("trees", str(old), str(new), "counts")
    for result in (full, counted):
        assert result["forked"] is True
        assert result["same"] is True and result["same_in_reverse"] is True
    # Counting alone gives the hunks' counts, on the edge files too.
    assert counted["entries"] == full["entries"]
    rows = {row[0]: row[1:] for row in full["entries"]}  # type: ignore[attr-defined]
    assert len(rows) > 64  # several tasks' worth of changed files
    assert "same.txt" not in rows and "empty.txt" not in rows
    assert rows["crlf.txt"] == ["crlf.txt", None, "modify", False, 1, 1]
    assert rows["no-newline.txt"][-2:] == [1, 1]
    assert rows["emptied.txt"][-2:] == [0, 1]
    assert rows["binary.bin"][3] is True and rows["latin-1.css"][3] is True
    assert rows["new/name.py"] == ["old/name.py", 90, "rename", False, 4, 4]  # git: 90%
    assert rows["elsewhere/same.md"] == ["moved/same.md", 100, "rename", False, 0, 0]
    assert rows["added.txt"] == [None, None, "create", False, 1, 0]


@pytest.mark.parametrize("size", [0, 1, (1 << 16) - 1, 1 << 16, (1 << 16) + 1, (3 << 20) + 7])
def test_a_tree_s_files_are_read_whole_at_any_size(tmp_path: Path, size: int) -> None:
    """Around the first read's size and past several later reads, every byte comes back."""
    data = bytes((i * 7 + i // 251) % 256 for i in range(size))
    (tmp_path / "f").write_bytes(data)
    with _reader(tmp_path) as read:
        assert read("f") == data
