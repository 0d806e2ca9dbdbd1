"""Reading diffs for display: unified text classified, hunks parsed, rows numbered and paired."""

from __future__ import annotations

from edittools.artifacts import DiffPayload, Hunk
from edittools.render._hunks import (
    Row,
    classify_unified,
    hunk_rows,
    hunks_of,
    split_pairs,
)

GIT_STYLE = (
    "diff --git a/f b/f\n"
    "index 1..2 100644\n"
    "--- a/f\n"
    "+++ b/f\n"
    "@@ -1 +1 @@\n"
    "--- a/x\n"
    "+++ b/x\n"
    "@@ -7 +7,0 @@\n"
    "-last\n"
    "\\ No newline at end of file\n"
)


def test_classify_counts_hunk_bodies_so_header_lookalikes_stay_changes() -> None:
    roles = [role for role, _ in classify_unified(GIT_STYLE)]
    assert roles == [
        "header", "header", "header", "header", "hunk", "remove", "add", "hunk", "remove", "note",
    ]  # fmt: skip


def test_hunks_are_parsed_from_unified_text_when_missing() -> None:
    hunks = hunks_of(DiffPayload(path="f", unified=GIT_STYLE))
    assert hunks == [
        Hunk(old_start=1, old_lines=1, new_start=1, new_lines=1, lines=["--- a/x", "+++ b/x"]),
        Hunk(
            old_start=7,
            old_lines=1,
            new_start=7,
            new_lines=0,
            lines=["-last", "\\ No newline at end of file"],
        ),
    ]


def test_given_hunks_win_over_unified_text() -> None:
    hunk = Hunk(old_start=1, old_lines=1, new_start=1, new_lines=1, lines=["-a", "+b"])
    assert hunks_of(DiffPayload(path="f", hunks=[hunk], unified=GIT_STYLE)) == [hunk]


def test_rows_are_numbered_and_an_empty_range_names_the_line_before() -> None:
    insert = Hunk(old_start=1, old_lines=0, new_start=2, new_lines=2, lines=["+a", "+b"])
    assert hunk_rows(insert) == [Row("add", "a", None, 2), Row("add", "b", None, 3)]
    mixed = Hunk(old_start=4, old_lines=2, new_start=5, new_lines=2, lines=[" c", "-x", "+y"])
    assert hunk_rows(mixed) == [
        Row("context", "c", 4, 5),
        Row("remove", "x", 5, None),
        Row("add", "y", None, 6),
    ]


def test_snippet_rows_have_no_numbers() -> None:
    snippet = Hunk(old_start=None, old_lines=1, new_start=None, new_lines=1, lines=["-a", "+b"])
    assert [(r.old_no, r.new_no) for r in hunk_rows(snippet)] == [(None, None), (None, None)]


def test_removed_lines_face_the_added_lines_that_follow() -> None:
    hunk = Hunk(
        old_start=1,
        old_lines=4,
        new_start=1,
        new_lines=3,
        lines=[" k", "-a", "-b", "-c", "+x", " k2", "+y"],
    )
    pairs = [
        (left.text if left else None, right.text if right else None)
        for left, right in split_pairs(hunk_rows(hunk))
    ]
    assert pairs == [("k", "k"), ("a", "x"), ("b", None), ("c", None), ("k2", "k2"), (None, "y")]


def test_no_newline_marker_stays_on_the_side_it_belongs_to() -> None:
    hunk = Hunk(
        old_start=1,
        old_lines=1,
        new_start=1,
        new_lines=1,
        lines=["-a", "\\ No newline at end of file", "+a"],
    )
    pairs = [
        (left.role if left else None, right.role if right else None)
        for left, right in split_pairs(hunk_rows(hunk))
    ]
    assert pairs == [("remove", "add"), ("note", None)]
