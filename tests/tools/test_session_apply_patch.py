"""apply_patch through the session on real trees: the Codex suite, git apply agreement, all or nothing."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from patch_cases import CODEX_CASES, UNIFIED_CASES
from tool_helpers import immutable, tree

from edittools import Session


def make_tree(root: Path, files: dict[str, str] | dict[str, bytes]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)


def files_of(root: Path) -> dict[str, bytes]:
    """Regular files under `root` (state folder and empty folders left out)."""
    return {k: v for k, v in tree(root).items() if isinstance(v, bytes)}


@pytest.mark.parametrize("name", sorted(CODEX_CASES))
def test_codex_suite_on_disk(tmp_path: Path, name: str) -> None:
    before, patch, after, tiers = CODEX_CASES[name]
    make_tree(tmp_path, before)
    with Session(tmp_path) as s:
        for path in before:
            s.read(path)
        result = s.apply_patch(patch)
    assert not result.is_error, result.value
    assert files_of(tmp_path) == {k: v.encode() for k, v in after.items()}
    artifact = result.artifact
    assert artifact is not None
    payloads = [artifact.payload] if artifact.kind == "diff" else artifact.payload.files
    assert artifact.kind == ("diff" if len(tiers) == 1 else "changeset")
    # Creates and deletes match no context; every changed file states its tier.
    found = {(p.old_path or p.path): p.match for p in payloads}
    assert {k: v for k, v in found.items() if v is not None} == {
        k: v for k, v in tiers.items() if k in found and found[k] is not None
    }
    changed = {p.old_path or p.path for p in payloads if p.operation in ("modify", "rename")}
    assert changed <= {k for k, v in found.items() if v is not None}


def git_apply(root: Path, patch: str) -> None:
    done = subprocess.run(
        # Without --unidiff-zero git pins a hunk without context to the start or end of the file.
        ["git", "apply", "--unidiff-zero", "-"],
        input=patch.encode(),
        cwd=root,
        capture_output=True,
    )
    assert done.returncode == 0, done.stderr.decode()


@pytest.mark.integration
@pytest.mark.parametrize("name", sorted(UNIFIED_CASES))
def test_unified_diffs_on_disk_agree_with_git_apply(tmp_path: Path, name: str) -> None:
    before, patch = UNIFIED_CASES[name]
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    for root in (ours, theirs):
        root.mkdir()
        make_tree(root, before)
    with Session(ours, require_read=False) as s:
        result = s.apply_patch(patch)
    assert not result.is_error, result.value
    git_apply(theirs, patch)
    assert files_of(ours) == files_of(theirs)


TWO_FILES = {"a.txt": "alpha\nbeta\n", "b.txt": "one\ntwo\n"}


def test_several_files_give_a_changeset(tmp_path: Path) -> None:
    make_tree(tmp_path, TWO_FILES)
    patch = (
        "*** Begin Patch\n*** Update File: a.txt\n@@\n alpha\n-beta\n+BETA\n"
        "*** Update File: b.txt\n@@\n-one\n+ONE\n+one and a half\n"
        "*** Add File: c/new.txt\n+fresh\n*** End Patch\n"
    )
    with Session(tmp_path, require_read=False) as session:
        result = session.apply_patch(patch)
    assert not result.is_error, result.value
    artifact = result.artifact
    assert artifact is not None and artifact.kind == "changeset"
    assert [(p.path, p.operation) for p in artifact.payload.files] == [
        ("a.txt", "modify"), ("b.txt", "modify"), ("c/new.txt", "create")
    ]  # fmt: skip
    assert (artifact.payload.stats.added, artifact.payload.stats.removed) == (4, 2)
    assert artifact.title == "3 files +4 -2"
    assert result.value.splitlines() == [
        "Applied the patch to 3 files (+4 -2).",
        "  M a.txt +1 -1",
        "  M b.txt +2 -1",
        "  A c/new.txt +1 -0",
    ]


def test_a_conflict_in_the_last_file_leaves_the_first_unchanged(tmp_path: Path) -> None:
    make_tree(tmp_path, TWO_FILES)
    before = tree(tmp_path)
    patch = (
        "*** Begin Patch\n*** Add File: new.txt\n+x\n*** Update File: a.txt\n@@\n-beta\n+BETA\n"
        "*** Update File: b.txt\n@@\n-three\n+THREE\n*** End Patch\n"
    )
    with Session(tmp_path, require_read=False) as s:
        result = s.apply_patch(patch)
        assert result.artifact.payload.code == "patch_conflict"  # type: ignore[union-attr]
        assert "b.txt" in result.value
        assert tree(tmp_path) == before
        assert s.undo("a.txt").artifact.payload.code == "nothing_to_undo"  # type: ignore[union-attr]


def test_an_existing_file_to_add_last_fails_the_whole_patch(tmp_path: Path) -> None:
    make_tree(tmp_path, TWO_FILES)
    before = tree(tmp_path)
    patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-beta\n+BETA\n*** Add File: b.txt\n+x\n*** End Patch\n"
    with Session(tmp_path, require_read=False) as session:
        result = session.apply_patch(patch)
    assert result.artifact.payload.code == "exists"  # type: ignore[union-attr]
    assert tree(tmp_path) == before


def test_a_write_failing_midway_rolls_back_every_file(tmp_path: Path) -> None:
    make_tree(tmp_path, {**TWO_FILES, "gone.txt": "bye\n", "z/locked.txt": "locked\n"})
    os.chmod(tmp_path / "a.txt", 0o640)
    before = tree(tmp_path)
    patch = (
        "*** Begin Patch\n*** Add File: n/new.txt\n+hello\n*** Delete File: gone.txt\n"
        "*** Update File: a.txt\n@@\n-beta\n+BETA\n"
        "*** Update File: b.txt\n*** Move to: b2.txt\n@@\n-one\n+ONE\n"
        "*** Update File: z/locked.txt\n@@\n-locked\n+unlocked\n*** End Patch\n"
    )
    # Lifted, so that the file is not refused up front as one the caller could not write.
    with Session(tmp_path, require_read=False, allow_readonly_writes=True) as s:
        with immutable(tmp_path / "z" / "locked.txt"):
            result = s.apply_patch(patch)
        # The last file could not be written for real; everything written before it was put back.
        assert result.is_error
        assert result.artifact.payload.code == "permission"  # type: ignore[union-attr]
        assert files_of(tmp_path) == {k: v for k, v in before.items() if isinstance(v, bytes)}
        assert (tmp_path / "a.txt").stat().st_mode & 0o777 == 0o640
        for path in ("a.txt", "gone.txt", "b.txt", "b2.txt", "n/new.txt"):
            assert s.undo(path).artifact.payload.code == "nothing_to_undo", path  # type: ignore[union-attr]
        # And the same patch goes through once the file can be written.
        assert not s.apply_patch(patch).is_error
        assert (tmp_path / "z/locked.txt").read_bytes() == b"unlocked\n"
        assert not (tmp_path / "gone.txt").exists() and not (tmp_path / "b.txt").exists()


def test_every_patched_file_can_be_undone(tmp_path: Path) -> None:
    make_tree(tmp_path, {**TWO_FILES, "gone.txt": "bye\n"})
    before = files_of(tmp_path)
    patch = (
        "*** Begin Patch\n*** Add File: new.txt\n+hello\n*** Delete File: gone.txt\n"
        "*** Update File: a.txt\n*** Move to: moved/a.txt\n@@\n-beta\n+BETA\n*** End Patch\n"
    )
    with Session(tmp_path, require_read=False) as s:
        assert not s.apply_patch(patch).is_error
        for path in ("new.txt", "gone.txt", "moved/a.txt", "a.txt"):
            result = s.undo(path)
            assert not result.is_error, (path, result.value)
        assert files_of(tmp_path) == before


def test_a_tolerance_is_stated(tmp_path: Path) -> None:
    make_tree(tmp_path, {"t.txt": "keep   \nold  \n"})
    patch = "*** Begin Patch\n*** Update File: t.txt\n@@\n keep\n-old\n+new\n*** End Patch\n"
    with Session(tmp_path, require_read=False) as session:
        result = session.apply_patch(patch)
    assert result.artifact.payload.match == "trailing_whitespace"  # type: ignore[union-attr]
    assert "Context matched with tolerance: trailing_whitespace." in result.value
    assert (tmp_path / "t.txt").read_bytes() == b"keep   \nnew\n"


def test_the_same_file_twice_is_an_invalid_patch(tmp_path: Path) -> None:
    make_tree(tmp_path, TWO_FILES)
    patch = (
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-alpha\n+A\n"
        "*** Update File: ./a.txt\n@@\n-beta\n+B\n*** End Patch\n"
    )
    with Session(tmp_path, require_read=False) as session:
        result = session.apply_patch(patch)
    assert result.artifact.payload.code == "invalid_patch"  # type: ignore[union-attr]
    assert (tmp_path / "a.txt").read_bytes() == b"alpha\nbeta\n"


def test_a_patch_after_a_read_updates_the_read_record(tmp_path: Path) -> None:
    make_tree(tmp_path, TWO_FILES)
    with Session(tmp_path) as s:
        s.read("a.txt")
        assert not s.apply_patch(
            "*** Begin Patch\n*** Update File: a.txt\n@@\n-beta\n+B\n*** End Patch\n"
        ).is_error
        # The session knows the patched content: an edit right after is not stale.
        assert not s.edit("a.txt", "B", "C").is_error


@pytest.mark.parametrize(
    "section",
    [
        "*** Delete File: link.txt\n",
        "*** Update File: link.txt\n*** Move to: moved.txt\n@@\n-kept\n+KEPT\n",
    ],
    ids=["delete", "move"],
)
def test_deleting_or_moving_a_symlink_is_refused_and_nothing_changes(
    tmp_path: Path, section: str
) -> None:
    """The patch names the link: following it would remove the target, which it does not name."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "target.txt").write_text("kept\n")
    (tmp_path / "link.txt").symlink_to("docs/target.txt")
    before = tree(tmp_path)
    with Session(tmp_path, require_read=False) as s:
        result = s.apply_patch(f"*** Begin Patch\n{section}*** End Patch\n")
        assert result.is_error
        assert result.artifact.payload.code == "not_a_file"  # type: ignore[union-attr]
        assert "link.txt" in result.value and "symbolic link" in result.value
        assert tree(tmp_path) == before
        assert os.readlink(tmp_path / "link.txt") == "docs/target.txt"


def test_a_file_under_a_linked_folder_is_deleted_through_the_link(tmp_path: Path) -> None:
    """Only a link as the named entry itself is refused: a folder link on the way is followed."""
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "gone.txt").write_text("bye\n")
    (tmp_path / "alias").symlink_to("real")
    with Session(tmp_path, require_read=False) as s:
        result = s.apply_patch("*** Begin Patch\n*** Delete File: alias/gone.txt\n*** End Patch\n")
        assert not result.is_error, result.value
        assert not (tmp_path / "real" / "gone.txt").exists()
        assert (tmp_path / "alias").is_symlink()
