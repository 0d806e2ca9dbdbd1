"""The journal: one stream event per call, fields in protocol order, readable by a later session."""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from edittools import Session, artifact_of
from edittools.artifacts.builders import by_reference
from edittools.cli import main


def raw_events(root: Path) -> list[dict[str, object]]:
    """The journal as `edittools log --jsonl` exports it."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["log", "--jsonl", "--root", str(root)]) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_one_event_per_call_in_order(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_bytes(b"a\n")
    with Session(tmp_path) as s:
        results = [
            s.read("f.txt"),
            s.edit("f.txt", "a", "b"),
            s.edit("f.txt", "zzz", "y"),
            s.call("nope", {}),
            s.undo("f.txt"),
        ]
    events = raw_events(tmp_path)
    assert len(events) == len(results)
    for event, result in zip(events, results, strict=True):
        assert list(event) == ["id", "name", "display", "value", "is_error", "artifact"]
        assert event["value"] == result.value
        assert event["is_error"] == result.is_error
        kept = by_reference(result).artifact
        assert event["artifact"] == kept.model_dump(mode="json", by_alias=True)  # type: ignore[union-attr]
        assert list(event["artifact"])[:3] == ["schema", "version", "kind"]  # type: ignore[arg-type]
        assert artifact_of(event) is not None
    assert [e["name"] for e in events] == ["read", "edit", "edit", "nope", "undo"]
    assert [e["is_error"] for e in events] == [False, False, True, True, False]


def test_ids_are_unique_across_sessions(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_bytes(b"a\n")
    for _ in range(3):
        with Session(tmp_path) as s:
            s.read("f.txt")
            s.read("f.txt")
    ids = [e["id"] for e in raw_events(tmp_path)]
    assert len(ids) == 6
    assert len(set(ids)) == 6


def test_a_later_session_reads_the_journal(tmp_path: Path) -> None:
    with Session(tmp_path) as s:
        s.write("n.txt", "hello\n")
    with Session(tmp_path) as later:
        events = later.journal()
        assert [(e.name, e.is_error) for e in events] == [("write", False)]
        payload = events[0].artifact.payload  # type: ignore[union-attr]
        # The journal holds the change and the ids of its contents, not a copy of whole files.
        assert payload.new is None and payload.truncated is True
        assert later.blob(payload.new_ref) == b"hello\n"


def test_journal_off_writes_no_journal(tmp_path: Path) -> None:
    with Session(tmp_path, journal=False) as s:
        s.write("n.txt", "hello\n")
        assert s.journal() == []
    assert raw_events(tmp_path) == []


def test_a_damaged_journal_row_is_skipped(tmp_path: Path) -> None:
    with Session(tmp_path) as s:
        s.write("n.txt", "hello\n")
        db = sqlite3.connect(s.sandbox.index.path)
    with db:
        db.execute("INSERT INTO journal (event) VALUES ('{\"truncated\": ')")
    db.close()
    with Session(tmp_path) as s:
        s.write("m.txt", "x\n")
        assert [e.name for e in s.journal()] == ["write", "write"]


def test_journal_rows_hold_blob_ids_not_texts(tmp_path: Path) -> None:
    text = "a line the journal keeps by blob id\n" * 50
    with Session(tmp_path) as s:
        s.write("n.txt", text)
        db = sqlite3.connect(s.sandbox.index.path)
        ((event,),) = db.execute("SELECT event FROM journal").fetchall()
        db.close()
        payload = json.loads(event)["artifact"]["payload"]
        assert payload["new"] is None and payload["old"] is None  # hunks and stats stay
        assert payload["stats"] == {"added": 50, "removed": 0}
        assert s.sandbox.store.get(payload["new_ref"]) == text.encode()
        read_back = s.journal()[0].artifact.payload  # type: ignore[union-attr]
        assert s.blob(read_back.new_ref) == text.encode()


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("nope\ud800", {}),
        ("read", {"path": "a\ud800.txt"}),
        ("edit", {"path": "a.txt", "old_string": "x\udc80", "new_string": "y"}),
    ],
    ids=["tool name", "path", "old_string"],
)
def test_arguments_with_a_lone_surrogate_get_an_error_result_and_are_journaled(
    tmp_path: Path, name: str, arguments: dict[str, object]
) -> None:
    with Session(tmp_path) as session:
        result = session.call(name, arguments)  # never raises
        assert result.is_error
        assert session.journal()[-1].name == name
    assert raw_events(tmp_path)[-1]["name"] == name  # and the log exports it


def test_the_log_of_a_lone_surrogate_is_valid_json_on_a_real_stdout(tmp_path: Path) -> None:
    with Session(tmp_path) as session:
        session.call("nope\ud800", {})
    done = subprocess.run(
        [sys.executable, "-m", "edittools", "log", "--jsonl", "--root", str(tmp_path)],
        capture_output=True,
        check=True,
    )
    assert json.loads(done.stdout.decode("utf-8").splitlines()[-1])["name"] == "nope\ud800"
