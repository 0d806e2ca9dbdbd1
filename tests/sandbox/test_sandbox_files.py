"""Reads, writes, versions, compare-and-swap, deletes and locks on real files."""

from __future__ import annotations

import os
import socket
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import replace

import pytest
from sandbox_world import World

from sandbox import ABSENT, FileWrite, Sandbox, SandboxError, Version, digest_of
from sandbox._files import same_inode_state


def test_read_returns_bytes_and_version(sb: Sandbox) -> None:
    data, version = sb.read_bytes("inner/file.txt")
    st = os.stat(sb.root / "inner/file.txt")
    assert data == b"inner\n"
    assert version.digest == digest_of(b"inner\n")
    assert (version.size, version.mtime_ns, version.inode) == (6, st.st_mtime_ns, st.st_ino)


def test_version_equality_is_content_equality() -> None:
    a = Version("ab" * 32, 1, 100, 7)
    assert a == Version("ab" * 32, 2, 200, 8)
    assert a != Version("cd" * 32, 1, 100, 7)
    assert hash(a) == hash(Version("ab" * 32, 9, 9, 9))


def test_write_then_read_round_trips_and_returns_the_version(sb: Sandbox) -> None:
    version = sb.write_bytes("inner/new.bin", b"\x00\xffdata")
    data, again = sb.read_bytes("inner/new.bin")
    assert data == b"\x00\xffdata"
    assert version == again and version.inode == again.inode and version.size == 6
    assert sb.version("inner/new.bin") == version
    assert sb.exists("inner/new.bin") and sb.exists("inner") and not sb.exists("inner/nope")
    assert sb.version("inner/nope") is None and sb.version("nope/nope") is None


def test_compare_and_swap(sb: Sandbox) -> None:
    _, v1 = sb.read_bytes("inner/file.txt")
    v2 = sb.write_bytes("inner/file.txt", b"two\n", expect=v1)
    with pytest.raises(SandboxError) as info:
        sb.write_bytes("inner/file.txt", b"lost update\n", expect=v1)
    assert info.value.code == "stale" and info.value.path == "inner/file.txt"
    assert (sb.root / "inner/file.txt").read_bytes() == b"two\n"
    # a touch (same content, new mtime) is not a change
    os.utime(sb.root / "inner/file.txt", ns=(1, 1))
    sb.write_bytes("inner/file.txt", b"three\n", expect=v2)
    # a deleted file is stale too
    v3 = sb.version("inner/file.txt")
    assert v3 is not None
    os.unlink(sb.root / "inner/file.txt")
    with pytest.raises(SandboxError) as info:
        sb.write_bytes("inner/file.txt", b"x", expect=v3)
    assert info.value.code == "stale"
    assert not (sb.root / "inner/file.txt").exists()


def test_absent_expectation_creates_only(sb: Sandbox) -> None:
    sb.write_bytes("inner/fresh.txt", b"one", expect=ABSENT)
    with pytest.raises(SandboxError) as info:
        sb.write_bytes("inner/fresh.txt", b"two", expect=ABSENT)
    assert info.value.code == "exists"
    assert (sb.root / "inner/fresh.txt").read_bytes() == b"one"


def test_write_keeps_permission_bits_and_new_files_get_the_default(sb: Sandbox) -> None:
    target = sb.root / "inner/file.txt"
    os.chmod(target, 0o741)
    sb.write_bytes("inner/file.txt", b"changed\n")
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o741
    umask = os.umask(0o022)
    os.umask(umask)
    sb.write_bytes("inner/brand_new.txt", b"x")
    assert stat.S_IMODE(os.stat(sb.root / "inner/brand_new.txt").st_mode) == 0o666 & ~umask


def test_write_breaks_hard_links(sb: Sandbox) -> None:
    os.link(sb.root / "inner/file.txt", sb.root / "hard.txt")
    sb.write_bytes("hard.txt", b"new through one link\n")
    assert (sb.root / "hard.txt").read_bytes() == b"new through one link\n"
    assert (sb.root / "inner/file.txt").read_bytes() == b"inner\n"


def test_write_leaves_no_temp_files(sb: Sandbox) -> None:
    for i in range(5):
        sb.write_bytes("inner/file.txt", b"x" * i)
    assert sorted(os.listdir(sb.root / "inner")) == [
        "dangling_in",
        "file.txt",
        "sub",
        "up_in",
        "up_out",
    ]
    assert os.listdir(sb.state_path / "pending") == []


def test_make_parents(sb: Sandbox) -> None:
    with pytest.raises(SandboxError) as info:
        sb.write_bytes("a/b/c.txt", b"x")
    assert info.value.code == "not_found"
    assert not (sb.root / "a").exists()
    sb.write_bytes("a/b/c.txt", b"x", make_parents=True)
    sb.write_bytes("ok_dir_link/made/d.txt", b"y", make_parents=True)
    assert (sb.root / "a/b/c.txt").read_bytes() == b"x"
    assert (sb.root / "inner/made/d.txt").read_bytes() == b"y"


