"""Writes under `.git` are refused by default (protected) and allowed when the caller lifts the rule."""

from __future__ import annotations

import os
import pathlib
from collections.abc import Callable

import pytest
from sandbox_world import World

from sandbox import Sandbox, SandboxError


def _repo(root: pathlib.Path) -> None:
    """A repository's folder with config and hooks, a nested one, and links into .git."""
    for folder in (".git/hooks", ".git/refs/empty", "sub/.git/hooks", ".GIT/hooks"):
        (root / folder).mkdir(parents=True)
    (root / ".git/config").write_bytes(b"[core]\n")
    (root / ".git/hooks/pre-commit").write_bytes(b"#!/bin/sh\n")
    (root / "sub/.git/config").write_bytes(b"[core]\n")
    (root / ".GIT/config").write_bytes(b"[core]\n")  # the same folder on a case-blind volume
    (root / "worktree").mkdir()
    (root / "worktree/.git").write_bytes(b"gitdir: ../.git\n")  # a gitlink file
    os.symlink(".git", root / "git_link")
    os.symlink(".git/hooks/pre-commit", root / "hook_link")
    os.symlink(f"{root}/.git/config", root / "abs_config_link")
    (root / "inner/.gitignore").write_bytes(b"*.o\n")


PROTECTED = [
    ".git/config",
    ".git/hooks/pre-commit",
    ".git/hooks/post-checkout",  # a new hook in an existing folder
    ".git/hooks/new/deeper/x",  # new folders under .git
    "sub/.git/config",
    "sub/.git/hooks/pre-push",
    ".GIT/config",
    ".Git/hooks/x",
    ".g\u200cit/hooks/x",  # HFS+ ignores the zero-width non-joiner
    "worktree/.git",
    "newrepo/.git/config",  # a repository the write would start
    "git_link/config",  # a symlinked folder into .git
    "git_link/hooks/post-merge",
    "hook_link",  # a final symlink into .git
    "abs_config_link",
    "inner/../.git/config",
]


Write = Callable[[Sandbox, str], object]
WRITES: dict[str, Write] = {
    "write": lambda sb, p: sb.write_bytes(p, b"pwned\n"),
    "write_parents": lambda sb, p: sb.write_bytes(p, b"pwned\n", make_parents=True),
    "check_write": lambda sb, p: sb.check_write(p),
}


@pytest.fixture
def repo_box(world: World, resolver: str) -> Sandbox:
    _repo(world.root)
    return Sandbox(world.root, resolver=resolver)  # type: ignore[arg-type]


@pytest.mark.parametrize("op", WRITES)
@pytest.mark.parametrize("path", PROTECTED)
def test_writes_under_git_are_protected_and_change_nothing(
    world: World, repo_box: Sandbox, op: str, path: str
) -> None:
    before = world.snapshot_root()
    with repo_box, pytest.raises(SandboxError) as info:
        WRITES[op](repo_box, path)
    err = info.value
    assert err.code == "protected", err  # also where folders are missing (make_parents or not)
    assert "allow_git_writes" in err.message and "--allow-git-writes" in err.message
    assert world.snapshot_root() == before


@pytest.mark.parametrize("path", [".git/config", ".git/hooks/pre-commit", "sub/.git/config"])
def test_deleting_under_git_is_protected(world: World, repo_box: Sandbox, path: str) -> None:
    with repo_box:
        with pytest.raises(SandboxError) as info:
            repo_box.delete(path)
        assert info.value.code == "protected"
        with pytest.raises(SandboxError) as info:
            repo_box.remove_empty_dir(".git/refs/empty")
        assert info.value.code == "protected"
    assert (world.root / path).exists()
    assert (world.root / ".git/refs/empty").is_dir()


def test_reads_under_git_stay_allowed(repo_box: Sandbox) -> None:
    with repo_box:
        assert repo_box.read_bytes(".git/config")[0] == b"[core]\n"
        assert repo_box.read_bytes("hook_link")[0] == b"#!/bin/sh\n"
        assert repo_box.relpath("git_link/config") == ".git/config"
        assert repo_box.version("sub/.git/config") is not None


def test_look_alike_names_are_not_protected(world: World, repo_box: Sandbox) -> None:
    with repo_box:
        for path in (".gitignore", ".github/workflows/ci.yml", "x.git/config", ".git2/config",
                     "inner/.gitignore", "git/config", ".gitmodules"):  # fmt: skip
            repo_box.write_bytes(path, b"ok\n", make_parents=True)
            assert (world.root / path).read_bytes() == b"ok\n"


def test_removing_a_symlink_that_points_into_git_is_allowed(
    world: World, repo_box: Sandbox
) -> None:
    with repo_box:
        repo_box.delete("hook_link")  # the link goes; the hook stays
    assert not (world.root / "hook_link").is_symlink()
    assert (world.root / ".git/hooks/pre-commit").read_bytes() == b"#!/bin/sh\n"


