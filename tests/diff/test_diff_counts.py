"""Counting lines without hunks (``--numstat``) gives the counts the hunks give."""

from __future__ import annotations

from pathlib import Path

import pytest
from diff_corpus import Case, corpus, large_corpus

from edittools.diff import line_diff, line_diff_dirs, tree_diff

# Binary content in new's changed lines, around unchanged non-ASCII text (only the changed
# lines of new are checked: the others are old's), and valid UTF-8 that changes.
_AROUND = "é\n".encode() * 40
CASES = [
    *corpus(),
    *large_corpus()[:3],
    Case("binary-new", b"a\n", b"a\0\n"),
    Case("invalid-utf8-in-new", _AROUND + b"a\n" + _AROUND, _AROUND + b"\xff\n" + _AROUND),
    Case("nul-in-new", _AROUND + b"a\n" + _AROUND, _AROUND + b"b\0\n" + _AROUND),
    Case("utf8-changes", _AROUND + b"a\n" + _AROUND, _AROUND + "ü\n".encode() + _AROUND),
]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_counts_without_hunks_equal_the_counts_of_the_hunks(case: Case) -> None:
    full = line_diff(case.old, case.new)
    counted = line_diff(case.old, case.new, hunks=False)
    assert counted.hunks == []
    assert counted.counts() == full.counts(), case.name
    assert (counted.differ, counted.binary, counted.operation) == (
        full.differ,
        full.binary,
        full.operation,
    )
    if full.minimal:
        assert counted.minimal


def test_new_s_changed_lines_decide_binary_when_counting() -> None:
    binary = {case.name: line_diff(case.old, case.new, hunks=False).binary for case in CASES[-3:]}
    assert binary == {"invalid-utf8-in-new": True, "nul-in-new": True, "utf8-changes": False}


def test_tree_counts_without_hunks_match_the_hunks(tmp_path: Path) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    for index, case in enumerate(CASES[:40]):
        for root, data in ((old, case.old), (new, case.new)):
            if data is not None:
                (root / f"d{index % 3}").mkdir(parents=True, exist_ok=True)
                (root / f"d{index % 3}" / f"f{index}.txt").write_bytes(data)
    full = line_diff_dirs(old, new)
    counted = line_diff_dirs(old, new, hunks=False)
    assert [(e.path, e.old_path, e.result.counts()) for e in counted] == [
        (e.path, e.old_path, e.result.counts()) for e in full
    ]
    assert len(full) > 20


def test_tree_reads_files_in_nested_folders_and_links_by_their_target(tmp_path: Path) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    for root, target, text in ((old, "a.txt", "one\n"), (new, "gone.txt", "two\n")):
        (root / "x" / "y").mkdir(parents=True)
        (root / "x" / "y" / "f.txt").write_text(text)
        (root / "top.txt").write_text(text)
        (root / "x" / "link").symlink_to(target)  # dangling in new: its target is its content
    entries = {e.path: e.result for e in line_diff_dirs(old, new)}
    assert sorted(entries) == ["top.txt", "x/link", "x/y/f.txt"]
    assert (
        entries["x/link"]
        .unified("x/link")
        .endswith("-a.txt\n\\ No newline at end of file\n+gone.txt\n\\ No newline at end of file\n")
    )
    assert entries["x/y/f.txt"].counts() == (1, 1)


def test_tree_entries_come_in_name_order_whatever_order_the_names_are_given_in() -> None:
    """Names in any order (a walk's is folder by folder, not sorted): entries by name."""
    old = {f"d{k % 4}/f{k}.txt": b"%d\n" % k for k in range(40)}
    new = {name: data + b"more\n" for name, data in old.items() if name[1] != "3"}
    new |= {"a/added.txt": b"new\n", "z.txt": b"last\n"}
    for given in (list(old), sorted(old, reverse=True)):
        entries = tree_diff(given, list(new)[::-1], old.__getitem__, new.__getitem__)
        paths = [entry.path for entry in entries]
        assert paths == sorted(paths) and len(paths) == len(old) + 2
