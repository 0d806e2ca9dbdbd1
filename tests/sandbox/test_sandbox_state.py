"""The state folder: outside the root, chosen by argument or environment, opened like user files.

Every planted or damaged entry is a clean `state_corrupt` (or `state_unavailable`) error: nothing
blocks, nothing is followed out of the state folder, nothing raises anything but `SandboxError`.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import signal
import sqlite3
from collections.abc import Iterator

import pytest
from sandbox_world import World

from sandbox import Sandbox, SandboxError


@contextlib.contextmanager
def never_blocks(seconds: int = 10) -> Iterator[None]:
    """Fail instead of hanging when the block waits on a FIFO or a lock."""

    def expired(signum: int, frame: object) -> None:
        raise AssertionError(f"blocked for {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def open_box(world: World, resolver: str, **kwargs: object) -> Sandbox:
    return Sandbox(world.root, resolver=resolver, **kwargs)  # type: ignore[arg-type]


def state_of(world: World, resolver: str) -> pathlib.Path:
    """The root's state folder, made by opening the sandbox once with a write and a blob."""
    with open_box(world, resolver) as box:
        box.write_bytes("inner/file.txt", b"v1\n")
        box.store.put(b"blob\n")
        with box.lock("inner/file.txt"):
            pass
        return box.state_path


def refused(world: World, resolver: str, what: str) -> SandboxError:
    with never_blocks(), pytest.raises(SandboxError) as info:
        open_box(world, resolver).close()
    assert info.value.code == "state_corrupt", info.value
    assert what in info.value.message
    return info.value


# --- where state lives ---------------------------------------------------------------------


