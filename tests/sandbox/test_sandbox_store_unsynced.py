"""Blobs that only spare a read (`put(..., durable=False)`): not synced, marked by their mode,
made durable when asked again, and replaced by the replaced inode when a change keeps one."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox import Sandbox, digest_of


@pytest.fixture
def synced(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The kinds of what Python syncs: "file" or "folder"."""
    kinds: list[str] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        kinds.append("file" if stat.S_ISREG(os.fstat(fd).st_mode) else "folder")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    yield kinds


def _blob(box: Sandbox, blob_id: str) -> Path:
    return box.state_path / "blobs" / blob_id[:2] / blob_id[2:]


def test_an_unsynced_blob_is_not_synced_and_is_marked(tmp_path: Path, synced: list[str]) -> None:
    with Sandbox(tmp_path) as box:
        synced.clear()
        blob_id = box.store.put(b"read once\n", durable=False)
        assert synced == []
        assert stat.S_IMODE(_blob(box, blob_id).stat().st_mode) == 0o440
        assert box.store.get(blob_id) == b"read once\n"
        # Asked for durably, it is written again and synced; a durable one is left alone.
        assert box.store.put(b"read once\n") == blob_id
        assert synced == ["file", "folder"]
        assert stat.S_IMODE(_blob(box, blob_id).stat().st_mode) == 0o400
        synced.clear()
        box.store.put(b"read once\n", durable=False)
        box.store.put(b"read once\n")
        assert synced == []


def _keep(box: Sandbox, path: Path, data: bytes) -> str:
    fd = os.open(path, os.O_RDONLY)
    try:
        return box.store.keep(fd, os.fstat(fd), digest_of(data)).how
    finally:
        os.close(fd)


def test_keep_leaves_a_durable_copy_as_the_snapshot(tmp_path: Path) -> None:
    (tmp_path / "root").mkdir()
    with Sandbox(tmp_path / "root", state_dir=tmp_path / "state") as box:
        path = tmp_path / "root" / "f.txt"
        path.write_bytes(b"durable\n")
        blob_id = box.store.put(b"durable\n")
        copy = _blob(box, blob_id).stat().st_ino
        assert _keep(box, path, b"durable\n") == "stored"
        assert _blob(box, blob_id).stat().st_ino == copy


def test_the_replaced_inode_takes_the_place_of_an_unsynced_copy_once_sealed(
    tmp_path: Path,
) -> None:
    (tmp_path / "root").mkdir()
    with Sandbox(tmp_path / "root", state_dir=tmp_path / "state") as box:
        path = tmp_path / "root" / "f.txt"
        path.write_bytes(b"read once\n")
        blob_id = box.store.put(b"read once\n", durable=False)
        copy = _blob(box, blob_id).stat().st_ino
        inode = path.stat().st_ino
        assert _keep(box, path, b"read once\n") == "linked"
        # Until the file is replaced, readers of the blob still find the copy, with one link.
        assert _blob(box, blob_id).stat().st_ino == copy
        assert box.store.get(blob_id) == b"read once\n"
        (tmp_path / "root" / "new.txt").write_bytes(b"changed\n")
        os.replace(tmp_path / "root" / "new.txt", path)  # what a commit's rename does
        box.store.seal(blob_id)
        st = _blob(box, blob_id).stat()
        assert (st.st_ino, st.st_nlink, stat.S_IMODE(st.st_mode)) == (inode, 1, 0o400)
        assert not list((box.state_path / "tmp").iterdir())


def test_a_keep_given_up_leaves_the_unsynced_copy_and_no_link(tmp_path: Path) -> None:
    (tmp_path / "root").mkdir()
    with Sandbox(tmp_path / "root", state_dir=tmp_path / "state") as box:
        path = tmp_path / "root" / "f.txt"
        path.write_bytes(b"kept a moment\n")
        blob_id = box.store.put(b"kept a moment\n", durable=False)
        copy = _blob(box, blob_id).stat().st_ino
        assert _keep(box, path, b"kept a moment\n") == "linked"
        box.store.unlink_kept(blob_id)  # the commit did not happen
        assert _blob(box, blob_id).stat().st_ino == copy
        assert path.stat().st_nlink == 1
        assert not list((box.state_path / "tmp").iterdir())
