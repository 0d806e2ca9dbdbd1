"""A change costs the change: undo snapshots by link (or copy where a link is unsafe), state that
grows by the change, results that carry texts by reference. Byte counts only; timings live in
benchmarks/bench_tools.py."""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from edittools import Session
from sandbox import digest_of


def _lines(n: int) -> list[str]:
    return [f"    value_{i} = compute({i}, {i * 7 % 13})  # line {i}" for i in range(n)]


def _blob(session: Session, data: bytes) -> Path:
    blob_id = digest_of(data)
    return session.sandbox.state_path / "blobs" / blob_id[:2] / blob_id[2:]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    return folder


def _edit_twice(session: Session, name: str, body: list[str]) -> bytes:
    """Two edits: the second replaces a file whose content the store has not seen (no blob from
    a read), so its undo snapshot is the replaced inode. Returns the bytes before the second."""
    assert not session.read(name, limit=1).is_error
    assert not session.edit(name, body[1], body[1] + " # one").is_error
    old = (session.sandbox.root / name).read_bytes()
    assert not session.edit(name, body[2], body[2] + " # two").is_error
    return old


def test_the_undo_snapshot_is_the_replaced_inode_and_undo_restores_its_bytes(root: Path) -> None:
    body = _lines(50)
    (root / "a.py").write_text("\n".join(body) + "\n")
    with Session(root) as session:
        inode_before = None
        assert not session.read("a.py", limit=1).is_error
        assert not session.edit("a.py", body[1], body[1] + " # one").is_error
        old = (root / "a.py").read_bytes()
        inode_before = os.stat(root / "a.py").st_ino
        assert not session.edit("a.py", body[2], body[2] + " # two").is_error
        blob = _blob(session, old)
        st = os.stat(blob)
        assert st.st_ino == inode_before  # linked, not copied
        assert st.st_nlink == 1  # the rename left the store with the only link
        assert stat.S_IMODE(st.st_mode) & 0o222 == 0  # sealed read-only
        assert not session.undo("a.py").is_error
        assert (root / "a.py").read_bytes() == old


def test_a_file_with_other_hard_links_is_copied_and_undo_still_restores_it(root: Path) -> None:
    body = _lines(50)
    (root / "a.py").write_text("\n".join(body) + "\n")
    with Session(root) as session:
        assert not session.read("a.py", limit=1).is_error
        assert not session.edit("a.py", body[1], body[1] + " # one").is_error
        old = (root / "a.py").read_bytes()
        os.link(root / "a.py", root / "other-name.py")
        assert not session.edit("a.py", body[2], body[2] + " # two").is_error
        blob = _blob(session, old)
        assert os.stat(blob).st_ino != os.stat(root / "other-name.py").st_ino
        # A write in place through the other name must not reach the snapshot.
        with open(root / "other-name.py", "r+b") as fh:
            fh.write(b"XXXX")
        assert blob.read_bytes() == old
        assert not session.undo("a.py").is_error
        assert (root / "a.py").read_bytes() == old


