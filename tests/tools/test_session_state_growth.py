"""State grows by the change in every process: each call below runs in a fresh child process
(the command line), as a host that starts one per call would.

A read keeps an unsynced copy of what it read (for a stale read's diff); the change that follows
puts the replaced inode itself in its place (a hard link: no data written), and a checkpoint taken
when the next process opens refers to what the tools wrote by its recipe instead of copying the
file. A snapshot that cannot be a link is a copy, and the result says so.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox import digest_of

pytestmark = pytest.mark.integration

KIB = 1024


def _cli(root: Path, state: Path, *args: str) -> dict[str, object]:
    """Run one tool in a new process; its result as JSON."""
    done = subprocess.run(
        [sys.executable, "-m", "edittools", args[0], "--root", str(root), "--state-dir",
         str(state), "--json", *args[1:]],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    assert not result["is_error"], result["value"]
    return result


def _usage(state: Path, linked: set[int]) -> tuple[int, int]:
    """Apparent bytes and allocated bytes of the state folder, each inode once, without the
    inodes in `linked` (replaced files the store holds by a link: their data was the file's).

    The lock table's apparent size is left out: it is sparse, as large as the highest slot a
    lock wrote (up to 1 MiB), with a block or two on disk.
    """
    seen: set[int] = set(linked)
    size = blocks = 0
    for folder, _, files in os.walk(state):
        for name in files:
            st = os.lstat(os.path.join(folder, name))
            if st.st_ino not in seen:
                seen.add(st.st_ino)
                size += 0 if Path(folder).name == "locks" else st.st_size
                blocks += st.st_blocks * 512
    return size, blocks


def _blob(state: Path, data: bytes) -> Path:
    blob_id = digest_of(data)
    found = list(state.glob(f"*/blobs/{blob_id[:2]}/{blob_id[2:]}"))
    assert len(found) == 1, found
    return found[0]


def _big(root: Path) -> list[str]:
    lines = [f"    value_{i} = compute({i}, {i * 7 % 13})  # line {i}" for i in range(22_000)]
    (root / "big.py").write_text("\n".join(lines) + "\n")
    assert (root / "big.py").stat().st_size > 1_000_000
    return lines


def test_a_read_and_one_line_edits_of_a_1_mb_file_add_at_most_16_kib_an_edit(
    tmp_path: Path,
) -> None:
    root, state = tmp_path / "root", tmp_path / "state"
    root.mkdir()
    lines = _big(root)
    (root / "small.txt").write_text("warm\n")
    _cli(root, state, "read", "small.txt")  # the state index is made here, not counted below
    linked: set[int] = set()
    before = _usage(state, linked)
    _cli(root, state, "read", "big.py", "--limit", "1")
    edits = 3
    for i in range(edits):
        replaced = (root / "big.py").read_bytes()
        inode = os.stat(root / "big.py").st_ino
        _cli(root, state, "edit", "big.py", lines[100 + i], lines[100 + i] + " # x")
        # The snapshot is the replaced inode itself, linked: no data was written for it.
        assert os.stat(_blob(state, replaced)).st_ino == inode
        linked.add(inode)
        if i == 0:  # the read's copy gave way to the link
            first = _usage(state, linked)
            assert first[0] - before[0] <= 16 * KIB, (before, first)
            assert first[1] - before[1] <= 16 * KIB, (before, first)
    after = _usage(state, linked)
    assert (after[0] - first[0]) / (edits - 1) <= 16 * KIB, (first, after)
    assert (after[1] - first[1]) / (edits - 1) <= 16 * KIB, (first, after)
    # Every step can still be undone, each in its own process too.
    for i in reversed(range(edits)):
        _cli(root, state, "undo", "big.py")
        assert (root / "big.py").read_text().count(" # x") == i
    assert (root / "big.py").read_text() == "\n".join(lines) + "\n"


def test_a_snapshot_that_must_be_a_copy_says_why(tmp_path: Path) -> None:
    root, state = tmp_path / "root", tmp_path / "state"
    root.mkdir()
    (root / "a.txt").write_text("one\ntwo\n")
    os.link(root / "a.txt", root / "other-name.txt")  # a link would share its in-place writes
    _cli(root, state, "read", "a.txt")
    result = _cli(root, state, "edit", "a.txt", "one", "ONE")
    value = str(result["value"])
    assert "the undo snapshot is a copy of 8 bytes" in value, value
    assert "other hard links" in value, value
    blob = _blob(state, b"one\ntwo\n")
    assert os.stat(blob).st_ino != os.stat(root / "other-name.txt").st_ino
    assert stat.S_IMODE(os.stat(blob).st_mode) == 0o400  # a copy made durable
    _cli(root, state, "undo", "a.txt")
    assert (root / "a.txt").read_text() == "one\ntwo\n"


def test_a_linked_snapshot_says_nothing(tmp_path: Path) -> None:
    root, state = tmp_path / "root", tmp_path / "state"
    root.mkdir()
    (root / "a.txt").write_text("one\ntwo\n")
    _cli(root, state, "read", "a.txt")
    result = _cli(root, state, "edit", "a.txt", "one", "ONE")
    assert "copy" not in str(result["value"])


def test_a_small_file_read_then_edited_leaves_its_replaced_inode_not_a_copy(
    tmp_path: Path,
) -> None:
    root, state = tmp_path / "root", tmp_path / "state"
    root.mkdir()
    (root / "s.py").write_text("x = 1\ny = 2\n")
    _cli(root, state, "read", "s.py")
    read_copy = _blob(state, b"x = 1\ny = 2\n")  # kept for a stale read's diff, unsynced
    assert stat.S_IMODE(os.stat(read_copy).st_mode) == 0o440
    inode = os.stat(root / "s.py").st_ino
    _cli(root, state, "edit", "s.py", "x = 1", "x = 10")
    snapshot = _blob(state, b"x = 1\ny = 2\n")
    assert os.stat(snapshot).st_ino == inode  # the copy gave way to the replaced inode
    assert os.stat(snapshot).st_nlink == 1
    assert stat.S_IMODE(os.stat(snapshot).st_mode) == 0o400
