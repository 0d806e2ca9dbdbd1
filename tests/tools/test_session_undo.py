"""undo: walks a file back one change per call, refuses to discard outside work, survives sessions."""

from __future__ import annotations

from pathlib import Path

import pytest

from edittools import Session


@pytest.fixture
def session(session: Session) -> Session:
    (session.sandbox.root / "f.txt").write_bytes(b"v0\n")
    session.read("f.txt")
    return session


def content(session: Session) -> bytes:
    return (session.sandbox.root / "f.txt").read_bytes()


def code_of(result: object) -> str | None:
    artifact = result.artifact  # type: ignore[attr-defined]
    return artifact.payload.code if artifact is not None and artifact.kind == "error" else None


def test_a_chain_of_changes_is_undone_newest_first(session: Session) -> None:
    assert not session.edit("f.txt", "v0", "v1").is_error
    assert not session.write("f.txt", "v2\nmore\n").is_error
    patch = "*** Begin Patch\n*** Update File: f.txt\n@@\n-v2\n+v3\n*** End Patch\n"
    assert not session.apply_patch(patch).is_error
    assert not session.multi_edit("f.txt", [{"old_string": "v3", "new_string": "v4"}]).is_error
    seen = [content(session)]
    for _ in range(4):
        result = session.undo("f.txt")
        assert not result.is_error, result.value
        seen.append(content(session))
    assert seen == [b"v4\nmore\n", b"v3\nmore\n", b"v2\nmore\n", b"v1\n", b"v0\n"]
    bottom = session.undo("f.txt")
    assert code_of(bottom) == "nothing_to_undo"
    assert content(session) == b"v0\n"


def test_undo_result_is_a_diff_of_the_restoration(session: Session) -> None:
    session.edit("f.txt", "v0", "v1")
    result = session.undo("f.txt")
    assert result.value == "Undid the last change to f.txt (+1 -1)."
    payload = result.artifact.payload  # type: ignore[union-attr]
    assert result.artifact.kind == "diff"  # type: ignore[union-attr]
    assert (payload.operation, payload.old, payload.new) == ("modify", "v1\n", "v0\n")


def test_undo_of_a_create_deletes_the_file(session: Session) -> None:
    assert not session.write("new/file.txt", "hello\n").is_error
    result = session.undo("new/file.txt")
    assert not result.is_error, result.value
    assert result.artifact.payload.operation == "delete"  # type: ignore[union-attr]
    assert not (session.sandbox.root / "new/file.txt").exists()
    assert code_of(session.undo("new/file.txt")) == "nothing_to_undo"


def test_undo_refuses_after_an_outside_change(session: Session) -> None:
    session.edit("f.txt", "v0", "v1")
    (session.sandbox.root / "f.txt").write_bytes(b"v1 and someone else's work\n")
    result = session.undo("f.txt")
    assert code_of(result) == "stale_read"
    assert "discard" in result.value
    assert content(session) == b"v1 and someone else's work\n"


def test_undo_refuses_when_the_file_was_deleted_outside(session: Session) -> None:
    session.edit("f.txt", "v0", "v1")
    (session.sandbox.root / "f.txt").unlink()
    assert code_of(session.undo("f.txt")) == "stale_read"
    assert not (session.sandbox.root / "f.txt").exists()


def test_undo_works_from_a_new_session_on_the_same_root(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_bytes(b"v0\n")
    with Session(tmp_path) as first:
        first.read("f.txt")
        first.edit("f.txt", "v0", "v1")
        first.edit("f.txt", "v1", "v2")
        first.undo("f.txt")  # back to v1; the history records it
    with Session(tmp_path) as second:
        result = second.undo("f.txt")
        assert not result.is_error, result.value
        assert (tmp_path / "f.txt").read_bytes() == b"v0\n"
        assert code_of(second.undo("f.txt")) == "nothing_to_undo"
    with Session(tmp_path) as third:
        assert code_of(third.undo("f.txt")) == "nothing_to_undo"


def test_undo_restores_the_exact_bytes(tmp_path: Path) -> None:
    original = "\ufeffcaf\u00e9\r\nline\r\nno newline".encode("utf-8")
    (tmp_path / "f.txt").write_bytes(original)
    with Session(tmp_path, require_read=False) as s:
        s.write("f.txt", "replaced\n")
        s.undo("f.txt")
    assert (tmp_path / "f.txt").read_bytes() == original


def test_a_dry_run_undo_changes_nothing(session: Session) -> None:
    session.edit("f.txt", "v0", "v1")
    result = session.call("undo", {"path": "f.txt"}, dry_run=True)
    assert not result.is_error
    assert result.value.startswith("[dry run: nothing was written]")
    assert result.artifact.payload.new == "v0\n"  # type: ignore[union-attr]
    assert content(session) == b"v1\n"
    assert not session.undo("f.txt").is_error  # the change is still there to undo
    assert content(session) == b"v0\n"


def test_after_an_undo_the_session_may_edit_again(session: Session) -> None:
    session.edit("f.txt", "v0", "v1")
    session.undo("f.txt")
    assert not session.edit("f.txt", "v0", "again").is_error
