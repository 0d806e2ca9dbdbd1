"""Input shapes that must cost linear work, pinned at small sizes by counts, never by time:
many files in one patch, many hunks in one patch, one long line, many checkpoints; and the diff
budget of a call, which a reordered file or a patch of many files must keep or say it cut.

Counts: file-system calls (see `op_counter`), Python function calls (`sys.setprofile`) and the
state database's virtual machine steps (SQLite's progress handler), at sizes N, 2N and 4N.
benchmarks/bench_scaling.py times the same shapes at full size.
"""

from __future__ import annotations

import random
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from op_counter import grows_linearly, install

from edittools import Session
from edittools.change import COARSE_NOTE
from edittools.state._checkpoints import _changed_since
from edittools.tools import _runner


@contextmanager
def python_calls() -> Iterator[list[int]]:
    """Counts the Python function calls made in the block (in this thread)."""
    count = [0]

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            count[0] += 1

    sys.setprofile(profile)
    try:
        yield count
    finally:
        sys.setprofile(None)


def _session(root: Path) -> Session:
    root.mkdir()
    return Session(root, state_dir=root.parent / f"{root.name}-state", syntax_check="off")


def test_a_patch_adding_many_files_is_linear_in_their_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counter = install(monkeypatch)
    calls, python = [], []
    for files in (5, 20, 40, 80):  # the first warms up (imports made on first use)
        body = "".join(f"*** Add File: d{i % 3}/f{i}.txt\n+line {i}\n" for i in range(files))
        with _session(tmp_path / f"root{files}") as s:
            with counter.counting(), python_calls() as count:
                result = s.apply_patch(f"*** Begin Patch\n{body}*** End Patch\n")
            assert not result.is_error, result.value
        calls.append(counter.calls)
        python.append(count[0])
    assert grows_linearly(calls[1:]), calls
    assert grows_linearly(python[1:]), python


def _hunks_patch(lines: list[str], hunks: int) -> str:
    parts = ["--- a/f.py\n+++ b/f.py\n"]
    for h in range(hunks):
        k = h * 10 + 2
        parts.append(f"@@ -{k},2 +{k},2 @@\n {lines[k - 1]}\n-{lines[k]}\n+{lines[k]}  # c\n")
    return "".join(parts)


def test_a_patch_of_many_hunks_and_its_undo_are_linear_in_the_hunks(tmp_path: Path) -> None:
    patch_calls, undo_calls = [], []
    for hunks in (10, 100, 200, 400):  # the first warms up
        lines = [f"value_{i} = compute({i})" for i in range(hunks * 10)]
        with _session(tmp_path / f"root{hunks}") as s:
            (s.sandbox.root / "f.py").write_text("\n".join(lines) + "\n")
            s.read("f.py", limit=1)
            with python_calls() as count:
                result = s.apply_patch(_hunks_patch(lines, hunks))
            assert not result.is_error and result.value.count("+") >= 1, result.value
            patch_calls.append(count[0])
            with python_calls() as count:
                assert not s.undo("f.py").is_error
            undo_calls.append(count[0])
            assert (s.sandbox.root / "f.py").read_text() == "\n".join(lines) + "\n"
    assert grows_linearly(patch_calls[1:]), patch_calls
    assert grows_linearly(undo_calls[1:]), undo_calls


def test_an_edit_in_one_long_line_costs_calls_that_do_not_grow_with_it(tmp_path: Path) -> None:
    counts = []
    for size in (1 << 10, 64 << 10, 128 << 10, 256 << 10):  # the first warms up
        with _session(tmp_path / f"root{size}") as s:
            (s.sandbox.root / "f.txt").write_bytes(b"x" * size + b" MARK " + b"y" * 50 + b"\n")
            s.read("f.txt", limit=1)
            with python_calls() as count:
                result = s.edit("f.txt", "MARK", "MORK")
            assert not result.is_error
            counts.append(count[0])
    # The bytes are scanned in C; the Python work is the same whatever the line's length.
    assert max(counts[1:]) - min(counts[1:]) <= 50, counts


def _shuffled(lines: int) -> tuple[str, str]:
    rng = random.Random(lines)
    body = [f"line {i} of the file, {rng.random()}\n" for i in range(lines)]
    old = "".join(body)
    rng.shuffle(body)
    return old, "".join(body)


def test_a_reordered_write_and_its_undo_say_their_diff_was_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A budget the diffs of the call have spent already: the outcome does not hang on speed.
    monkeypatch.setattr(_runner, "DEFAULT_BUDGET", 0.0)
    old, new = _shuffled(2000)
    with _session(tmp_path / "root") as s:
        (s.sandbox.root / "f.txt").write_text(old)
        s.read("f.txt", limit=1)
        written = s.write("f.txt", new)
        assert not written.is_error
        assert COARSE_NOTE in written.value
        assert written.artifact.payload.minimal is False  # type: ignore[union-attr]
        assert (s.sandbox.root / "f.txt").read_text() == new
        undone = s.undo("f.txt")
        assert not undone.is_error and COARSE_NOTE in undone.value
        assert (s.sandbox.root / "f.txt").read_text() == old


