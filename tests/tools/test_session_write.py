"""write: creates with parents, replaces after a read, writes nothing when nothing changes; dry runs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tool_helpers import tree

from edittools import Session


def test_create_with_parents(session: Session) -> None:
    result = session.write("a/b/c/new.py", "print(1)\n")
    assert not result.is_error, result.value
    assert (session.sandbox.root / "a/b/c/new.py").read_bytes() == b"print(1)\n"
    assert result.value == "Created a/b/c/new.py (+1 -0)."
    payload = result.artifact.payload  # type: ignore[union-attr]
    assert (payload.operation, payload.old, payload.new) == ("create", None, "print(1)\n")
    assert payload.unified.startswith("diff --git a/a/b/c/new.py b/a/b/c/new.py\nnew file mode")


def test_create_needs_no_read_and_the_next_write_needs_none(session: Session) -> None:
    assert not session.write("n.txt", "one\n").is_error
    assert not session.write("n.txt", "two\n").is_error
    assert (session.sandbox.root / "n.txt").read_bytes() == b"two\n"


def test_replace_gives_a_modify_diff(session: Session) -> None:
    (session.sandbox.root / "f.txt").write_bytes(b"a\nb\n")
    session.read("f.txt")
    result = session.write("f.txt", "a\nc\nd\n")
    assert result.value == "Wrote f.txt (+2 -1)."
    payload = result.artifact.payload  # type: ignore[union-attr]
    assert (payload.operation, payload.granularity) == ("modify", "file")
    assert (payload.old, payload.new) == ("a\nb\n", "a\nc\nd\n")


def test_identical_content_writes_nothing(session: Session) -> None:
    path = session.sandbox.root / "f.txt"
    path.write_bytes(b"same\r\n")
    os.utime(path, ns=(10**9, 10**9))
    session.read("f.txt")
    result = session.write("f.txt", "same\n")  # LF over CRLF: the same file once styled
    assert not result.is_error
    assert "nothing was written" in result.value
    assert path.stat().st_mtime_ns == 10**9
    assert path.read_bytes() == b"same\r\n"
    assert session.undo("f.txt").artifact.payload.code == "nothing_to_undo"  # type: ignore[union-attr]


def test_replacing_a_binary_file_after_reading_it(session: Session) -> None:
    (session.sandbox.root / "b.bin").write_bytes(b"\x00\x01")
    assert session.read("b.bin").is_error
    (session.sandbox.root / "b.bin").write_bytes(b"\x00\x01")
    with Session(session.sandbox.root, require_read=False) as s:
        assert not s.write("b.bin", "text now\n").is_error
        assert not s.undo("b.bin").is_error
    assert (session.sandbox.root / "b.bin").read_bytes() == b"\x00\x01"


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("write", {"path": "f.txt", "content": "new\n"}),
        ("write", {"path": "made/new.txt", "content": "new\n"}),
        ("edit", {"path": "f.txt", "old_string": "old", "new_string": "new"}),
        ("edit", {"path": "fresh.txt", "old_string": "", "new_string": "new\n"}),
        ("multi_edit", {"path": "f.txt", "edits": [{"old_string": "old", "new_string": "new"}]}),
        ("apply_patch", {"patch": "*** Begin Patch\n*** Update File: f.txt\n@@\n-old\n+new\n"
                                  "*** Add File: p/q.txt\n+q\n*** Delete File: g.txt\n*** End Patch\n"}),
    ],
)  # fmt: skip
def test_dry_runs_write_nothing(tmp_path: Path, tool: str, arguments: dict[str, object]) -> None:
    (tmp_path / "f.txt").write_bytes(b"old\n")
    (tmp_path / "g.txt").write_bytes(b"g\n")
    with Session(tmp_path) as s:
        s.read("f.txt")
        before = tree(tmp_path)
        journal = s.journal()
        result = s.call(tool, arguments, dry_run=True)
        assert not result.is_error, result.value
        assert result.value.startswith("[dry run: nothing was written]\n")
        assert result.artifact.kind in ("diff", "changeset")  # type: ignore[union-attr]
        assert tree(tmp_path) == before
        assert s.journal() == journal
        assert s.undo("f.txt").artifact.payload.code == "nothing_to_undo"  # type: ignore[union-attr]
        # The real call afterwards still works (the dry run did not mark anything as changed).
        assert not s.call(tool, arguments).is_error
