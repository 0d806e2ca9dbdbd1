"""Streaming reads of files over the cap, and removal of empty folders, confined like the rest."""

from __future__ import annotations

import os
import stat

import pytest
from sandbox_world import World

from sandbox import FileReader, Sandbox, SandboxError, digest_of

BIG = b"".join(b"line %d\n" % k for k in range(50_000))  # ~390 kB: several read chunks


@pytest.fixture
def capped(world: World, resolver: str) -> Sandbox:
    """A sandbox whose whole-file read cap (1 kB) is far below the big file's size."""
    (world.root / "inner" / "big.txt").write_bytes(BIG)
    return Sandbox(world.root, max_read_bytes=1000, resolver=resolver)  # type: ignore[arg-type]


def test_a_file_over_the_cap_streams_in_full(capped: Sandbox) -> None:
    with capped:
        with pytest.raises(SandboxError) as info:
            capped.read_bytes("inner/big.txt")
        assert info.value.code == "too_large"
        with capped.open_reader("inner/big.txt") as reader:
            assert isinstance(reader, FileReader)
            assert reader.path == "inner/big.txt"
            assert reader.size == len(BIG)
            chunks = []
            while chunk := reader.read(65_536):
                chunks.append(chunk)
        assert b"".join(chunks) == BIG
        assert reader.closed


def test_the_version_is_known_once_the_end_is_reached(capped: Sandbox) -> None:
    with capped, capped.open_reader("inner/big.txt") as reader:
        assert reader.read(10) == BIG[:10]
        assert reader.version is None  # not at the end yet
        assert reader.read() == BIG[10:]
        version = reader.version
        assert version is not None
        assert version == capped.version("inner/big.txt")
        assert version.digest == digest_of(BIG)
        assert version.size == len(BIG)
        assert version.inode == os.stat(capped.root / "inner/big.txt").st_ino
        assert version == capped.read_bytes("inner/big.txt", max_bytes=len(BIG))[1]


def test_an_in_root_symlink_is_followed(sb: Sandbox) -> None:
    with sb.open_reader("ok_link") as reader:
        assert reader.read() == b"inner\n"
        assert reader.path == "inner/file.txt"


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("esc_rel_file", "outside_root"),
        ("esc_abs_file", "outside_root"),
        ("dangle_rel", "outside_root"),
        ("chain1", "outside_root"),
        ("esc_rel/secret.txt", "outside_root"),
        ("../outside/secret.txt", "outside_root"),
        ("inner/up_out/outside/secret.txt", "outside_root"),
        ("magic_fd", "outside_root"),
        ("loop_a", "loop"),
        ("inner/missing.txt", "not_found"),
        ("inner", "is_directory"),
        (".", "is_directory"),
        (".edittools/anything", "denied"),
        ("a\0b", "invalid_path"),
    ],
)
def test_the_reader_refuses_what_read_bytes_refuses(
    sb: Sandbox, world: World, path: str, code: str
) -> None:
    outside = world.snapshot_outside()
    for action in (sb.open_reader, sb.read_bytes):
        with pytest.raises(SandboxError) as info:
            action(path)
        assert info.value.code == code, (action, path)
    assert world.snapshot_outside() == outside


def test_the_reader_honours_deny_patterns(world: World, resolver: str) -> None:
    (world.root / "secret").mkdir()
    (world.root / "secret" / "key.txt").write_bytes(b"k")
    os.symlink("secret/key.txt", world.root / "to_key")
    with Sandbox(world.root, deny=["secret/"], resolver=resolver) as box:  # type: ignore[arg-type]
        for path in ("secret/key.txt", "to_key", "./inner/../secret/key.txt"):
            with pytest.raises(SandboxError) as info:
                box.open_reader(path)
            assert info.value.code == "denied", path


def test_a_closed_reader_cannot_read(sb: Sandbox) -> None:
    reader = sb.open_reader("inner/file.txt")
    reader.close()
    reader.close()  # closing twice is harmless
    with pytest.raises(ValueError):
        reader.read(1)


def test_remove_empty_dir_removes_only_that_folder(sb: Sandbox) -> None:
    (sb.root / "n" / "m").mkdir(parents=True)
    sb.remove_empty_dir("n/m")
    assert not (sb.root / "n" / "m").exists()
    assert (sb.root / "n").is_dir()
    sb.remove_empty_dir("./n/")
    assert not (sb.root / "n").exists()
    # Through an in-root folder link on the way: the real folder beneath it goes.
    (sb.root / "inner" / "empty").mkdir()
    sb.remove_empty_dir("ok_dir_link/empty")
    assert not (sb.root / "inner" / "empty").exists()


@pytest.mark.parametrize(
    ("path", "code"),
    [
        (".", "denied"),  # the root itself
        ("inner/..", "denied"),
        ("inner/sub/../..", "denied"),
        ("inner", "not_empty"),
        ("inner/file.txt", "not_a_directory"),
        ("ok_dir_link", "not_a_directory"),  # a symlink to a folder: the link is not followed
        ("esc_rel", "not_a_directory"),  # a symlink to an outside folder
        ("dangle_dir", "not_a_directory"),
        ("inner/missing", "not_found"),
        ("esc_rel/dir", "outside_root"),
        ("../outside/dir", "outside_root"),
        ("inner/up_out/outside/dir", "outside_root"),
        (".edittools", "denied"),
        ("loop_a/x", "loop"),
    ],
)
def test_remove_empty_dir_refuses(sb: Sandbox, world: World, path: str, code: str) -> None:
    (world.outside / "empty").mkdir()
    outside = world.snapshot_outside()
    inside = world.snapshot_root()
    with pytest.raises(SandboxError) as info:
        sb.remove_empty_dir(path)
    assert info.value.code == code
    assert world.snapshot_outside() == outside
    assert world.snapshot_root() == inside
    assert sb.root.is_dir()


def test_remove_empty_dir_refuses_denied_folders(world: World, resolver: str) -> None:
    (world.root / "keep" / "empty").mkdir(parents=True)
    (world.root / "gen").mkdir()
    with Sandbox(world.root, deny=["keep/", "gen"], resolver=resolver) as box:  # type: ignore[arg-type]
        for path in ("keep/empty", "keep", "gen", "inner/../gen"):
            with pytest.raises(SandboxError) as info:
                box.remove_empty_dir(path)
            assert info.value.code == "denied", path
    assert (world.root / "keep" / "empty").is_dir()
    assert (world.root / "gen").is_dir()


def test_remove_empty_dir_refuses_a_fifo_as_not_a_directory(sb: Sandbox) -> None:
    os.mkfifo(sb.root / "pipe")
    with pytest.raises(SandboxError) as info:
        sb.remove_empty_dir("pipe")
    assert info.value.code == "not_a_directory"
    assert info.value.path == "pipe"
    assert stat.S_ISFIFO(os.lstat(sb.root / "pipe").st_mode)
