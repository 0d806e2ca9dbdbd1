"""State no repository can forge: a `.edittools/` folder in the root is plain, denied content.

Regressions for the attacks on the old in-root state folder (planted history, blobs, journal and
temp-file notes), on both path resolvers; read records shared between processes; damaged state
is a clean `state_corrupt` error, never a traceback and never a write.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from edittools import Session
from edittools.cli import main
from sandbox import Sandbox, SandboxError, digest_of

RESOLVERS = ("openat2", "walker")


@pytest.fixture(params=RESOLVERS)
def resolver(request: pytest.FixtureRequest) -> str:
    from sandbox._openat2 import available

    fd = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
    try:
        if request.param == "openat2" and not available(fd):
            pytest.skip("this kernel has no openat2")
    finally:
        os.close(fd)
    return str(request.param)


@contextlib.contextmanager
def session(root: Path, resolver: str) -> Iterator[Session]:
    with Sandbox(root, resolver=resolver) as box:  # type: ignore[arg-type]
        yield Session(sandbox=box, require_read=False)


def plant_old_state(root: Path) -> bytes:
    """The old in-root state an attacker could ship; returns the planted blob's bytes."""
    evil = b"import os; os.system('echo owned')\n"
    blob = hashlib.sha256(evil).hexdigest()
    state = root / ".edittools"
    (state / "blobs" / blob[:2]).mkdir(parents=True)
    (state / "blobs" / blob[:2] / blob[2:]).write_bytes(evil)
    history = [
        {"op": "change", "path": "victim.py", "before_blob": blob, "after_sha256": None},
        {"op": "change", "path": "setup.py", "before_blob": blob, "after_sha256": None},
        {"op": "change", "path": "keep.txt", "before_blob": None, "after_sha256": None},
    ]
    (state / "history.jsonl").write_text("".join(json.dumps(h) + "\n" for h in history))
    journal = {"id": "x", "name": "write", "value": "planted", "is_error": False, "artifact": None}
    (state / "journal.jsonl").write_text(json.dumps(journal) + "\n")
    (state / "pending").mkdir()
    (root / ".git").mkdir()
    (root / ".git" / ".0123456789abcdef.edittools-tmp").write_bytes(b"git's own\n")
    (state / "pending" / "1-0123456789abcdef.edittools-tmp").write_text(
        ".git\n.0123456789abcdef.edittools-tmp\n"
    )
    return evil


def test_planted_in_root_state_is_inert(tmp_path: Path, resolver: str) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "victim.py").write_text("print('mine')\n")
    (root / "keep.txt").write_text("keep\n")
    evil = plant_old_state(root)
    with session(root, resolver) as s:
        assert s.journal() == []
        for path in ("victim.py", "setup.py", "keep.txt"):
            result = s.undo(path)
            assert result.is_error and result.artifact.payload.code == "nothing_to_undo"  # type: ignore[union-attr]
        assert (root / "victim.py").read_text() == "print('mine')\n"
        assert not (root / "setup.py").exists() and (root / "keep.txt").exists()
        assert (root / ".git" / ".0123456789abcdef.edittools-tmp").read_bytes() == b"git's own\n"
        # After a real edit, undo restores what the session replaced, never the planted blob.
        assert not s.edit("victim.py", "mine", "edited").is_error
        assert not s.undo("victim.py").is_error
        assert (root / "victim.py").read_text() == "print('mine')\n"
        assert (root / "victim.py").read_bytes() != evil
        assert s.undo("victim.py").is_error  # nothing else on the stack
        for call in (
            lambda: s.read(".edittools/history.jsonl"),
            lambda: s.write(".edittools/history.jsonl", "{}\n"),
        ):
            assert call().artifact.payload.code == "denied"  # type: ignore[union-attr]
    assert (root / ".edittools" / "journal.jsonl").read_text().count("\n") == 1  # untouched


