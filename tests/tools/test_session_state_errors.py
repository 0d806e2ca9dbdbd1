"""Errors about the state say what happened: a damaged index is state_corrupt, a locked one busy
(and a read that changed nothing does not claim a change), and the session's other APIs raise
`ToolError` with a code, never what a tampered row makes Python raise."""

from __future__ import annotations

import contextlib
import random
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import sandbox.state.index
from edittools import Session, ToolError
from edittools.artifacts import ErrorPayload
from sandbox import Sandbox


def code_of(result: object) -> str:
    payload = result.artifact.payload  # type: ignore[attr-defined]
    assert isinstance(payload, ErrorPayload)
    return payload.code


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    (folder / "a.txt").write_text("alpha\nbeta\n")
    return folder


def _pages(db: Path, table: str) -> list[int]:
    """The pages of `table` in a copy of the database (dbstat reads every page it names)."""
    copy = db.with_name("copy.sqlite3")
    copy.write_bytes(db.read_bytes())
    con = sqlite3.connect(copy)
    try:
        return [row[0] for row in con.execute("SELECT pageno FROM dbstat WHERE name = ?", (table,))]
    finally:
        con.close()
        copy.unlink()


def test_a_damaged_journal_is_state_corrupt_with_its_advice(root: Path) -> None:
    with Session(root) as s:
        for n in range(40):
            s.read("a.txt", offset=1 + n % 2)
        db = s.sandbox.index.path
    for companion in ("-wal", "-shm"):
        Path(f"{db}{companion}").unlink(missing_ok=True)
    pages = _pages(db, "journal")
    size = 4096
    data = bytearray(db.read_bytes())
    noise = random.Random(5)
    for page in pages:
        data[(page - 1) * size : page * size] = noise.randbytes(size)
    db.write_bytes(bytes(data))
    with Session(root, checkpoint_on_start=False) as s:
        read = s.read("a.txt")
        edit = s.edit("a.txt", "beta", "BETA")
    for result in (read, edit):
        assert result.is_error
        assert code_of(result) == "state_corrupt", result.value
        assert "Move the state folder aside" in result.value
        assert "check the disk" not in result.value
    assert "succeeded and changed nothing" in read.value
    assert "its change was made" not in read.value
    assert "succeeded and its change was made" in edit.value
    assert (root / "a.txt").read_text() == "alpha\nBETA\n"


def test_a_short_read_of_the_database_is_damage_not_a_disk_failure(root: Path) -> None:
    # SQLite reports pages a damaged file's own structure places past its end as a short read.
    with Sandbox(root) as sb:
        exc = sqlite3.OperationalError("disk I/O error")
        exc.sqlite_errorname = "SQLITE_IOERR_SHORT_READ"
        error = sb.index._translate(exc)
        assert (error.code, "Move the state folder aside" in error.message) == (
            "state_corrupt",
            True,
        )
        other = sqlite3.OperationalError("disk I/O error")
        other.sqlite_errorname = "SQLITE_IOERR_READ"
        assert sb.index._translate(other).code == "io_error"


@contextlib.contextmanager
def database_held_by_another_process(db: Path) -> Iterator[None]:
    """A child process holds an exclusive transaction on the state index while the block runs."""
    child = subprocess.Popen(
        [sys.executable, "-c",
         "import sqlite3, sys\n"
         "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
         "db.execute('BEGIN EXCLUSIVE')\n"
         "print('held', flush=True)\n"
         "sys.stdin.read()\n", str(db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    with child:
        try:
            assert child.stdout is not None and child.stdout.readline() == "held\n"
            yield
        finally:
            assert child.stdin is not None
            child.stdin.close()
            child.wait(timeout=10)


def test_a_read_while_the_state_is_held_says_it_changed_nothing_and_busy(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        sandbox.state.index, "_BUSY_MS", 300
    )  # the wait, not the lock, is shortened
    with Session(root) as s:
        assert not s.read("a.txt").is_error  # its read record is written now, not while held
    with Session(root, checkpoint_on_start=False) as s:
        with database_held_by_another_process(s.sandbox.index.path):
            read = s.read("a.txt")
            edit = s.edit("a.txt", "beta", "BETA")
        after = s.read("a.txt")
    assert read.is_error and code_of(read) == "busy", read.value
    assert "succeeded and changed nothing" in read.value
    assert "its change was made" not in read.value
    assert "1\talpha" in read.value  # the read's own result follows
    assert edit.is_error and code_of(edit) == "busy", edit.value
    assert (root / "a.txt").read_text() == "alpha\nbeta\n"
    assert not after.is_error


def _tamper(s: Session, sql: str) -> None:
    db = sqlite3.connect(s.sandbox.index.path)
    with db:
        db.execute(sql)
    db.close()


def test_checkpoints_of_a_tampered_state_raise_tool_error(root: Path) -> None:
    with Session(root) as s:
        s.checkpoint("mine")
        _tamper(s, "UPDATE checkpoints SET created = 'yesterday'")
        for call in (s.checkpoints, s.last_changed_checkpoint):
            with pytest.raises(ToolError) as info:
                call()
            assert info.value.code == "state_corrupt"
            assert "Move the state folder aside" in info.value.message


def test_a_journal_row_nested_past_the_parser_is_skipped(root: Path) -> None:
    with Session(root) as s:
        s.read("a.txt")
        s.edit("a.txt", "beta", "BETA")
        _tamper(s, "UPDATE journal SET event = '" + "[" * 100_000 + "' WHERE seq = 1")
        names = [event.name for event in s.journal()]
        assert names == ["edit"]
        assert [event.name for event in s.iter_journal()] == ["edit"]


def test_a_content_rebuilt_from_a_tampered_recipe_raises_tool_error(root: Path) -> None:
    with Session(root, baseline_bytes=4) as s:  # new contents kept as recipes, not blobs
        s.read("a.txt")
        ref = s.edit("a.txt", "beta", "BETA").artifact.payload.new_ref  # type: ignore[union-attr]
    with Session(root, checkpoint_on_start=False) as s:
        assert ref is not None and s.workspace.recipe(ref) is not None
        assert not s.sandbox.store.has(ref)
        assert s.blob(ref) == b"alpha\nBETA\n"
        _tamper(s, "UPDATE derived SET start = 'x'")
        with pytest.raises(ToolError) as info:
            s.blob(ref)
        assert info.value.code == "state_corrupt"
        _tamper(s, "UPDATE derived SET start = 6, middle = 1000000000000")
        with pytest.raises(ToolError) as info:
            s.blob(ref)
        assert info.value.code == "state_corrupt"
