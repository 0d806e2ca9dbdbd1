"""A patch rolled back after a real write failure takes away the folders it created."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tool_helpers import immutable, tree

from edittools import Session

LOCKED_UPDATE = "*** Update File: z/locked.txt\n@@\n-locked\n+unlocked\n"


def make(root: Path, files: dict[str, str], folders: tuple[str, ...] = ()) -> None:
    for folder in folders:
        (root / folder).mkdir(parents=True)
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


@contextmanager
def failing(root: Path, sections: str) -> Iterator[tuple[Session, dict[str, bytes | str]]]:
    """Apply `sections` followed by an update of a file that cannot be written for real."""
    before = tree(root)
    # The rule that refuses files the caller could not write is lifted: the write must fail
    # for real, midway through the commit.
    with Session(root, require_read=False, allow_readonly_writes=True) as s:
        with immutable(root / "z" / "locked.txt"):
            result = s.apply_patch(f"*** Begin Patch\n{sections}{LOCKED_UPDATE}*** End Patch\n")
        assert result.is_error
        assert result.artifact.payload.code == "permission"  # type: ignore[union-attr]
        yield s, before


def test_folders_made_for_an_added_file_are_removed(tmp_path: Path) -> None:
    make(tmp_path, {"z/locked.txt": "locked\n"})
    with failing(tmp_path, "*** Add File: n/m/new.txt\n+hello\n") as (_, before):
        assert not (tmp_path / "n").exists()
        assert tree(tmp_path) == before  # every folder and file as it was


def test_folders_that_existed_before_stay(tmp_path: Path) -> None:
    make(tmp_path, {"z/locked.txt": "locked\n", "keep/a.txt": "a\n"}, folders=("empty",))
    sections = (
        "*** Add File: keep/sub/deeper/new.txt\n+x\n"
        "*** Add File: empty/new.txt\n+y\n"
        "*** Add File: z/also/new.txt\n+z\n"
    )
    with failing(tmp_path, sections) as (_, before):
        assert (tmp_path / "keep").is_dir() and not (tmp_path / "keep" / "sub").exists()
        assert (tmp_path / "empty").is_dir()  # empty before the patch, and still there
        assert not (tmp_path / "z" / "also").exists()
        assert tree(tmp_path) == before


def test_several_files_in_one_new_folder(tmp_path: Path) -> None:
    make(tmp_path, {"z/locked.txt": "locked\n"})
    sections = "*** Add File: n/a.txt\n+a\n*** Add File: n/b/c.txt\n+c\n*** Add File: n/d.txt\n+d\n"
    with failing(tmp_path, sections) as (_, before):
        assert not (tmp_path / "n").exists()
        assert tree(tmp_path) == before


def test_a_move_into_new_folders_is_undone_with_its_folders(tmp_path: Path) -> None:
    make(tmp_path, {"z/locked.txt": "locked\n", "b.txt": "one\ntwo\n"})
    sections = "*** Update File: b.txt\n*** Move to: moved/deep/b.txt\n@@\n-one\n+ONE\n"
    with failing(tmp_path, sections) as (s, before):
        assert not (tmp_path / "moved").exists()
        assert (tmp_path / "b.txt").read_text() == "one\ntwo\n"
        assert tree(tmp_path) == before
        assert s.undo("b.txt").artifact.payload.code == "nothing_to_undo"  # type: ignore[union-attr]


def test_the_folders_stay_when_the_patch_succeeds(tmp_path: Path) -> None:
    make(tmp_path, {"z/locked.txt": "locked\n"})
    patch = f"*** Begin Patch\n*** Add File: n/m/new.txt\n+hello\n{LOCKED_UPDATE}*** End Patch\n"
    with Session(tmp_path, require_read=False) as s:
        assert not s.apply_patch(patch).is_error
    assert (tmp_path / "n" / "m" / "new.txt").read_text() == "hello\n"
