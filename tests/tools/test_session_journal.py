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


def journal_rows(session: Session) -> list[tuple[str, str | None]]:
    db = sqlite3.connect(session.sandbox.index.path)
    try:
        return db.execute("SELECT event, texts FROM journal ORDER BY seq").fetchall()
    finally:
        db.close()


WINDOWS = {
    "lf": ("".join(f"line_{n} = {n}\n" for n in range(3000)).encode(), {}),
    "mid-file window": (
        "".join(f"line_{n} = {n}\n" for n in range(3000)).encode(),
        {"offset": 1200, "limit": 40},
    ),
    "crlf": ("".join(f"row {n}\r\n" for n in range(50)).encode(), {"offset": 3}),
    "cr only": ("".join(f"row {n}\r" for n in range(50)).encode(), {"limit": 7}),
    "mixed, no final newline": (b"a\r\nb\nc\rd\n\ne", {}),
    "cut lines": (("x" * 2500 + "\nshort\n" + "y" * 2001).encode(), {}),
    "cp1252": ("caf\u00e9 cr\u00e8me\nna\u00efve\n".encode("cp1252"), {}),
    "utf-16 with bom": (b"\xff\xfe" + "one\ntwo\n".encode("utf-16-le"), {}),
}


@pytest.mark.parametrize("name", WINDOWS)
def test_a_read_is_journaled_by_reference_and_read_back_as_it_was(
    tmp_path: Path, name: str
) -> None:
    data, window = WINDOWS[name]
    (tmp_path / "f.txt").write_bytes(data)
    with Session(tmp_path) as s:
        result = s.read("f.txt", **window)
        assert not result.is_error, result.value
        ((event, texts),) = journal_rows(s)
        # The row keeps the content's id and the footer: neither the numbered lines nor the
        # payload's text is a second copy of what the file already holds.
        row = json.loads(event)
        assert "value" not in row and "text" not in row["artifact"]["payload"]
        ((kind, content, *_, footer),) = json.loads(texts)
        assert kind == "window" and s.blob(content) == data
        assert result.value.endswith(footer) and len(footer) < 200
        (read_back,) = s.journal()
    assert read_back.value == result.value
    assert read_back.artifact == result.artifact
    (exported,) = raw_events(tmp_path)
    assert exported["value"] == result.value
    assert exported["artifact"] == result.artifact.model_dump(mode="json", by_alias=True)  # type: ignore[union-attr]


def test_a_read_of_a_big_file_adds_a_small_row(tmp_path: Path) -> None:
    (tmp_path / "big.py").write_text(
        "".join(f"line_{n} = {n} * 2  # text\n" for n in range(10_000))
    )
    with Session(tmp_path) as s:
        for _ in range(3):
            s.read("big.py")
        rows = journal_rows(s)
    assert len(rows) == 3
    assert all(len(event) + len(texts or "") < 1024 for event, texts in rows)


def test_a_read_whose_content_is_not_stored_keeps_its_texts_in_the_row(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("".join(f"line {n}\n" for n in range(100)))
    with Session(tmp_path, baseline_bytes=10) as s:  # contents over 10 bytes are not kept
        result = s.read("f.txt", offset=5, limit=3)
        ((event, texts),) = journal_rows(s)
        assert texts is None and json.loads(event)["value"] == result.value
        assert s.journal()[0].artifact == result.artifact


def test_a_read_whose_content_is_gone_comes_back_marked_truncated(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("one\ntwo\n")
    (tmp_path / "g.txt").write_text("three\n")
    with Session(tmp_path) as s:
        s.read("f.txt")
        s.read("g.txt")
        ((_, texts), _) = journal_rows(s)
        content = json.loads(texts)[0][1]
        (blob,) = [p for p in s.workspace.state_path.rglob(content[2:]) if p.is_file()]
        blob.unlink()
        first, second = s.journal()
    assert first.artifact.payload.truncated is True  # type: ignore[union-attr]
    assert first.value.startswith("[the lines this read showed could not be read back]")
    assert second.value.startswith("     1\tthree")


def test_a_read_that_cannot_be_cut_again_as_it_was_comes_back_marked_truncated(
    tmp_path: Path,
) -> None:
    (tmp_path / "f.txt").write_text("a long line of text\nshort\n")
    with Session(tmp_path) as s:
        s.read("f.txt")
        db = sqlite3.connect(s.sandbox.index.path)
        with db:  # a row whose cap no longer matches the lines it kept the length of
            ((texts,),) = db.execute("SELECT texts FROM journal").fetchall()
            entry = json.loads(texts)
            entry[0][2] = 5
            db.execute("UPDATE journal SET texts = ?", (json.dumps(entry),))
        db.close()
        (event,) = s.journal()
    assert event.artifact.payload.truncated is True  # type: ignore[union-attr]
    assert event.value.startswith("[the lines this read showed could not be read back]")