def test_allow_git_writes_lifts_the_rule(world: World, resolver: str) -> None:
    _repo(world.root)
    with Sandbox(world.root, resolver=resolver, allow_git_writes=True) as sb:  # type: ignore[arg-type]
        assert sb.allow_git_writes
        sb.write_bytes(".git/config", b"[core]\n\tbare = false\n")
        sb.write_bytes("git_link/hooks/new/x", b"x\n", make_parents=True)
        sb.delete("sub/.git/config")
        sb.remove_empty_dir(".git/refs/empty")
    assert (world.root / ".git/config").read_bytes() == b"[core]\n\tbare = false\n"
    assert (world.root / ".git/hooks/new/x").read_bytes() == b"x\n"
    assert not (world.root / "sub/.git/config").exists()


def test_a_root_inside_a_git_folder_is_protected_throughout(world: World, resolver: str) -> None:
    _repo(world.root)
    with Sandbox(world.root / ".git", resolver=resolver) as sb:  # type: ignore[arg-type]
        with pytest.raises(SandboxError) as info:
            sb.write_bytes("hooks/post-checkout", b"#!/bin/sh\n")
        assert info.value.code == "protected"
        assert sb.read_bytes("config")[0] == b"[core]\n"
    assert not (world.root / ".git/hooks/post-checkout").exists()


def _bare(folder: pathlib.Path, *, linked: bool = False) -> None:
    """A folder git takes for a repository by its contents: HEAD + objects + refs (or commondir)."""
    (folder / "hooks").mkdir(parents=True)
    (folder / "HEAD").write_bytes(b"ref: refs/heads/main\n")
    if linked:
        (folder / "commondir").write_bytes(b"../..\n")
    else:
        (folder / "objects").mkdir()
        (folder / "refs").mkdir()
    (folder / "config").write_bytes(b"[core]\n\tbare = true\n")


@pytest.mark.parametrize("op", WRITES)
@pytest.mark.parametrize(
    "path",
    [
        "vendor/lib.git/config",
        "vendor/lib.git/hooks/post-checkout",
        "vendor/lib.git/hooks/new/deeper/x",
        "vendor/wt/config.worktree",  # a linked worktree's git dir: HEAD + commondir
    ],
)
def test_writes_inside_a_bare_repository_are_protected(
    world: World, resolver: str, op: str, path: str
) -> None:
    _bare(world.root / "vendor/lib.git")
    _bare(world.root / "vendor/wt", linked=True)
    before = world.snapshot_root()
    with Sandbox(world.root, resolver=resolver) as sb, pytest.raises(SandboxError) as info:  # type: ignore[arg-type]
        WRITES[op](sb, path)
    assert info.value.code == "protected", info.value
    assert world.snapshot_root() == before


@pytest.mark.parametrize(
    ("present", "adding"),
    [
        (("objects/", "refs/"), "HEAD"),
        (("HEAD", "refs/"), "objects/pack/x"),
        (("HEAD", "objects/"), "refs/heads/main"),
        (("HEAD",), "commondir"),
    ],
)
def test_a_write_that_would_complete_a_bare_repository_is_protected(
    world: World, resolver: str, present: tuple[str, ...], adding: str
) -> None:
    forged = world.root / "src/forged"
    forged.mkdir(parents=True)
    for name in present:
        if name.endswith("/"):
            (forged / name).mkdir()
        else:
            (forged / name).write_bytes(b"ref: refs/heads/main\n")
    before = world.snapshot_root()
    with Sandbox(world.root, resolver=resolver) as sb:  # type: ignore[arg-type]
        with pytest.raises(SandboxError) as info:
            sb.write_bytes(f"src/forged/{adding}", b"x\n", make_parents=True)
        assert info.value.code == "protected", info.value
        # One mark short of a repository is an ordinary folder.
        sb.write_bytes("src/forged/notes.txt", b"ok\n")
    after = world.snapshot_root()
    assert (world.root / "src/forged/notes.txt").read_bytes() == b"ok\n"
    del after["src/forged/notes.txt"]
    assert after == before


def test_folders_with_some_of_the_marks_stay_writable(world: World, resolver: str) -> None:
    (world.root / "docs/refs").mkdir(parents=True)
    (world.root / "docs/objects").mkdir()
    (world.root / "HEADS").write_bytes(b"x\n")
    with Sandbox(world.root, resolver=resolver) as sb:  # type: ignore[arg-type]
        for path in ("docs/refs/a.md", "docs/objects/b.md", "docs/index.md", "HEADS", "head.txt"):
            sb.write_bytes(path, b"ok\n")
    assert (world.root / "docs/refs/a.md").read_bytes() == b"ok\n"


def test_a_root_inside_a_bare_repository_is_protected_throughout(
    world: World, resolver: str
) -> None:
    _bare(world.root / "lib.git")
    with Sandbox(world.root / "lib.git/hooks", resolver=resolver) as sb:  # type: ignore[arg-type]
        with pytest.raises(SandboxError) as info:
            sb.write_bytes("post-checkout", b"#!/bin/sh\n")
        assert info.value.code == "protected"
    assert not (world.root / "lib.git/hooks/post-checkout").exists()
