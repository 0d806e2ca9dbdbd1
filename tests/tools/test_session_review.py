"""Checkpoints, rewind and the net review, on real files across several changes and files.

The oracles: a copy of the tree taken at the checkpoint (rewind must give it back byte for byte),
and `patch`, which must turn that copy into the tree as it is now from the net diff alone.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from edittools import Session
from edittools.artifacts import ChangesetPayload, DiffPayload

A_TEXT = "".join(f"line {k}\n" for k in range(40))
RENAMED = "def moved():\n    return 1\n"


def tree(root: Path) -> dict[str, bytes]:
    """Every file under `root`, by relative path."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def make_root(root: Path) -> None:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg/a.py").write_text(A_TEXT)
    (root / "b.txt").write_bytes(b"crlf one\r\ncrlf two\r\n")
    (root / "gone.txt").write_text("to be deleted\n")
    (root / "old_name.py").write_text(RENAMED)
    (root / "untouched.txt").write_text("never changed\n")


def work(s: Session) -> None:
    """Several steps over several files: modify (twice), create, delete, rename."""
    for path in ("pkg/a.py", "b.txt", "gone.txt", "old_name.py"):
        assert not s.read(path).is_error
    assert not s.edit("pkg/a.py", "line 3\n", "line three\n").is_error
    assert not s.edit("pkg/a.py", "line 20\n", "line twenty\n").is_error
    assert not s.edit("pkg/a.py", "line three\n", "line 3 (third)\n").is_error
    assert not s.edit("pkg/a.py", "line 36\n", "line 36\nline 36b\n").is_error
    assert not s.edit("b.txt", "crlf two", "crlf 2").is_error
    assert not s.write("new/dir/c.txt", "created\n").is_error
    patch = (
        "*** Begin Patch\n*** Delete File: gone.txt\n"
        "*** Update File: old_name.py\n*** Move to: new_name.py\n@@\n-    return 1\n"
        "+    return 2\n*** End Patch\n"
    )
    result = s.apply_patch(patch)
    assert not result.is_error, result.value


def files_of(result: object) -> list[DiffPayload]:
    payload = result.artifact.payload  # type: ignore[attr-defined]
    assert isinstance(payload, ChangesetPayload)
    return payload.files


def a_of(result: object) -> DiffPayload:
    return next(f for f in files_of(result) if f.path == "pkg/a.py")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    make_root(root)
    return root


def test_rewind_restores_created_modified_deleted_and_renamed_files(
    root: Path, tmp_path: Path
) -> None:
    with Session(root) as s:
        before = tree(root)
        cp = s.checkpoint("before the work")
        work(s)
        assert tree(root) != before
        result = s.rewind(cp)
        assert not result.is_error, result.value
        assert result.artifact is not None and result.artifact.kind == "changeset"
        assert tree(root) == before
        ops = {f.path: f.operation for f in files_of(result)}
        assert ops == {
            "b.txt": "modify",
            "gone.txt": "create",
            "new/dir/c.txt": "delete",
            "new_name.py": "delete",
            "old_name.py": "create",
            "pkg/a.py": "modify",
        }
        # Nothing left to rewind: the tree is at the checkpoint.
        again = s.rewind(cp)
        assert not again.is_error and files_of(again) == []


def test_a_rewind_is_a_change_that_can_be_taken_back(root: Path) -> None:
    with Session(root) as s:
        cp = s.checkpoint()
        work(s)
        after_work = tree(root)
        assert not s.rewind(cp).is_error
        # The checkpoint taken just before the rewind brings the work back ...
        before_rewind = [c for c in s.checkpoints() if c.auto == "rewind"][-1]
        assert not s.rewind(before_rewind.id).is_error
        assert tree(root) == after_work
        # ... and each file's undo takes back the rewind's change to it.
        assert not s.undo("pkg/a.py").is_error
        assert (root / "pkg/a.py").read_text() == A_TEXT


