"""A file the caller could not write in place is not replaced: not by a change, a delete or a move.

A change is written to a temp file renamed over the old one, which needs only the folder's write
permission: without a check of its own, a user could replace a read-only file, or another user's
file in a folder it may write, by any tool. The unprivileged case runs in a real child process
that drops to `nobody` (`nobody_child.py`); root's case (a file with no write bit) runs here.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from nobody_child import CHANGES, NOBODY
from tool_helpers import check_error, unchanged

from edittools import Session

CHILD = Path(__file__).with_name("nobody_child.py")
EVERY_CHANGE = [*CHANGES, "write_bytes", "delete"]


@pytest.fixture
def shared() -> Iterator[Path]:
    """A folder `nobody` owns (pytest's own temp folders are closed to other users)."""
    folder = Path(tempfile.mkdtemp(prefix="edittools-perm-"))
    try:
        (folder / "root").mkdir()
        if os.geteuid() == 0:
            os.chown(folder, NOBODY, NOBODY)
            os.chown(folder / "root", NOBODY, NOBODY)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _file(path: Path, mode: int, owner: int | None) -> None:
    path.write_text("one\ntwo\n")
    if owner is not None:
        os.chown(path, owner, owner)
    os.chmod(path, mode)


def _as_unprivileged(root: Path, *names: str) -> dict[str, dict[str, list[object]]]:
    done = subprocess.run(
        [sys.executable, str(CHILD), str(root), *names],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    out: dict[str, dict[str, list[object]]] = json.loads(done.stdout)
    return out


@pytest.mark.integration
def test_an_unprivileged_user_replaces_no_file_it_could_not_write(shared: Path) -> None:
    root = shared / "root"
    mine = NOBODY if os.geteuid() == 0 else None
    _file(root / "mine.txt", 0o644, mine)
    _file(root / "readonly.txt", 0o444, mine)
    names = ["mine.txt", "readonly.txt"]
    if os.geteuid() == 0:
        _file(root / "theirs.txt", 0o644, 0)  # root's file, in a folder nobody may write
        names.append("theirs.txt")
    before = {name: (root / name).stat() for name in names[1:]}
    got = _as_unprivileged(root, *names)
    assert got["mine.txt"] == {change: [False, None] for change in EVERY_CHANGE}
    for name in names[1:]:
        assert got[name] == {change: [True, "permission"] for change in EVERY_CHANGE}, name
        now = (root / name).stat()
        assert (root / name).read_text() == "one\ntwo\n"
        assert (now.st_ino, now.st_uid, now.st_mode) == (
            before[name].st_ino,
            before[name].st_uid,
            before[name].st_mode,
        )
        assert not (root / f"moved-{name}").exists()


def test_a_file_without_a_write_bit_is_refused_even_to_root(root: Path) -> None:
    path = root / "ro.txt"
    path.write_text("one\ntwo\n")
    path.chmod(0o444)
    with Session(root) as s:
        s.read("ro.txt")
        with unchanged(root):
            for change, make in CHANGES.items():
                value = check_error(make(s, "ro.txt"), "permission", "read-only", "0444")
                assert "allow_readonly_writes=True" in value, change
            check_error(
                s.call("edit", {"path": "ro.txt", "old_string": "one", "new_string": "ONE"},
                       dry_run=True),
                "permission",
            )  # fmt: skip
    with Session(root, allow_readonly_writes=True) as s:  # the rule lifted: `:w!`
        s.read("ro.txt")
        assert not s.edit("ro.txt", "one", "ONE").is_error
    assert path.read_text() == "ONE\ntwo\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o444  # the mode is kept, as for any change