def test_state_on_another_file_system_takes_the_copy_path(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    links: list[object] = []
    real_link = os.link

    def cross_device(src: object, dst: object, **kwargs: object) -> None:
        if str(src).startswith("/proc/self/fd/"):
            links.append(src)
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        real_link(src, dst, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "link", cross_device)
    body = _lines(50)
    (root / "a.py").write_text("\n".join(body) + "\n")
    with Session(root) as session:
        old = _edit_twice(session, "a.py", body)
        assert links  # a link was tried and refused
        blob = _blob(session, old)
        assert blob.read_bytes() == old and os.stat(blob).st_nlink == 1
        assert not session.undo("a.py").is_error
        assert (root / "a.py").read_bytes() == old


def test_a_linked_snapshot_whose_bytes_changed_is_refused(root: Path) -> None:
    body = _lines(50)
    (root / "a.py").write_text("\n".join(body) + "\n")
    with Session(root) as session:
        old = _edit_twice(session, "a.py", body)
        blob = _blob(session, old)
        os.chmod(blob, 0o600)
        blob.write_bytes(old.replace(b"value_3", b"VALUE_3"))
        now = (root / "a.py").read_bytes()
        result = session.undo("a.py")
        assert result.is_error and result.artifact is not None
        assert result.artifact.payload.code == "state_corrupt"  # type: ignore[union-attr]
        assert (root / "a.py").read_bytes() == now


def _state_bytes(state: Path, skip: set[int]) -> int:
    total = 0
    seen: set[int] = set()
    for folder, _, files in os.walk(state):
        for name in files:
            st = os.lstat(os.path.join(folder, name))
            if st.st_ino not in seen and st.st_ino not in skip:
                seen.add(st.st_ino)
                total += st.st_size
    return total


def test_a_one_line_edit_of_a_1_mb_file_adds_at_most_16_kib_to_the_state(root: Path) -> None:
    body = _lines(22_000)
    (root / "big.py").write_text("\n".join(body) + "\n")
    assert (root / "big.py").stat().st_size > 1_000_000
    with Session(root) as session:
        assert not session.read("big.py", limit=1).is_error
        assert not session.edit("big.py", body[5], body[5] + " # warm").is_error
        state = session.sandbox.state_path
        replaced: set[int] = set()
        # The write-ahead log is a reused buffer, folded into the database at checkpoints.
        session.sandbox.index.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        before = _state_bytes(state, replaced)
        edits = 8
        for i in range(edits):
            replaced.add(os.stat(root / "big.py").st_ino)  # moves into the store by a link
            assert not session.edit("big.py", body[100 + i], body[100 + i] + " # x").is_error
        session.sandbox.index.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        grown = _state_bytes(state, replaced) - before
        assert grown / edits <= 16 * 1024, grown


def test_the_result_of_a_one_line_edit_of_a_47_kb_file_is_at_most_4_kib(root: Path) -> None:
    body = _lines(1070)
    (root / "mid.py").write_text("\n".join(body) + "\n")
    assert 45_000 < (root / "mid.py").stat().st_size < 50_000
    with Session(root) as session:
        assert not session.read("mid.py", limit=1).is_error
        result = session.edit("mid.py", body[400], body[400] + " # y")
        assert not result.is_error
        assert len(result.model_dump_json()) <= 4 * 1024
        payload = result.artifact.payload  # type: ignore[union-attr]
        assert payload.old is None and payload.new is None and payload.truncated
        edited = (root / "mid.py").read_bytes()
        assert session.blob(payload.old_ref) == edited.replace(body[400].encode() + b" # y",
                                                               body[400].encode())  # fmt: skip
        assert session.blob(payload.new_ref) == edited


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Descriptors of regular files whose data Python syncs (directories are metadata)."""
    synced: list[int] = []
    real_fsync, real_fdatasync = os.fsync, os.fdatasync

    def record(real: object) -> object:
        def sync(fd: int) -> None:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                synced.append(fd)
            real(fd)  # type: ignore[operator]

        return sync

    monkeypatch.setattr(os, "fsync", record(real_fsync))
    monkeypatch.setattr(os, "fdatasync", record(real_fdatasync))
    yield synced


def test_a_one_line_edit_of_a_small_file_syncs_one_file_beside_the_state_commit(
    root: Path, fsyncs: list[int]
) -> None:
    body = _lines(20)
    (root / "s.py").write_text("\n".join(body) + "\n")
    with Session(root) as session:
        assert not session.read("s.py", limit=1).is_error
        for i in range(3):
            fsyncs.clear()
            assert not session.edit("s.py", body[i], body[i] + " # z").is_error
            # The new file; the state's transaction is synced by SQLite itself (the second).
            assert len(fsyncs) == 1, fsyncs


def test_an_edit_in_a_fresh_process_loads_only_the_tools_it_runs(root: Path) -> None:
    """Every start of a process pays for what it imports: an edit needs neither the watcher's
    library, the deny matcher (no deny patterns), nor the other tools' modules."""
    (root / "a.txt").write_text("one\n")
    code = (
        "import json, sys\n"
        "from edittools import Session\n"
        "with Session(sys.argv[1], require_read=False) as session:\n"
        "    result = session.edit('a.txt', 'one', 'two')\n"
        "print(json.dumps([result.is_error, sorted(sys.modules)]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(root)], capture_output=True, text=True, check=True
    )
    is_error, modules = json.loads(proc.stdout)
    assert not is_error and (root / "a.txt").read_text() == "two\n"
    assert "edittools.tools.edit" in modules
    for unused in ("watchdog", "pathspec", "edittools.tools.apply_patch",
                   "edittools.tools.review", "edittools.tools.insert"):  # fmt: skip
        assert unused not in modules
