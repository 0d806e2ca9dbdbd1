"""`Sandbox.list_dir` on a real tree, with both resolvers: confined, deny-aware, bounded."""

from __future__ import annotations

import os
import pathlib

import pytest
from sandbox_world import World

from sandbox import DirEntry, Sandbox, SandboxError
from sandbox._listing import open_listed_dir


def paths(entries: list[DirEntry]) -> list[str]:
    return [entry.path for entry in entries]


def test_lists_a_folder_sorted_with_kinds_and_sizes(sb: Sandbox) -> None:
    listing = sb.list_dir("inner", depth=2)
    assert listing.path == "inner" and not listing.truncated
    assert listing.entries == [
        DirEntry("inner/dangling_in", "link", len("../created_in.txt")),
        DirEntry("inner/file.txt", "file", 6),
        DirEntry("inner/sub", "dir", None),
        DirEntry("inner/sub/deep.txt", "file", 5),
        DirEntry("inner/sub/up3", "link", len("../../..")),
        DirEntry("inner/up_in", "link", 2),
        DirEntry("inner/up_out", "link", 5),
    ]


def test_symlinks_inside_are_listed_and_never_followed(sb: Sandbox, world: World) -> None:
    listing = sb.list_dir(".", depth=3)
    kinds = {entry.path: entry.kind for entry in listing.entries}
    for name in ("esc_rel", "esc_abs", "ok_dir_link", "root_link", "magic_root", "loop_a"):
        assert kinds[name] == "link"
    # Nothing under a link, so nothing of the outside world, however deep the walk goes.
    assert not [p for p in kinds if "/" in p and not p.startswith("inner/")]
    assert "secret" not in " ".join(kinds)


@pytest.mark.parametrize("path", ["esc_rel", "esc_abs", "inner/up_out", "parent_link", "..",
                                  "../outside", "magic_root", "dangle_dir"])  # fmt: skip
def test_folders_outside_the_root_are_refused(sb: Sandbox, world: World, path: str) -> None:
    with pytest.raises(SandboxError) as caught:
        sb.list_dir(path)
    assert caught.value.code in {"outside_root", "loop"}


def test_an_absolute_path_outside_is_refused(sb: Sandbox, world: World) -> None:
    with pytest.raises(SandboxError) as caught:
        sb.list_dir(str(world.outside))
    assert caught.value.code == "outside_root"


def test_an_in_root_link_to_a_folder_lists_its_target(sb: Sandbox) -> None:
    listing = sb.list_dir("ok_dir_link")
    assert listing.path == "inner"
    assert "inner/file.txt" in paths(listing.entries)


def test_a_file_or_a_missing_path_is_not_a_folder(sb: Sandbox) -> None:
    with pytest.raises(SandboxError) as caught:
        sb.list_dir("inner/file.txt")
    assert caught.value.code == "not_a_directory"
    with pytest.raises(SandboxError) as caught:
        sb.list_dir("nowhere")
    assert caught.value.code == "not_found"


def test_denied_entries_and_the_state_folder_are_left_out(
    tmp_path: pathlib.Path, resolver: str
) -> None:
    for rel in ["src/a.py", "src/keys/k.pem", "build/out.o", "notes.txt", ".env", ".git/HEAD"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    (tmp_path / ".edittools" / "blobs").mkdir(parents=True)  # old in-root state: plain, denied
    with Sandbox(tmp_path, deny=["keys/", "*.o"], resolver=resolver) as box:  # type: ignore[arg-type]
        everything = paths(box.list_dir(depth=5, hidden=True).entries)
        assert everything == [".env", ".git", ".git/HEAD", "build", "notes.txt", "src", "src/a.py"]
        assert paths(box.list_dir(depth=5).entries) == ["build", "notes.txt", "src", "src/a.py"]
        with pytest.raises(SandboxError) as caught:
            box.list_dir("src/keys")
        assert caught.value.code == "denied"
        with pytest.raises(SandboxError) as caught:
            box.list_dir(".edittools")
        assert caught.value.code == "denied"


def test_depth_and_entry_bounds_cut_the_listing(tmp_path: pathlib.Path, resolver: str) -> None:
    for rel in ["a/b/c/d.txt", "a/e.txt", "f.txt"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    with Sandbox(tmp_path, resolver=resolver) as box:  # type: ignore[arg-type]
        assert paths(box.list_dir().entries) == ["a", "f.txt"]
        assert paths(box.list_dir(depth=2).entries) == ["a", "a/b", "a/e.txt", "f.txt"]
        full = box.list_dir(depth=9)
        assert paths(full.entries) == ["a", "a/b", "a/b/c", "a/b/c/d.txt", "a/e.txt", "f.txt"]
        assert not full.truncated
        cut = box.list_dir(depth=9, max_entries=3)
        assert paths(cut.entries) == ["a", "a/b", "a/b/c"] and cut.truncated
        exact = box.list_dir(depth=9, max_entries=6)
        assert len(exact.entries) == 6 and not exact.truncated
        with pytest.raises(ValueError):
            box.list_dir(depth=0)


def test_a_folder_swapped_for_a_link_out_is_not_walked(tmp_path: pathlib.Path) -> None:
    """A folder replaced by a symlink between resolving and opening is refused, not followed."""
    root = tmp_path / "root"
    (root / "d").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "loot.txt").write_text("x")
    with Sandbox(root) as box:
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
        try:
            st = os.stat("d", dir_fd=fd)
            os.rmdir(root / "d")
            os.symlink(outside, root / "d")
            with pytest.raises(SandboxError) as caught:
                open_listed_dir(fd, "d", st, "d")
        finally:
            os.close(fd)
        # O_NOFOLLOW | O_DIRECTORY on the link: ENOTDIR, so the entry "is gone" as a folder.
        assert caught.value.code in {"loop", "not_found"}
        with pytest.raises(SandboxError) as caught:
            box.list_dir("d")
        assert caught.value.code == "outside_root"