def test_changes_is_the_net_diff_and_patch_turns_the_checkpoint_into_now(
    root: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy"
    with Session(root) as s:
        cp = s.checkpoint()
        shutil.copytree(root, copy)
        work(s)
        result = s.changes(cp)
    assert not result.is_error
    files = {f.path: f for f in files_of(result)}
    # Intermediate steps are collapsed: line 3 went to "three" and then to "3 (third)".
    a = files["pkg/a.py"]
    assert [ln for h in a.hunks for ln in h.lines if ln[:1] in "+-"] == [
        "-line 3",
        "+line 3 (third)",
        "-line 20",
        "+line twenty",
        "+line 36b",
    ]
    assert (a.stats.added, a.stats.removed) == (3, 2)
    assert "untouched.txt" not in files
    unified = "".join(f.unified for f in files.values())
    subprocess.run(
        ["patch", "-p1", "-s", "--binary", "-d", str(copy)],
        input=unified.encode(),
        check=True,
    )
    assert tree(copy) == tree(root)


def test_changes_marks_files_changed_outside_the_tools(root: Path) -> None:
    with Session(root) as s:
        cp = s.checkpoint()
        work(s)
        (root / "pkg/a.py").write_text((root / "pkg/a.py").read_text() + "outside\n")
        files = {f.path: f for f in files_of(s.changes(cp))}
    assert files["pkg/a.py"].external is True
    assert "+outside" in files["pkg/a.py"].unified
    assert files["b.txt"].external is False


def test_rewind_refuses_a_file_changed_outside_then_force_overwrites_it(root: Path) -> None:
    with Session(root) as s:
        before = tree(root)
        cp = s.checkpoint()
        work(s)
        (root / "new/dir/c.txt").write_text("someone else's work\n")
        during = tree(root)
        refused = s.rewind(cp)
        assert refused.is_error and refused.artifact is not None
        assert refused.artifact.payload.code == "stale"
        assert tree(root) == during  # all or nothing: no file was rewound
        [stale] = refused.artifact.payload.detail["files"]
        assert stale["path"] == "new/dir/c.txt"
        assert stale["hunks"][0]["lines"] == ["-created", "+someone else's work"]
        assert "+someone else's work" in refused.value
        forced = s.rewind(cp, force=True)
        assert not forced.is_error, forced.value
        assert tree(root) == before


def test_reject_reverts_the_middle_hunk_only(root: Path) -> None:
    with Session(root) as s:
        cp = s.checkpoint()
        work(s)
        hunks = a_of(s.changes(cp)).hunks
        assert len(hunks) == 3
        result = s.reject("pkg/a.py", 1, since=cp)
        assert not result.is_error, result.value
        assert result.artifact is not None and result.artifact.kind == "diff"
        assert result.artifact.payload.hunks[0].lines[3:5] == ["-line twenty", "+line 20"]
        expected = A_TEXT.replace("line 3\n", "line 3 (third)\n").replace(
            "line 36\n", "line 36\nline 36b\n"
        )
        assert (root / "pkg/a.py").read_text() == expected
        # The rejected hunk is gone from the net diff; the others keep their lines.
        left = a_of(s.changes(cp)).hunks
        assert [h.lines for h in left] == [hunks[0].lines, hunks[2].lines]
        # A reject is a change like the others: undo puts the hunk back.
        assert not s.undo("pkg/a.py").is_error
        assert "line twenty\n" in (root / "pkg/a.py").read_text()


def test_reject_by_hunk_keeps_crlf_and_names_the_same_change_after_others_moved(
    root: Path,
) -> None:
    with Session(root) as s:
        cp = s.checkpoint()
        work(s)
        hunks = a_of(s.changes(cp)).hunks
        last = hunks[2].model_dump()
        assert not s.reject("pkg/a.py", 0, since=cp).is_error  # shifts nothing, changes index
        assert not s.reject("pkg/a.py", last, since=cp).is_error
        assert "line 36b" not in (root / "pkg/a.py").read_text()
        assert not s.reject("b.txt", 0, since=cp).is_error
        assert (root / "b.txt").read_bytes() == b"crlf one\r\ncrlf two\r\n"


def test_reject_of_a_hunk_that_no_longer_applies_is_stale(root: Path) -> None:
    with Session(root) as s:
        cp = s.checkpoint()
        work(s)
        hunk = a_of(s.changes(cp)).hunks[1]
        text = (root / "pkg/a.py").read_text().replace("line twenty\n", "line TWENTY\n")
        (root / "pkg/a.py").write_text(text)
        result = s.reject("pkg/a.py", hunk.model_dump(), since=cp)
        assert result.is_error and result.artifact is not None
        assert result.artifact.payload.code == "stale"
        assert (root / "pkg/a.py").read_text() == text


def test_reject_of_a_created_file_deletes_it(root: Path) -> None:
    with Session(root) as s:
        cp = s.checkpoint()
        work(s)
        assert not s.reject("new/dir/c.txt", 0, since=cp).is_error
        assert not (root / "new/dir/c.txt").exists()


def test_accepted_hunks_can_be_left_out_of_the_next_review(root: Path) -> None:
    with Session(root) as s:
        cp = s.checkpoint()
        work(s)
        assert not s.accept("pkg/a.py", [0, 2], since=cp).is_error
        assert not s.accept("b.txt", since=cp).is_error
        full = {f.path: f for f in files_of(s.changes(cp))}
        left = {f.path: f for f in files_of(s.changes(cp, include_accepted=False))}
    assert len(full["pkg/a.py"].hunks) == 3 and "b.txt" in full
    assert "b.txt" not in left
    assert [h.lines for h in left["pkg/a.py"].hunks] == [full["pkg/a.py"].hunks[1].lines]
    assert (left["pkg/a.py"].stats.added, left["pkg/a.py"].stats.removed) == (1, 1)


def test_a_session_starts_with_a_checkpoint_and_a_later_session_reviews_it(root: Path) -> None:
    with Session(root) as s:
        start = s.checkpoints()[-1]
        assert start.auto == "session"
        work(s)
        first = files_of(s.changes())  # default: since the session began
    with Session(root) as later:
        listing = later.checkpoints()
        assert listing[0].id == start.id and listing[0].files == 6
        assert [f.unified for f in files_of(later.changes(start.id))] == [f.unified for f in first]


def test_begin_turn_takes_a_checkpoint_only_when_something_changed(root: Path) -> None:
    with Session(root) as s:
        t1 = s.begin_turn()
        assert s.begin_turn() == t1
        s.read("pkg/a.py")
        s.edit("pkg/a.py", "line 1\n", "line one\n")
        t2 = s.begin_turn()
        assert t2 != t1
        assert [f.path for f in files_of(s.changes(t1))] == ["pkg/a.py"]
        assert files_of(s.changes(t2)) == []


def test_unknown_checkpoint_is_a_clear_error(root: Path) -> None:
    with Session(root) as s:
        result = s.rewind(999)
    assert result.is_error and result.artifact is not None
    assert result.artifact.payload.code == "not_found"


def test_an_undo_after_the_checkpoint_of_an_earlier_change_is_in_the_review(root: Path) -> None:
    with Session(root) as s:
        s.read("pkg/a.py")
        s.edit("pkg/a.py", "line 5\n", "line five\n")
        cp = s.checkpoint()
        assert not s.undo("pkg/a.py").is_error  # no new change row: the old one is marked undone
        [a] = files_of(s.changes(cp))
        assert [ln for h in a.hunks for ln in h.lines if ln[:1] in "+-"] == [
            "-line five",
            "+line 5",
        ]
        assert not s.rewind(cp).is_error
        assert "line five\n" in (root / "pkg/a.py").read_text()


def test_without_a_start_checkpoint_since_must_be_given(root: Path) -> None:
    with Session(root, checkpoint_on_start=False) as s:
        assert s.checkpoints() == []
        result = s.changes()
    assert result.is_error and result.artifact is not None
    assert result.artifact.payload.code == "invalid_arguments"
    assert "took no checkpoint" in result.value


def test_rewind_warns_of_the_syntax_error_it_brings_back(root: Path) -> None:
    (root / "broken.py").write_text("def f(:\n    return 1\n")
    with Session(root, require_read=False) as s:
        cp = s.checkpoint()
        assert not s.write("broken.py", "def f():\n    return 1\n").is_error
        result = s.rewind(cp)
    assert not result.is_error
    [payload] = files_of(result)
    assert payload.diagnostics and payload.diagnostics[0].line == 1
    assert "syntax" in result.value.lower()
    assert (root / "broken.py").read_text() == "def f(:\n    return 1\n"
