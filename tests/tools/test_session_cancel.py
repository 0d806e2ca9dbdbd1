"""A cancelled call is not made: a call given a `cancel` event stops a change before its commit.

The cancel is a real `threading.Event`, set before the call or from another thread while it
runs; the commit is held at its last step by a real second writer of the state database.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from tool_helpers import check_error, tree, unchanged

from edittools import Caller, Session, ToolResult

PATCH = (
    "*** Begin Patch\n*** Update File: a.py\n@@\n-one = 1\n+one = 'one'\n"
    "*** Update File: b.txt\n@@\n-beta\n+BETA\n*** End Patch\n"
)
CHANGES: dict[str, Callable[[Caller], ToolResult]] = {
    "write": lambda s: s.write("a.py", "one = 'one'\n"),
    "edit": lambda s: s.edit("a.py", "one = 1", "one = 'one'"),
    "multi_edit": lambda s: s.multi_edit("a.py", [{"old_string": "1", "new_string": "'one'"}]),
    "insert": lambda s: s.insert("a.py", 1, "two = 2\n"),
    "apply_patch": lambda s: s.apply_patch(PATCH),
    "undo": lambda s: s.undo("a.py"),
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "a.py").write_text("one = 1\n")
    (tmp_path / "b.txt").write_text("alpha\nbeta\n")
    return tmp_path


@pytest.fixture
def session(session: Session) -> Session:
    assert not session.read("a.py").is_error and not session.read("b.txt").is_error
    return session


def cancelled() -> threading.Event:
    cancel = threading.Event()
    cancel.set()
    return cancel


@pytest.mark.parametrize("name", list(CHANGES))
def test_a_call_cancelled_before_it_runs_changes_nothing(
    session: Session, root: Path, name: str
) -> None:
    if name == "undo":
        assert not session.edit("a.py", "one = 1", "one = 'one'").is_error
    before = tree(root)
    with unchanged(root):
        check_error(
            CHANGES[name](session.caller(cancel=cancelled())), "cancelled", "nothing was written"
        )
    assert session.journal()[-1].value.startswith("Error (cancelled)")
    if name != "undo":  # no change went into the undo history either
        check_error(session.undo("a.py"), "nothing_to_undo")
    # Outside the block the same call is made.
    done = CHANGES[name](session)
    assert not done.is_error, done.value
    assert tree(root) != before


@pytest.mark.parametrize("when", ["before", "while_writing"])
def test_the_commit_checks_the_cancel_before_and_after_writing_the_new_content(
    root: Path, when: str
) -> None:
    with Session(root) as session:
        session.read("a.py")
        # A second writer holds the state database: a commit would write and sync the new content
        # to a temp file, then wait to record its intent, where it checks the cancel last.
        other = sqlite3.connect(session.sandbox.state_path / "index.sqlite3", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        cancel = threading.Event()
        if when == "before":
            cancel.set()
        results: list[ToolResult] = []
        caller = session.caller(cancel=cancel)
        with unchanged(root):
            call = threading.Thread(target=lambda: results.append(CHANGES["edit"](caller)))
            call.start()
            if when == "before":  # it stops before writing anything (then waits to journal)
                deadline = time.monotonic() + 0.5
                while time.monotonic() < deadline:
                    assert sorted(os.listdir(root)) == ["a.py", "b.txt"], "a temp file"
                    time.sleep(0.001)
            else:
                deadline = time.monotonic() + 20
                while sorted(os.listdir(root)) == ["a.py", "b.txt"]:
                    assert time.monotonic() < deadline, "the edit wrote no temp file"
                    time.sleep(0.001)
                cancel.set()
            other.execute("ROLLBACK")
            call.join(20)
        other.close()
        check_error(results[0], "cancelled", "nothing was written")
        check_error(session.undo("a.py"), "nothing_to_undo")


def test_a_streamed_edit_stops_in_its_pass(root: Path) -> None:
    """The needle is nowhere: a pass that ran to its end would say `no_match`."""
    (root / "big.txt").write_bytes(b"a line of a file over the size cap\n" * 30_000)  # 1 MB
    with Session(root, max_file_bytes=1 << 16, scan_chunk_bytes=4096) as session:
        assert not session.read("big.txt", limit=1).is_error
        with unchanged(root):
            check_error(
                session.caller(cancel=cancelled()).edit("big.txt", "no such line", "x"), "cancelled"
            )
        check_error(session.edit("big.txt", "no such line", "x"), "no_match")


STREAMED_MISSES: dict[str, Callable[[Caller], ToolResult]] = {
    "multi_edit": lambda s: s.multi_edit("big.txt", [{"old_string": "no such", "new_string": "x"}]),
    "apply_patch": lambda s: s.apply_patch(
        "*** Begin Patch\n*** Update File: big.txt\n@@\n-no such line\n+x\n*** End Patch\n"
    ),
}


@pytest.mark.parametrize("name", list(STREAMED_MISSES))
def test_a_streamed_multi_edit_or_patch_stops_in_its_pass(root: Path, name: str) -> None:
    """As the edit above: the pass over the file is where a cancel is seen."""
    (root / "big.txt").write_bytes(b"a line of a file over the size cap\n" * 30_000)  # 1 MB
    call = STREAMED_MISSES[name]
    with Session(root, max_file_bytes=1 << 16, scan_chunk_bytes=4096) as session:
        assert not session.read("big.txt", limit=1).is_error
        with unchanged(root):
            check_error(call(session.caller(cancel=cancelled())), "cancelled")
        with unchanged(root):
            assert call(session).is_error  # the whole pass: not found
        assert not tree(root).keys() - {"a.py", "b.txt", "big.txt"}  # no temp file left


def test_a_cancelled_streamed_undo_puts_nothing_back(root: Path) -> None:
    data = b"a line of a file over the size cap\n" * 30_000 + b"last = 1\n"
    (root / "big.txt").write_bytes(data)
    with Session(root, max_file_bytes=1 << 16, scan_chunk_bytes=4096) as session:
        assert not session.read("big.txt", limit=1).is_error
        assert not session.edit("big.txt", "last = 1", "last = 2").is_error
        with unchanged(root):
            check_error(session.caller(cancel=cancelled()).undo("big.txt"), "cancelled")
        assert not session.undo("big.txt").is_error  # the change is still there to undo
        assert (root / "big.txt").read_bytes() == data


def test_a_cancel_once_the_change_is_committed_leaves_it_made(root: Path) -> None:
    data = b"x = 'a line of a file of several megabytes'\n" * 200_000 + b"last = 1\n"
    path = root / "big.py"
    path.write_bytes(data)
    inode = path.stat().st_ino
    with Session(root) as session:
        session.read("big.py", limit=1)
        cancel = threading.Event()
        stop = threading.Event()

        def cancel_once_renamed() -> None:  # the commit renames the new file over the old
            while not stop.is_set():
                if path.stat().st_ino != inode:
                    cancel.set()
                    return
                time.sleep(0.0002)

        watcher = threading.Thread(target=cancel_once_renamed)
        watcher.start()
        result = session.caller(cancel=cancel).edit("big.py", "last = 1", "last = 2")
        stop.set()
        watcher.join()
        assert cancel.is_set(), "the call returned before the commit was seen"
        assert not result.is_error, result.value
        assert path.read_bytes() == data.replace(b"last = 1", b"last = 2")
        assert not session.journal()[-1].is_error