def test_file_in_the_way_is_not_found(sb: Sandbox) -> None:
    with pytest.raises(SandboxError) as info:
        sb.read_bytes("inner/file.txt/x")
    assert info.value.code == "not_found"
    with pytest.raises(SandboxError) as info:
        sb.write_bytes("inner/file.txt/x", b"x", make_parents=True)
    assert info.value.code == "not_found"


def test_read_file_gives_the_relative_path_of_the_same_resolution(sb: Sandbox) -> None:
    os.symlink("inner/file.txt", sb.root / "link.txt")
    for spelling in ("inner/file.txt", "./inner//file.txt", str(sb.root / "inner/file.txt")):
        assert sb.read_file(spelling) == ("inner/file.txt", *sb.read_bytes("inner/file.txt"))
    rel, data, _ = sb.read_file("link.txt")  # a final in-root symlink is followed
    assert (rel, data) == (sb.relpath("link.txt"), b"inner\n")
    with pytest.raises(SandboxError) as info:
        sb.read_file("inner/missing.txt")
    assert info.value.code == "not_found"


def test_read_cap(world: World, resolver: str) -> None:
    (world.root / "big.bin").write_bytes(b"z" * 1000)
    with Sandbox(world.root, max_read_bytes=999, resolver=resolver) as box:  # type: ignore[arg-type]
        with pytest.raises(SandboxError) as info:
            box.read_bytes("big.bin")
        assert info.value.code == "too_large"
        assert box.read_bytes("big.bin", max_bytes=1000)[0] == b"z" * 1000
        assert box.read_bytes("inner/file.txt")[0] == b"inner\n"
        assert box.version("big.bin") is not None  # versions hash without the cap


def test_directories_are_refused(sb: Sandbox) -> None:
    for path in ("inner", "ok_dir_link", ".", "inner/..", "root_link"):
        for op in (sb.read_bytes, lambda p: sb.write_bytes(p, b"x"), sb.delete, sb.version):
            if op == sb.delete and path in ("ok_dir_link", "root_link"):
                continue  # delete removes a link itself, whatever it points to
            with pytest.raises(SandboxError) as info:
                op(path)
            assert info.value.code == "is_directory", (path, info.value)
    assert (sb.root / "inner").is_dir()


def _refused_within_a_second(action: Callable[[], object], unblock: Callable[[], None]) -> str:
    """Run `action` on a thread; it must raise at once. `unblock` frees a thread stuck in open()."""
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            action()
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=1.0)
    if worker.is_alive():
        unblock()
        worker.join(timeout=5.0)
        pytest.fail("the operation blocked for more than a second")
    error = outcome[0]
    assert isinstance(error, SandboxError), error
    return error.code


def test_fifo_socket_and_directory_are_refused_within_a_second(sb: Sandbox) -> None:
    fifo = sb.root / "pipe"
    os.mkfifo(fifo)

    def unblock_fifo() -> None:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)

    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(sb.root / "sock"))
    server.listen(1)
    try:
        for path, code in (
            ("pipe", "not_a_file"),
            ("sock", "not_a_file"),
            ("inner", "is_directory"),
        ):
            for action in (
                lambda p=path: sb.read_bytes(p),
                lambda p=path: sb.write_bytes(p, b"x"),
                lambda p=path: sb.version(p),
                lambda p=path: sb.open_reader(p),
            ):
                assert _refused_within_a_second(action, unblock_fifo) == code
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
        assert stat.S_ISSOCK(os.lstat(sb.root / "sock").st_mode)
    finally:
        server.close()


def test_delete(sb: Sandbox) -> None:
    v = sb.write_bytes("inner/gone.txt", b"bye")
    with pytest.raises(SandboxError) as info:
        sb.delete("inner/gone.txt", expect=sb.write_bytes("inner/other.txt", b"other"))
    assert info.value.code == "stale"
    sb.delete("inner/gone.txt", expect=v)
    assert not (sb.root / "inner/gone.txt").exists()
    with pytest.raises(SandboxError) as info:
        sb.delete("inner/gone.txt")
    assert info.value.code == "not_found"


def test_delete_of_a_symlink_removes_the_link_only(sb: Sandbox) -> None:
    v = sb.version("ok_link")
    sb.delete("ok_link", expect=v)
    assert not os.path.lexists(sb.root / "ok_link")
    assert (sb.root / "inner/file.txt").read_bytes() == b"inner\n"


def test_lock_is_reentrant_and_write_works_inside_it(sb: Sandbox) -> None:
    with sb.lock("inner/file.txt"), sb.lock("ok_link"):
        _, v = sb.read_bytes("inner/file.txt")
        sb.write_bytes("inner/file.txt", b"locked write\n", expect=v)
    assert (sb.root / "inner/file.txt").read_bytes() == b"locked write\n"


def test_lock_excludes_another_thread(sb: Sandbox) -> None:
    entered = threading.Event()
    release = threading.Event()
    order: list[str] = []

    def holder() -> None:
        with sb.lock("inner/file.txt"):
            entered.set()
            release.wait(timeout=10)
            order.append("holder done")

    def contender() -> None:
        with sb.lock("ok_link"):  # the same file through a link: the same lock
            order.append("contender in")

    t1 = threading.Thread(target=holder)
    t1.start()
    assert entered.wait(timeout=10)
    t2 = threading.Thread(target=contender)
    t2.start()
    t2.join(timeout=0.2)
    assert t2.is_alive() and order == []  # still waiting for the holder
    release.set()
    t1.join(timeout=10)
    t2.join(timeout=10)
    assert order == ["holder done", "contender in"]