def test_a_read_in_one_process_counts_for_an_edit_in_the_next(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n")
    code = "import sys; from edittools import Session; Session(sys.argv[1]).read('a.py')"
    subprocess.run([sys.executable, "-c", code, str(root)], check=True)
    with Session(root) as s:
        assert not s.edit("a.py", "x = 1", "x = 2").is_error
    subprocess.run([sys.executable, "-c", code, str(root)], check=True)
    (root / "a.py").write_text("x = 3\n")  # changed after that read: the read no longer counts
    with Session(root) as s:
        result = s.edit("a.py", "x = 3", "x = 4")
        assert result.is_error and result.artifact.payload.code == "stale_read"  # type: ignore[union-attr]
        assert "-x = 2" in result.value and "+x = 3" in result.value


def test_a_repeated_read_keeps_its_record_and_a_read_of_new_content_replaces_it(
    tmp_path: Path,
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n" * 40)
    twice = "import sys; from edittools import Session; s = Session(sys.argv[1])\n"
    twice += "for _ in range(2): assert not s.read('a.py').is_error"
    subprocess.run([sys.executable, "-c", twice, str(root)], check=True)
    with Session(root) as s:
        assert not s.edit("a.py", "x = 1\n" * 40, "x = 2\n").is_error
    (root / "a.py").write_text("x = 5\n")  # outside the tools: the next read records it anew
    subprocess.run([sys.executable, "-c", twice, str(root)], check=True)
    with Session(root) as s:
        assert not s.edit("a.py", "x = 5", "x = 6").is_error


def test_a_whole_read_after_a_streamed_one_keeps_the_content_for_the_stale_diff(
    tmp_path: Path,
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n" * 40)
    code = "import sys; from edittools import Session\n"
    code += "assert not Session(sys.argv[1], max_file_bytes=int(sys.argv[2]))"
    code += ".read('a.py', limit=5).is_error"
    subprocess.run([sys.executable, "-c", code, str(root), "100"], check=True)  # streamed
    subprocess.run([sys.executable, "-c", code, str(root), str(1 << 20)], check=True)  # whole
    (root / "a.py").write_text("x = 1\n" * 39 + "x = 3\n")
    with Session(root) as s:
        result = s.edit("a.py", "x = 3", "x = 4")
    # Same digest, but now with the content kept: the refusal shows what changed.
    assert result.is_error and result.artifact.payload.code == "stale_read"  # type: ignore[union-attr]
    assert "-x = 1" in result.value and "+x = 3" in result.value


def test_a_corrupt_database_stops_the_cli_with_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("a\n")
    with Session(root) as s:
        db = s.sandbox.index.path
    for companion in ("-wal", "-shm"):
        Path(f"{db}{companion}").unlink(missing_ok=True)
    db.write_bytes(b"\0garbage" * 512)
    assert main(["write", "--root", str(root), "a.txt", "b\n"]) == 2
    err = capsys.readouterr().err
    assert str(db) in err and "Move the state folder aside" in err and "Traceback" not in err
    assert (root / "a.txt").read_text() == "a\n"
    with pytest.raises(SandboxError) as info:
        Session(root)
    assert info.value.code == "state_corrupt"


def test_a_damaged_undo_snapshot_is_state_corrupt(tmp_path: Path, resolver: str) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("before\n")
    with session(root, resolver) as s:
        assert not s.write("a.txt", "after\n").is_error
        blob = digest_of(b"before\n")
        path = s.sandbox.state_path / "blobs" / blob[:2] / blob[2:]
        os.chmod(path, 0o600)  # blobs are stored read-only
        path.write_bytes(b"tampered\n")
        result = s.undo("a.txt")
        assert result.is_error and result.artifact.payload.code == "state_corrupt"  # type: ignore[union-attr]
        assert str(s.sandbox.state_path) in result.value
    assert (root / "a.txt").read_text() == "after\n"


def test_a_file_where_the_locks_folder_belongs_is_an_error_result(
    tmp_path: Path, resolver: str
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("a\n")
    with session(root, resolver) as s:
        locks = s.sandbox.state_path / "locks"
        if locks.exists():
            os.rmdir(locks)
        locks.write_bytes(b"")
        result = s.write("a.txt", "b\n")
        assert result.is_error and result.artifact.payload.code == "state_corrupt"  # type: ignore[union-attr]
    assert (root / "a.txt").read_text() == "a\n"
