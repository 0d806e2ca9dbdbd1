"""Work on chains of new folders grows with their depth, never with its square.

The counts are of the file-system calls the sandbox makes (and the path components it hands the
kernel), at depths N, 2N and 4N: a walk from the root at every level, or a check of every folder
above at every level, shows as a growth of four times between the last two.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from op_counter import DEPTHS, OpCounter, folder_chain, grows_linearly

from sandbox import Sandbox
from sandbox._paths import PathResolver


def _counts(
    tmp_path: Path, counter: OpCounter, run: Callable[[Path, str], None]
) -> tuple[list[int], list[int]]:
    calls, components = [], []
    for depth in DEPTHS:
        root = tmp_path / f"root{depth}"
        root.mkdir()
        with counter.counting():
            run(root, folder_chain(depth))
        calls.append(counter.calls)
        components.append(counter.components)
    return calls, components


def test_a_write_under_new_folders_is_linear_in_their_depth(
    tmp_path: Path, counter: OpCounter, resolver: str
) -> None:
    def write(root: Path, path: str) -> None:
        with Sandbox(root, resolver=resolver) as sb:  # type: ignore[arg-type]
            sb.write_bytes(path, b"x\n", make_parents=True)
            assert (root / path).read_bytes() == b"x\n"

    calls, components = _counts(tmp_path, counter, write)
    assert grows_linearly(calls), calls
    assert grows_linearly(components), components


def test_made_folders_are_removed_deepest_first_up_to_one_that_holds_something(
    tmp_path: Path,
) -> None:
    root = tmp_path / "root"
    (root / "keep").mkdir(parents=True)
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        paths = PathResolver(str(root), fd, resolver="walker")
        made: list[str] = []
        dfd, canon = paths.ensure_dir(("keep", "n1", "n2", "n3", "n4"), "keep/n1/n2/n3/n4",
                                      made=made)  # fmt: skip
        os.close(dfd)
        assert canon == ("keep", "n1", "n2", "n3", "n4")
        assert made == ["keep/n1", "keep/n1/n2", "keep/n1/n2/n3", "keep/n1/n2/n3/n4"]
        (root / "keep/n1/n2/other.txt").write_text("someone else's\n")
        paths.remove_made(made)
        assert not (root / "keep/n1/n2/n3").exists()
        assert (root / "keep/n1/n2/other.txt").exists()  # not ours to remove, nor what holds it
        os.unlink(root / "keep/n1/n2/other.txt")
        paths.remove_made(made)
        assert sorted(os.listdir(root / "keep")) == []  # the folder that was there stays
    finally:
        os.close(fd)