def test_temp_files_of_a_dead_writer_are_swept_on_start(world: World, resolver: str) -> None:
    with Sandbox(world.root, resolver=resolver) as box:  # type: ignore[arg-type]
        box.write_bytes("inner/file.txt", b"v1\n")  # creates the state folder and journal
        pending = box.state_path / "pending"
    # Simulate a writer killed after creating its temp file: a journal note names a dead process.
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    (world.root / "inner" / ".0123456789abcdef.edittools-tmp").write_bytes(b"half")
    (pending / f"{pid}-0123456789abcdef.edittools-tmp").write_text(
        "inner\n.0123456789abcdef.edittools-tmp\n"
    )
    live = pending / f"{os.getppid()}-fedcba9876543210.edittools-tmp"
    live.write_text("inner\n.fedcba9876543210.edittools-tmp\n")  # a live writer: left alone
    with Sandbox(world.root, resolver=resolver):  # type: ignore[arg-type]
        pass
    assert not (world.root / "inner" / ".0123456789abcdef.edittools-tmp").exists()
    assert sorted(p.name for p in pending.iterdir()) == [live.name]


def test_write_rejects_text(sb: Sandbox) -> None:
    with pytest.raises(TypeError):
        sb.write_bytes("inner/file.txt", "text")  # type: ignore[arg-type]


def test_closed_sandbox_cannot_be_used(world: World) -> None:
    box = Sandbox(world.root)
    box.close()
    box.close()  # idempotent
    for op in (box.read_bytes, box.relpath, lambda p: box.write_bytes(p, b"x")):
        with pytest.raises(SandboxError) as info:
            op("inner/file.txt")
        assert info.value.code == "io_error"
    assert (world.root / "inner/file.txt").read_bytes() == b"inner\n"


def _aged_file(sb: Sandbox, name: str, data: bytes) -> None:
    """A file whose last change lies beyond the racy window (a ctime cannot be set, only aged)."""
    (sb.root / name).write_bytes(data)
    changed = os.stat(sb.root / name).st_ctime_ns
    while time.time_ns() - changed < 100_000_000:
        time.sleep(0.02)


def test_a_compare_and_swap_on_an_unchanged_inode_does_not_read_the_file_again(
    sb: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    _aged_file(sb, "cas.txt", b"one\n")
    _, version = sb.read_bytes("cas.txt")
    import sandbox._sandbox as facade

    def no_hash(*args: object) -> None:
        raise AssertionError("the file was read again")

    monkeypatch.setattr(facade, "hash_file", no_hash)
    sb.write_bytes("cas.txt", b"two\n", expect=version)
    assert (sb.root / "cas.txt").read_bytes() == b"two\n"


def test_an_in_place_change_of_the_same_size_is_still_stale(sb: Sandbox) -> None:
    _aged_file(sb, "cas.txt", b"one\n")
    _, version = sb.read_bytes("cas.txt")
    with open(sb.root / "cas.txt", "r+b") as fh:  # same inode, same size, new ctime
        fh.write(b"ONE\n")
    with pytest.raises(SandboxError) as info:
        sb.write_bytes("cas.txt", b"two\n", expect=version)
    assert info.value.code == "stale"
    assert (sb.root / "cas.txt").read_bytes() == b"ONE\n"


def test_a_stat_taken_within_the_racy_window_proves_nothing(sb: Sandbox) -> None:
    """A change inside the same clock tick as the last one may keep every timestamp: a version
    whose stat was taken that soon after the inode's last change must be checked by content."""
    (sb.root / "cas.txt").write_bytes(b"one\n")
    st = os.stat(sb.root / "cas.txt")
    seen = Version("d", st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns, st.st_ctime_ns)
    assert not same_inode_state(seen, st)
    later = replace(seen, seen_ns=st.st_ctime_ns + 1_000_000_000)
    assert same_inode_state(later, st)
    assert not same_inode_state(replace(later, size=st.st_size + 1), st)
    assert not same_inode_state(replace(later, ctime_ns=st.st_ctime_ns - 1), st)


def test_a_change_of_several_files_refuses_to_delete_a_symlink(sb: Sandbox) -> None:
    """A rollback puts bytes back: a deleted link would return as a regular file, so the
    all-or-nothing commit refuses links (before anything is written) and `delete` removes them."""
    before = sb.version("inner/file.txt")
    with pytest.raises(SandboxError) as info:
        sb.commit_files(
            [
                FileWrite("inner/new.txt", b"new\n", ABSENT),
                FileWrite("ok_link", None, sb.version("ok_link")),  # type: ignore[arg-type]
            ]
        )
    assert info.value.code == "not_a_file"
    assert os.path.islink(sb.root / "ok_link")
    assert not (sb.root / "inner/new.txt").exists()
    assert sb.version("inner/file.txt") == before
