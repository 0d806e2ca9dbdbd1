"""A write under thousands of new folders, its undo, a patch that fails after making them, and a
review or rewind of such a path: work that grows with the depth, never with its square.

The counts are of the file-system calls made (and the path components handed to the kernel), at
depths N, 2N and 4N; nothing is timed (benchmarks/bench_scaling.py times the same shapes).
"""

from __future__ import annotations

from pathlib import Path

from op_counter import DEPTHS, OpCounter, folder_chain, grows_linearly
from tool_helpers import immutable

from edittools import Session


def test_a_write_and_its_undo_are_linear_in_the_depth(tmp_path: Path, counter: OpCounter) -> None:
    counts: dict[str, list[int]] = {"write": [], "write path": [], "undo": [], "undo path": []}
    for depth in DEPTHS:
        root = tmp_path / f"root{depth}"
        root.mkdir()
        with Session(root, state_dir=tmp_path / "state") as s:
            with counter.counting():
                assert not s.write(folder_chain(depth), "x\n").is_error
            counts["write"].append(counter.calls)
            counts["write path"].append(counter.components)
            with counter.counting():
                assert not s.undo(folder_chain(depth)).is_error
            counts["undo"].append(counter.calls)
            counts["undo path"].append(counter.components)
        assert not (root / folder_chain(depth)).exists()
    for name, values in counts.items():
        assert grows_linearly(values), (name, values)


def test_a_failed_patch_removes_the_folders_it_made_in_linear_work(
    tmp_path: Path, counter: OpCounter
) -> None:
    calls, components = [], []
    for depth in DEPTHS:
        root = tmp_path / f"root{depth}"
        (root / "z").mkdir(parents=True)
        (root / "z" / "locked.txt").write_text("locked\n")
        patch = (
            f"*** Begin Patch\n*** Add File: {folder_chain(depth)}\n+new\n"
            "*** Update File: z/locked.txt\n@@\n-locked\n+unlocked\n*** End Patch\n"
        )
        with (
            # Lifted: the write must fail for real, after the folders were made.
            Session(
                root, state_dir=tmp_path / "state", require_read=False, allow_readonly_writes=True
            ) as s,
            immutable(root / "z" / "locked.txt"),
            counter.counting(),
        ):
            result = s.apply_patch(patch)
        assert result.is_error
        assert not (root / "a").exists()  # every folder the patch made went with it
        assert counter.by_name.get("rmdir") == depth
        calls.append(counter.calls)
        components.append(counter.components)
    assert grows_linearly(calls), calls
    assert grows_linearly(components), components


def test_a_review_and_a_rewind_of_a_deep_path_are_linear_in_its_depth(
    tmp_path: Path, counter: OpCounter
) -> None:
    counts: dict[str, list[int]] = {"changes": [], "rewind": [], "rewind path": []}
    for depth in DEPTHS:
        root = tmp_path / f"root{depth}"
        root.mkdir()
        with Session(root, state_dir=tmp_path / "state") as s:
            assert not s.write(folder_chain(depth), "one\n").is_error
            cp = s.checkpoint("before")
            assert not s.write(folder_chain(depth), "two\n").is_error
            with counter.counting():
                assert not s.changes(since=cp).is_error
            counts["changes"].append(counter.calls)
            with counter.counting():
                assert not s.rewind(cp).is_error
            counts["rewind"].append(counter.calls)
            counts["rewind path"].append(counter.components)
        assert (root / folder_chain(depth)).read_text() == "one\n"
    for name, values in counts.items():
        assert grows_linearly(values), (name, values)
