"""The escape corpus: every way out of the root is refused with its code, for reads and writes.

Each case runs for read_bytes, write_bytes, write_bytes(make_parents=True), delete and relpath, under
both resolvers, and asserts the error code and that nothing outside the root (nor inside it) changed —
in particular a write through a dangling symlink never creates the outside file.
"""

from __future__ import annotations

import pytest
from sandbox_world import World

from sandbox import Sandbox, SandboxError

# (path template, code). {root}, {outside} and {evil} are filled in from the world fixture.
CORPUS: list[tuple[str, str]] = [
    # ".." past the root
    ("..", "outside_root"),
    ("../", "outside_root"),
    ("../outside/secret.txt", "outside_root"),
    ("../outside/new.txt", "outside_root"),
    ("./../outside/secret.txt", "outside_root"),
    ("inner/../../outside/secret.txt", "outside_root"),
    ("inner/sub/../../../outside/secret.txt", "outside_root"),
    ("inner/./../../outside/new.txt", "outside_root"),
    ("../root/inner/file.txt", "outside_root"),  # leaving and coming back is still leaving
    ("inner/../../root_evil/x.txt", "outside_root"),
    ("../../../../../../../../etc/passwd", "outside_root"),
    ("..//..//outside/secret.txt", "outside_root"),
    # absolute paths outside
    ("{outside}/secret.txt", "outside_root"),
    ("{outside}/new.txt", "outside_root"),
    ("/etc/passwd", "outside_root"),
    ("/", "outside_root"),
    ("{root}/../outside/secret.txt", "outside_root"),
    ("{root}/inner/../../outside/secret.txt", "outside_root"),
    ("/proc/self/root/etc/passwd", "outside_root"),
    # prefix siblings
    ("{evil}/x.txt", "outside_root"),
    ("{evil}/new.txt", "outside_root"),
    ("{root}x/new.txt", "outside_root"),
    ("evil_link", "outside_root"),
    # final symlinks that leave: relative, absolute, dangling, chained
    ("esc_rel_file", "outside_root"),
    ("esc_abs_file", "outside_root"),
    ("dangle_rel", "outside_root"),
    ("dangle_abs", "outside_root"),
    ("chain1", "outside_root"),
    ("esc_rel", "outside_root"),
    ("esc_abs", "outside_root"),
    ("inner/up_out", "outside_root"),
    ("parent_link", "outside_root"),
    # intermediate symlinks that leave
    ("esc_rel/secret.txt", "outside_root"),
    ("esc_abs/secret.txt", "outside_root"),
    ("esc_rel/new.txt", "outside_root"),
    ("esc_abs/dir/x.txt", "outside_root"),
    ("dangle_dir/x.txt", "outside_root"),
    ("inner/up_out/outside/secret.txt", "outside_root"),
    ("inner/sub/up3/outside/secret.txt", "outside_root"),
    ("ok_dir_link/../../outside/secret.txt", "outside_root"),
    ("ok_dir_link/up_out/outside/new.txt", "outside_root"),
    ("root_link/../outside/secret.txt", "outside_root"),
    ("parent_link/outside/secret.txt", "outside_root"),
    ("inner/up_in/esc_rel/secret.txt", "outside_root"),
    # magic links
    ("magic_root", "outside_root"),
    ("magic_root/etc/passwd", "outside_root"),
    ("magic_cwd/new.txt", "outside_root"),
    ("magic_fd", "outside_root"),
    # NUL bytes, empty and over-long paths
    ("inner/file.txt\0.png", "invalid_path"),
    ("\0", "invalid_path"),
    ("../outside/secret.txt\0", "invalid_path"),
    ("", "invalid_path"),
    ("a" * 5000, "invalid_path"),
    ("x/" * 2100, "invalid_path"),
    ("n" * 300, "invalid_path"),
    ("inner/" + "n" * 300 + "/f.txt", "invalid_path"),
    # symlink loops and over-long chains
    ("loop_a", "loop"),
    ("self_loop", "loop"),
    ("loop_a/x.txt", "loop"),
    ("inner/../self_loop/x.txt", "loop"),
    ("long0", "loop"),
]

OPS = ("read", "write", "write_parents", "delete", "relpath")


def _run(sb: Sandbox, op: str, path: str) -> None:
    if op == "read":
        sb.read_bytes(path)
    elif op == "write":
        sb.write_bytes(path, b"pwned\n")
    elif op == "write_parents":
        sb.write_bytes(path, b"pwned\n", make_parents=True)
    elif op == "delete":
        sb.delete(path)
    else:
        sb.relpath(path)


def test_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 60
    assert {code for _, code in CORPUS} == {"outside_root", "invalid_path", "loop"}


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize(("template", "code"), CORPUS, ids=[repr(t)[:40] for t, _ in CORPUS])
def test_escape_is_refused(world: World, sb: Sandbox, op: str, template: str, code: str) -> None:
    path = template.format(root=world.root, outside=world.outside, evil=world.evil)
    before_out, before_root = world.snapshot_outside(), world.snapshot_root()
    with pytest.raises(SandboxError) as info:
        _run(sb, op, path)
    assert info.value.code == code, info.value
    assert world.snapshot_outside() == before_out
    assert world.snapshot_root() == before_root
    assert not (world.outside / "new.txt").exists()
    assert not (world.outside / "newdir").exists()


@pytest.mark.parametrize("name", ["dangle_rel", "dangle_abs"])
def test_write_through_dangling_symlink_never_creates_outside_file(
    world: World, sb: Sandbox, name: str
) -> None:
    for kwargs in ({}, {"make_parents": True}, {"expect": None}):
        with pytest.raises(SandboxError) as info:
            sb.write_bytes(name, b"x", **kwargs)  # type: ignore[arg-type]
        assert info.value.code == "outside_root"
    assert not (world.outside / "new.txt").exists()
    assert (world.root / name).is_symlink()
