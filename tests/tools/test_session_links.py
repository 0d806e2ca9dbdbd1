"""A read vouches for the file it showed: a path that leads elsewhere since the read is stale.

A file replaced by a symlink to another file of the root (or a link pointed elsewhere, or
replaced by a file, or a folder on the way swapped for a link) would take a change made by the
same name into a file the session never read by it, whatever its content: every changing tool
refuses it (`stale_read`), on real files and links.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from tool_helpers import check_error, tree

from edittools import Session, ToolResult

BLOCK = "def f():\n    return 1\n"
READ = (
    "".join(f"a{k} = {k}\n" for k in range(1, 9))
    + BLOCK
    + "".join(f"b{k} = {k}\n" for k in range(11, 21))
)
"""What the session reads at f.py: the block at lines 9-10."""
OTHER = "".join(f"a{k} = {k}\n" for k in range(1, 9)) + BLOCK + "c = 0\n" * 4 + BLOCK
"""The other file the name comes to lead to: the same block twice (lines 9-10 and 15-16)."""

Change = Callable[[Session, dict[int, str]], ToolResult]

CHANGES: dict[str, Change] = {
    "edit": lambda s, a: s.edit("f.py", "    return 1\n", "    return 2\n", replace_all=True),
    "multi_edit": lambda s, a: s.multi_edit(
        "f.py", [{"old_string": "a1 = 1\n", "new_string": "a1 = 10\n"}]
    ),
    "insert": lambda s, a: s.insert("f.py", 2, "inserted = 1\n"),
    "write": lambda s, a: s.write("f.py", "written = 1\n"),
    "apply_patch": lambda s, a: s.apply_patch(
        "--- a/f.py\n+++ b/f.py\n@@ -9,2 +9,2 @@\n def f():\n-    return 1\n+    return 2\n"
    ),
    "apply_patch_move": lambda s, a: s.apply_patch(
        "*** Begin Patch\n*** Update File: f.py\n*** Move to: moved.py\n@@\n-a1 = 1\n+a1 = 10\n"
        "*** End Patch\n"
    ),
    "edit_lines": lambda s, a: s.edit_lines("f.py", a[10], a[10], "    return 2\n"),
    "edit_symbol": lambda s, a: s.edit_symbol("f.py", "f:9", "def f():\n    return 2"),
}

_ANCHOR = re.compile(r"^(\d+#[0-9a-f]+)\|", re.MULTILINE)


def _read(s: Session, name: str) -> dict[int, str]:
    """Read `name` with anchors; its anchors by line number."""
    result = s.read(name, anchors=True)
    assert not result.is_error, result.value
    return {int(a.split("#")[0]): a for a in _ANCHOR.findall(result.value)}


def _refused(s: Session, root: Path, change: str, anchors: dict[int, str], now: str) -> None:
    before = tree(root)
    value = check_error(CHANGES[change](s, anchors), "stale_read", "resolved to", now)
    assert f"now resolves to {now}" in value, value
    assert tree(root) == before


@pytest.mark.parametrize("change", sorted(CHANGES))
@pytest.mark.parametrize("other", ["another content", "the same content", "read too"])
def test_a_file_replaced_by_a_symlink_since_the_read_is_stale(
    root: Path, session: Session, change: str, other: str
) -> None:
    (root / "f.py").write_text(READ)
    (root / "g.py").write_text(READ if other == "the same content" else OTHER)
    anchors = _read(session, "f.py")
    if other == "read too":
        _read(session, "g.py")  # its own read is fresh: it does not vouch for f.py's
    os.replace(root / "f.py", root / "old.py")
    os.symlink("g.py", root / "f.py")
    _refused(session, root, change, anchors, "g.py")
    # Read again by that name, the change goes through the link (to its target), as always
    # (a patch moves files, not links).
    anchors = _read(session, "f.py")
    again = CHANGES[change](session, anchors)
    if change == "apply_patch_move":
        check_error(again, "not_a_file", "symbolic link")
    else:
        assert not again.is_error, again.value
        assert (root / "f.py").is_symlink() and (root / "g.py").read_text() != READ


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_link_pointed_elsewhere_or_replaced_by_a_file_is_stale(
    root: Path, session: Session, change: str
) -> None:
    (root / "g.py").write_text(READ)
    (root / "h.py").write_text(READ)
    os.symlink("g.py", root / "f.py")
    anchors = _read(session, "f.py")
    os.remove(root / "f.py")
    os.symlink("h.py", root / "f.py")
    _refused(session, root, change, anchors, "h.py")
    anchors = _read(session, "f.py")
    os.remove(root / "f.py")
    (root / "f.py").write_text(READ)  # a file of its own now, holding the same bytes
    _refused(session, root, change, anchors, "f.py")


@pytest.mark.parametrize("change", ["edit", "write", "apply_patch"])
def test_a_folder_on_the_way_swapped_for_a_link_is_stale(
    root: Path, session: Session, change: str
) -> None:
    for folder in ("d", "e"):
        (root / folder).mkdir()
        (root / folder / "f.py").write_text(READ)
    session.read("d/f.py")
    os.rename(root / "d", root / "old")
    os.symlink("e", root / "d")
    before = tree(root)
    patch = "--- a/d/f.py\n+++ b/d/f.py\n@@ -9,2 +9,2 @@\n def f():\n-    return 1\n+    return 2\n"
    result = {
        "edit": lambda: session.edit("d/f.py", "a1 = 1\n", "a1 = 10\n"),
        "write": lambda: session.write("d/f.py", "written = 1\n"),
        "apply_patch": lambda: session.apply_patch(patch),
    }[change]()
    check_error(result, "stale_read", "d/f.py resolved to d/f.py", "now resolves to e/f.py")
    assert tree(root) == before


def test_a_link_that_still_leads_where_it_did_is_changed_through(
    root: Path, session: Session
) -> None:
    (root / "g.py").write_text(READ)
    os.symlink("g.py", root / "f.py")
    session.read("f.py")
    assert not session.edit("f.py", "a1 = 1\n", "a1 = 10\n").is_error
    assert (root / "f.py").is_symlink()
    assert (root / "g.py").read_text() == READ.replace("a1 = 1\n", "a1 = 10\n")
