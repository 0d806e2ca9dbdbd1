"""The state database's one schema: a database made by an earlier release gains what it lacks."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from edittools import Session
from sandbox.state import DB_NAME


def _database(session: Session) -> Path:
    return session.workspace.state_path / DB_NAME


def test_a_database_from_before_named_agents_keeps_its_reads_and_gains_the_columns(
    tmp_path: Path,
) -> None:
    (tmp_path / "f.txt").write_text("one\ntwo\n")
    with Session(tmp_path) as s:
        assert not s.read("f.txt").is_error
        digest = s.workspace.seen("f.txt").digest  # type: ignore[union-attr]
        database = _database(s)
    with sqlite3.connect(database) as db:  # the layout of the release before: one read per path
        db.execute("ALTER TABLE reads RENAME TO reads_new")
        db.execute("CREATE TABLE reads (path TEXT PRIMARY KEY, digest TEXT NOT NULL, blob TEXT)")
        db.execute("INSERT INTO reads SELECT path, digest, blob FROM reads_new")
        db.execute("DROP TABLE reads_new")
        db.execute("ALTER TABLE changes DROP COLUMN actor")
    with Session(tmp_path) as s:
        record = s.workspace.seen("f.txt")
        assert record is not None and record.digest == digest  # the read still counts
        assert s.workspace.seen("f.txt", reader="reviewer") is None  # a named agent's are its own
        assert not s.edit("f.txt", "two", "TWO").is_error
    with sqlite3.connect(database) as db:
        columns = {row[1] for row in db.execute("PRAGMA table_info(changes)")}
        readers = db.execute("SELECT reader, path FROM reads").fetchall()
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert "actor" in columns and readers == [("", "f.txt")]
    assert "reads_of_path" not in tables


def test_each_named_agent_reads_for_itself(tmp_path: Path) -> None:
    """A read by one agent does not count for another: its edit of the file someone changed
    since its own read is judged as stale."""
    (tmp_path / "f.txt").write_text("a\nb\nc\nd\n")
    with Session(tmp_path, agent="one") as one, Session(tmp_path, agent="two") as two:
        assert not one.read("f.txt").is_error
        assert not two.read("f.txt").is_error
        assert not one.edit("f.txt", "a\n", "A\n").is_error
        result = two.edit("f.txt", "b\n", "B\n")  # beside one's change: refused, naming it
        assert result.is_error and "changed by agent `one`" in result.value
        result = two.edit("f.txt", "d\n", "D\n")  # away from it: made, and said
        assert not result.is_error and "changed by agent `one`" in result.value
    assert (tmp_path / "f.txt").read_text() == "A\nb\nc\nD\n"
