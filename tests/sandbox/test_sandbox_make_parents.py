"""`write_bytes(..., make_parents=True)`: folders are made only for a way that stays in the root."""

from __future__ import annotations

import pathlib
from collections.abc import Callable

import pytest
from sandbox_world import World

from sandbox import Sandbox, SandboxError

# Paths whose way leaves the root only after (or through) folders that do not exist yet.
LEAVING = [
    "new/../../x.txt",
    "a/b/../../../x.txt",
    "a/b/../../../outside/newdir/x.txt",
    "a/b/../../../root/x.txt",  # out and back in is still out
    "inner/new1/new2/../../../../outside/newdir/x.txt",
    "esc_rel/newdir/deeper/x.txt",  # symlinked folder pointing out, target exists
    "esc_abs/newdir/x.txt",
    "dangle_dir/x.txt",  # symlinked folder pointing out, target missing
    "dangle_dir/more/x.txt",
    "inner/up_out/newdir/x.txt",
    "inner/sub/up3/outside/newdir/x.txt",
    "new/esc_rel/../../../x.txt",
    "{root}/new/../../outside/newdir/x.txt",
]


@pytest.mark.parametrize("template", LEAVING)
def test_make_parents_of_a_path_leaving_the_root_is_outside_root_and_creates_nothing(
    world: World, sb: Sandbox, template: str
) -> None:
    path = template.format(root=world.root)
    before_out, before_root = world.snapshot_outside(), world.snapshot_root()
    with pytest.raises(SandboxError) as info:
        sb.write_bytes(path, b"x", make_parents=True)
    assert info.value.code == "outside_root", info.value
    assert world.snapshot_root() == before_root  # not one folder made inside...
    assert world.snapshot_outside() == before_out  # ...nor outside
    with pytest.raises(SandboxError) as info:
        sb.relpath(path)
    assert info.value.code == "outside_root"


def test_dotdot_after_missing_folders_cancels_them_and_makes_only_the_rest(
    world: World, sb: Sandbox
) -> None:
    sb.write_bytes("inner/n1/n2/../../made/x.txt", b"x", make_parents=True)
    assert (world.root / "inner/made/x.txt").read_bytes() == b"x"
    assert not (world.root / "inner/n1").exists()


def test_make_parents_through_a_file_creates_nothing(world: World, sb: Sandbox) -> None:
    before = world.snapshot_root()
    for path in ("inner/file.txt/new/x.txt", "new/dir/../../inner/file.txt/x.txt"):
        with pytest.raises(SandboxError) as info:
            sb.write_bytes(path, b"x", make_parents=True)
        assert info.value.code == "not_found", path
        assert world.snapshot_root() == before


def test_a_thousand_new_nested_folders_are_made_without_recursion(
    world: World, sb: Sandbox, remove_chain: Callable[[pathlib.Path, str], None]
) -> None:
    path = "deep/" + "d/" * 1000 + "x.txt"
    try:
        sb.write_bytes(path, b"x", make_parents=True)
        assert (world.root / path).read_bytes() == b"x"
        assert sb.relpath(path) == path
    finally:
        remove_chain(world.root / "deep", "d")