def test_state_dir_argument_then_environment_then_xdg_then_home(
    world: World, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    explicit, env, xdg, home = (tmp_path / n for n in ("explicit", "env", "xdg", "home"))
    monkeypatch.setenv("EDITTOOLS_STATE_DIR", str(env))
    monkeypatch.setenv("XDG_STATE_HOME", str(xdg))
    monkeypatch.setenv("HOME", str(home))
    with Sandbox(world.root, state_dir=explicit) as box:
        assert box.state_path.parent == explicit
    with Sandbox(world.root) as box:
        assert box.state_path.parent == env
    monkeypatch.delenv("EDITTOOLS_STATE_DIR")
    with Sandbox(world.root) as box:
        assert box.state_path.parent == xdg / "edittools"
    monkeypatch.setenv("XDG_STATE_HOME", "relative/is/ignored")
    with Sandbox(world.root) as box:
        assert box.state_path.parent == home / ".local" / "state" / "edittools"
    assert (home / ".local" / "state" / "edittools").stat().st_mode & 0o777 == 0o700


def test_a_state_dir_that_cannot_be_made_says_how_to_choose_another(
    world: World, tmp_path: pathlib.Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_bytes(b"")
    before = world.snapshot_root()
    with pytest.raises(SandboxError) as info:
        Sandbox(world.root, state_dir=blocker / "state")
    assert info.value.code == "state_unavailable"
    assert str(blocker / "state") in info.value.message
    for way in ("state_dir=", "--state-dir", "EDITTOOLS_STATE_DIR"):
        assert way in info.value.message
    assert world.snapshot_root() == before  # no fallback into the root


def test_a_state_folder_key_belongs_to_one_root(world: World, resolver: str) -> None:
    state = state_of(world, resolver)
    db = sqlite3.connect(state / "index.sqlite3")
    with db:
        db.execute("UPDATE meta SET value = 'another root' WHERE key = 'root'")
    db.close()
    refused(world, resolver, "belongs to another root")


# --- planted and damaged entries ------------------------------------------------------------


def test_a_corrupt_database_is_state_corrupt_naming_it(world: World, resolver: str) -> None:
    state = state_of(world, resolver)
    for name in ("index.sqlite3-wal", "index.sqlite3-shm"):
        (state / name).unlink(missing_ok=True)
    (state / "index.sqlite3").write_bytes(b"this is not a database" * 100)
    error = refused(world, resolver, "is damaged")
    assert str(state / "index.sqlite3") in error.message
    assert (state / "index.sqlite3").read_bytes() == b"this is not a database" * 100


@pytest.mark.parametrize("name", ["index.sqlite3", "index.sqlite3-wal"])
def test_a_hard_linked_database_file_is_refused(world: World, resolver: str, name: str) -> None:
    state = state_of(world, resolver)
    outside = world.outside / "linked-db"
    if (state / name).exists():
        os.link(state / name, outside)
    else:  # the write-ahead log exists only while the database is open: plant one
        outside.write_bytes(b"")
        os.link(outside, state / name)
    before = outside.read_bytes()
    refused(world, resolver, "2 hard links")
    assert outside.read_bytes() == before


@pytest.mark.parametrize("kind", ["symlink", "fifo", "directory"])
def test_the_database_replaced_by_something_else_is_refused(
    world: World, resolver: str, kind: str
) -> None:
    state = state_of(world, resolver)
    for name in ("index.sqlite3", "index.sqlite3-wal", "index.sqlite3-shm"):
        (state / name).unlink(missing_ok=True)
    db = state / "index.sqlite3"
    if kind == "symlink":
        target = world.outside / "elsewhere.db"
        os.symlink(target, db)
    elif kind == "fifo":
        os.mkfifo(db)
    else:
        db.mkdir()
    refused(world, resolver, "index.sqlite3")
    if kind == "symlink":
        assert not target.exists()


def test_the_root_state_folder_as_a_symlink_is_refused(world: World, resolver: str) -> None:
    state = state_of(world, resolver)
    moved = state.with_name(state.name + "-moved")
    state.rename(moved)
    os.symlink(moved, state)
    refused(world, resolver, "is not a folder")


@pytest.mark.parametrize("kind", ["hardlink", "symlink", "fifo", "directory"])
def test_a_bad_lock_file_is_an_error_not_a_hang(world: World, resolver: str, kind: str) -> None:
    with open_box(world, resolver) as box:
        with box.lock("inner/file.txt"):
            pass
        (lock,) = (box.state_path / "locks").iterdir()
        lock.unlink()
        outside = world.outside / "lock-target"
        outside.write_bytes(b"")
        if kind == "hardlink":
            os.link(outside, lock)
        elif kind == "symlink":
            os.symlink(outside, lock)
        elif kind == "fifo":
            os.mkfifo(lock)
        else:
            lock.mkdir()
        with never_blocks(), pytest.raises(SandboxError) as info:
            box.write_bytes("inner/file.txt", b"v2\n")
        assert info.value.code == "state_corrupt"
    assert (world.root / "inner" / "file.txt").read_bytes() != b"v2\n"


@pytest.mark.parametrize("kind", ["hardlink", "symlink", "fifo", "directory"])
def test_a_bad_blob_is_an_error_not_a_hang(world: World, resolver: str, kind: str) -> None:
    with open_box(world, resolver) as box:
        blob_id = box.store.put(b"precious\n")
        path = box.state_path / "blobs" / blob_id[:2] / blob_id[2:]
        path.unlink()
        outside = world.outside / "blob-target"
        outside.write_bytes(b"precious\n")
        if kind == "hardlink":
            os.link(outside, path)
        elif kind == "symlink":
            os.symlink(outside, path)
        elif kind == "fifo":
            os.mkfifo(path)
        else:
            path.mkdir()
        with never_blocks(), pytest.raises(SandboxError) as info:
            box.store.get(blob_id)
        assert info.value.code == "state_corrupt"
        assert str(path) in info.value.message


def test_fifos_and_folders_in_the_temp_note_folders_do_not_block_opening(
    world: World, resolver: str
) -> None:
    state = state_of(world, resolver)
    os.mkfifo(state / "pending" / "1-0123456789abcdef.edittools-tmp")
    (state / "pending" / "2-fedcba9876543210.edittools-tmp").mkdir()
    os.mkfifo(state / "tmp" / "1-0011223344556677.edittools-tmp")
    with never_blocks(), open_box(world, resolver) as box:
        box.write_bytes("inner/file.txt", b"v2\n")
    assert (world.root / "inner" / "file.txt").read_bytes() == b"v2\n"


def test_state_files_are_not_readable_by_others(world: World, resolver: str) -> None:
    state = state_of(world, resolver)
    assert state.stat().st_mode & 0o777 == 0o700
    assert (state / "index.sqlite3").stat().st_mode & 0o077 == 0


def test_a_durable_transaction_syncs_fully_whatever_ran_before(tmp_path: pathlib.Path) -> None:
    (tmp_path / "root").mkdir()
    with Sandbox(tmp_path / "root", state_dir=tmp_path / "state") as sb:
        levels = []
        for durable in (True, False, False, True, True, False):
            with sb.index.transaction(durable=durable) as db:
                levels.append(db.execute("PRAGMA synchronous").fetchone()[0])
    full, normal = 2, 1  # SQLite's numbers for the two settings
    assert levels == [full, normal, normal, full, full, normal]