def test_a_budget_cut_diff_is_said_coarse_by_every_span_tool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """edit_symbol, edit_lines and multi_edit word their sentence through the one formatter:
    a diff cut to its budget is said to be coarse, not given as exact counts."""
    monkeypatch.setattr(_runner, "DEFAULT_BUDGET", 0.0)
    old, new = _shuffled(2000)
    body = "".join(f"    {line}" for line in old.splitlines(keepends=True))
    with _session(tmp_path / "root") as s:
        (s.sandbox.root / "m.py").write_text(f"def f():\n{body}")
        (s.sandbox.root / "t.txt").write_text(old)
        (s.sandbox.root / "e.txt").write_text(old)
        assert not s.read("m.py", limit=1).is_error
        assert not s.read("e.txt", limit=1).is_error
        anchored = s.read("t.txt", limit=2000, anchors=True).value.splitlines()
        results = {
            "edit_symbol": s.edit_symbol("m.py", "f", new, where="body"),
            "edit_lines": s.edit_lines(
                "t.txt", anchored[0].split("|")[0], anchored[1999].split("|")[0], new
            ),
            "multi_edit": s.multi_edit("e.txt", [{"old_string": old, "new_string": new}]),
        }
    for name, result in results.items():
        assert not result.is_error, (name, result.value)
        assert result.artifact.payload.minimal is False, name  # type: ignore[union-attr]
        assert COARSE_NOTE in result.value.splitlines()[0], name


def test_the_diffs_of_a_patch_share_one_budget_and_the_value_counts_the_cut_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_runner, "DEFAULT_BUDGET", 0.0)
    with _session(tmp_path / "root") as s:
        sections = []
        for name in ("a.txt", "b.txt"):
            old, new = _shuffled(1500 + len(sections))
            (s.sandbox.root / name).write_text(old)
            removed = "".join(f"-{line}\n" for line in old.splitlines())
            added = "".join(f"+{line}\n" for line in new.splitlines())
            sections.append(f"*** Update File: {name}\n@@\n{removed}{added}")
        sections.append("*** Add File: c.txt\n+new\n")
        result = s.call("apply_patch", {"patch": f"*** Begin Patch\n{''.join(sections)}"
                                                 "*** End Patch\n"})  # fmt: skip
        assert not result.is_error, result.value
        assert f"2 of the diffs: {COARSE_NOTE}" in result.value
        files = result.artifact.payload.files  # type: ignore[union-attr]
        assert [f.minimal for f in files] == [False, False, True]  # an added file needs no search


def _brute(paths: list[tuple[int, int]], marks: list[tuple[int, int]]) -> list[int]:
    return [sum(1 for a, u in paths if a > c or u > i) for c, i in marks]


def test_files_changed_since_each_checkpoint_are_counted_as_the_query_did() -> None:
    rng = random.Random(5)
    for _ in range(200):
        paths = [(rng.randint(1, 60), rng.choice([-1, rng.randint(1, 40)])) for _ in range(25)]
        marks = [(rng.randint(0, 62), rng.randint(0, 42)) for _ in range(12)]
        assert _changed_since(paths, marks) == _brute(paths, marks)


def test_listing_checkpoints_is_linear_in_the_changes(tmp_path: Path) -> None:
    steps: list[int] = []
    for changes in (400, 800, 1600):
        with _session(tmp_path / f"root{changes}") as s:
            db = sqlite3.connect(s.sandbox.index.path)
            with db:
                intent = db.execute(
                    "INSERT INTO intents (state, created) VALUES ('done', 0)"
                ).lastrowid
                db.executemany(
                    "INSERT INTO changes (path, before_blob, after_digest, intent) "
                    "VALUES (?, ?, ?, ?)",
                    ((f"m{n % 97}.py", f"{n:064x}", f"{n + 1:064x}", intent)
                     for n in range(changes)),
                )  # fmt: skip
                db.executemany(
                    "INSERT INTO checkpoints (auto, created, change_mark, intent_mark) "
                    "VALUES ('session', 0, ?, ?)",
                    ((n, intent) for n in range(0, changes, 10)),
                )
            db.close()
            listed, count = _vm_steps(s, lambda: s.checkpoints())
            assert [c.files for c in listed][:2] == [97, 97] and listed[-1].files <= 10
            steps.append(count)
    assert grows_linearly(steps, slack=0.25), steps


def _vm_steps(s: Session, run: Callable[[], Any]) -> tuple[Any, int]:
    """What `run` returns, and the virtual machine steps the state database took for it."""
    connection: sqlite3.Connection = s.sandbox.index._db  # the one connection the state uses
    count = [0]

    def step() -> int:
        count[0] += 1
        return 0

    connection.set_progress_handler(step, 1)
    try:
        return run(), count[0]
    finally:
        connection.set_progress_handler(None, 1)
