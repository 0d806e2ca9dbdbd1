"""Staleness judged on the region a change touches (`SessionOptions.stale`, default `region`).

A file changed since the session read it is still changed when what changed lies away from the
lines the change touches: on the file as it is now, the same as making the change on the content
read and then the other one; the result says what else changed. Where they meet, nothing is
written (`stale_read`, the meeting part first).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tool_helpers import check_error

from edittools import Session

BASE = "".join(f"line {k}\n" for k in range(1, 41))


def _opened(root: Path, **options: Any) -> Session:
    (root / "f.py").write_text(BASE)
    session = Session(root, **options)
    assert not session.read("f.py").is_error
    return session


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def test_a_formatter_change_elsewhere_lets_an_edit_lower_down_through(tmp_path: Path) -> None:
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text(BASE.replace("line 2\n", "line 2   \n"))  # whitespace
        result = s.edit("f.py", "line 30\n", "line thirty\n")
    assert not result.is_error, result.value
    assert (tmp_path / "f.py").read_text() == BASE.replace("line 2\n", "line 2   \n").replace(
        "line 30\n", "line thirty\n"
    )
    assert "changed outside the tools since this session read it (+1 -1 at line 2)" in result.value
    assert "-line 2\n+line 2   " in result.value  # what else changed, shown
    assert result.artifact is not None
    assert result.artifact.payload.stats.added == 1  # type: ignore[union-attr]


def test_an_import_added_at_the_top_moves_the_edit_with_it(tmp_path: Path) -> None:
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text("import os\n" + BASE)
        result = s.edit("f.py", "line 30\n", "line thirty\n")
    assert not result.is_error, result.value
    lines = _lines(tmp_path / "f.py")
    assert lines[0] == "import os" and lines[30] == "line thirty"
    assert result.artifact is not None
    assert result.artifact.payload.hunks[0].new_start == 28  # type: ignore[union-attr]


def test_a_change_inside_the_edit_s_lines_is_refused_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    theirs = BASE.replace("line 31\n", "line 31 (theirs)\n")
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text(theirs)
        result = s.edit("f.py", "line 30\nline 31\n", "both lines, ours\n")
    check_error(result, "stale_read", "in or beside the lines this change touches")
    assert "Where it meets this change (line 31 of the content read)" in result.value
    assert (tmp_path / "f.py").read_text() == theirs


def test_a_change_to_the_line_just_below_is_refused(tmp_path: Path) -> None:
    theirs = BASE.replace("line 31\n", "line 31 (theirs)\n")
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text(theirs)
        result = s.edit("f.py", "line 30\n", "line thirty\n")
    check_error(result, "stale_read")
    assert (tmp_path / "f.py").read_text() == theirs


def test_an_edit_that_fails_on_what_was_read_too_keeps_its_own_error(tmp_path: Path) -> None:
    """Ambiguous in the content read as well: the call's own fault, not the other change's."""
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text("import os\n" + BASE)
        check_error(s.edit("f.py", "line 1", "one"), "ambiguous_match")  # line 1, 10, 11...
        check_error(s.edit("f.py", "no such text", "x"), "no_match")


def test_text_the_other_change_removed_is_refused_as_stale_not_as_missing(
    tmp_path: Path,
) -> None:
    theirs = BASE.replace("line 30\n", "")
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text(theirs)
        check_error(s.edit("f.py", "line 30\n", "line thirty\n"), "stale_read", "-line 30")
    assert (tmp_path / "f.py").read_text() == theirs


def test_the_file_rule_refuses_what_the_region_rule_lets_through(tmp_path: Path) -> None:
    with _opened(tmp_path, stale="file") as s:
        (tmp_path / "f.py").write_text("import os\n" + BASE)
        check_error(s.edit("f.py", "line 30\n", "line thirty\n"), "stale_read", "+import os")
    assert (tmp_path / "f.py").read_text() == "import os\n" + BASE


def test_off_changes_the_file_as_it_is(tmp_path: Path) -> None:
    theirs = BASE.replace("line 31\n", "line 31 (theirs)\n")
    with _opened(tmp_path, stale="off") as s:
        (tmp_path / "f.py").write_text(theirs)
        assert not s.edit("f.py", "line 30\n", "line thirty\n").is_error
    assert (tmp_path / "f.py").read_text() == theirs.replace("line 30\n", "line thirty\n")


def test_write_replaces_the_whole_file_so_it_stays_stale(tmp_path: Path) -> None:
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text("import os\n" + BASE)
        check_error(s.write("f.py", "new\n"), "stale_read")


def test_multi_edit_is_judged_on_the_lines_it_changes(tmp_path: Path) -> None:
    edits = [
        {"old_string": "line 20\n", "new_string": "line twenty\n"},
        {"old_string": "line 25\n", "new_string": "line twenty-five\n"},
    ]
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text("import os\n" + BASE)
        result = s.multi_edit("f.py", edits)
        assert not result.is_error, result.value
        assert "since this session read it" in result.value
        (tmp_path / "f.py").write_text((tmp_path / "f.py").read_text().replace("line 26", "x"))
        check_error(s.multi_edit("f.py", [{"old_string": "line 27\n", "new_string": "y\n"}]),
                    "stale_read")  # fmt: skip
    lines = _lines(tmp_path / "f.py")
    assert lines[20] == "line twenty" and lines[25] == "line twenty-five" and lines[26] == "x"


def test_insert_goes_after_the_line_the_model_read(tmp_path: Path) -> None:
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text("import os\nimport re\n" + BASE)
        result = s.insert("f.py", 10, "inserted\n")
    assert not result.is_error, result.value
    lines = _lines(tmp_path / "f.py")
    assert lines[11] == "line 10" and lines[12] == "inserted" and lines[13] == "line 11"


def test_insert_beside_a_changed_line_is_refused(tmp_path: Path) -> None:
    theirs = BASE.replace("line 11\n", "line 11 (theirs)\n")
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text(theirs)
        check_error(s.insert("f.py", 10, "inserted\n"), "stale_read", "line 11 of the content")
    assert (tmp_path / "f.py").read_text() == theirs


# Two identical blocks side by side; outside, a third one is added. Which one is new is not
# written anywhere: the diff puts it after the second, but it may as well have gone first.
BLOCK = "    x = 1\n    y = 2\n"
TWICE = "def f():\n" + BLOCK + BLOCK + "    return x\n"
THRICE = "def f():\n" + BLOCK + BLOCK + BLOCK + "    return x\n"
BETWEEN = {
    "insert": lambda s: s.insert("f.py", 3, "    # between\n"),
    "patch with context": lambda s: s.apply_patch(
        "--- a/f.py\n+++ b/f.py\n@@ -3,2 +3,3 @@\n     y = 2\n+    # between\n     x = 1\n"
    ),
    "patch without context below": lambda s: s.apply_patch(
        "--- a/f.py\n+++ b/f.py\n@@ -3,1 +3,2 @@\n     y = 2\n+    # between\n"
    ),
}


@pytest.mark.parametrize("change", sorted(BETWEEN))
def test_a_change_between_identical_blocks_is_refused_when_another_one_may_have_come_first(
    tmp_path: Path, change: str
) -> None:
    (tmp_path / "f.py").write_text(TWICE)
    with Session(tmp_path) as s:
        assert not s.read("f.py").is_error
        (tmp_path / "f.py").write_text(THRICE)
        check_error(BETWEEN[change](s), "stale_read", "in or beside the lines this change")
    assert (tmp_path / "f.py").read_text() == THRICE


@pytest.mark.parametrize("change", sorted(BETWEEN))
def test_a_change_between_identical_blocks_goes_through_when_the_other_is_away(
    tmp_path: Path, change: str
) -> None:
    (tmp_path / "f.py").write_text(TWICE)
    with Session(tmp_path) as s:
        assert not s.read("f.py").is_error
        (tmp_path / "f.py").write_text("import os\n\n\n" + TWICE + "\n\ng = 1\n")
        result = BETWEEN[change](s)
    assert not result.is_error, result.value
    assert (tmp_path / "f.py").read_text() == "import os\n\n\n" + TWICE.replace(
        BLOCK + BLOCK, BLOCK + "    # between\n" + BLOCK
    ) + "\n\ng = 1\n"


# --- the property: a region apply is both changes, or nothing ---------------------------------


@st.composite
def _changes(draw: st.DrawFn) -> tuple[int, int, int, int, int]:
    """Ours: lines a..b (1-based) replaced; theirs: lines c..d replaced by `n` lines (d = c - 1:
    lines inserted before line c)."""
    size = 12
    a = draw(st.integers(1, size))
    b = draw(st.integers(a, min(size, a + 3)))
    c = draw(st.integers(1, size + 1))
    d = draw(st.integers(c - 1, min(size, c + 3)))
    n = draw(st.integers(0 if d >= c else 1, 3))
    return a, b, c, d, n


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(_changes())
def test_a_region_apply_equals_both_changes_and_never_writes_where_they_meet(
    tmp_path_factory: Any, change: tuple[int, int, int, int, int]
) -> None:
    a, b, c, d, n = change
    base = [f"base {k}\n" for k in range(1, 13)]
    theirs = base[: c - 1] + [f"theirs {k}\n" for k in range(n)] + base[d:]
    ours_new = ["ours\n"]
    root = tmp_path_factory.mktemp("region")
    (root / "f.txt").write_text("".join(base))
    with Session(root, syntax_check="off") as s:
        assert not s.read("f.txt").is_error
        (root / "f.txt").write_text("".join(theirs))
        result = s.edit("f.txt", "".join(base[a - 1 : b]), "".join(ours_new))
    meet = c <= b + 1 and a <= d + 1  # overlapping or touching (an insertion at either edge too)
    on_disk = (root / "f.txt").read_text()
    if meet:
        assert result.is_error and on_disk == "".join(theirs)
        return
    assert not result.is_error, result.value
    # Ours applied to the base, then theirs (shifted when ours lies above it).
    if b < c:
        ours = base[: a - 1] + ours_new + base[b:]
        shift = len(ours_new) - (b - a + 1)
        both = ours[: c - 1 + shift] + [f"theirs {k}\n" for k in range(n)] + ours[d + shift :]
    else:
        both = theirs[: a - 1 - (d - c + 1) + n] + ours_new + theirs[b - (d - c + 1) + n :]
    assert on_disk == "".join(both)


def _patch(old: str, new: str, at: int) -> str:
    context = [f"line {k}" for k in range(at - 3, at)]
    after = [f"line {k}" for k in range(at + 1, at + 4)]
    body = [f" {c}" for c in context] + [f"-{old}", f"+{new}"] + [f" {c}" for c in after]
    return f"--- a/f.py\n+++ b/f.py\n@@ -{at - 3},7 +{at - 3},7 @@\n" + "\n".join(body) + "\n"


def test_a_patch_update_is_judged_on_its_hunks_and_their_context(tmp_path: Path) -> None:
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text("import os\n" + BASE)
        result = s.apply_patch(_patch("line 30", "line thirty", 30))
        assert not result.is_error, result.value
        assert "since this session read it" in result.value
        assert _lines(tmp_path / "f.py")[30] == "line thirty"
        # A change beside the next hunk's changed line (line 11 of the file read) meets it.
        now = (tmp_path / "f.py").read_text().replace("line 11\n", "line eleven\n")
        (tmp_path / "f.py").write_text(now)
        check_error(s.apply_patch(_patch("line 10", "line ten", 10)), "stale_read")
    assert (tmp_path / "f.py").read_text() == now


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    _changes(), st.sampled_from(["\n", "\r\n"]), st.booleans(), st.sampled_from(["utf-8", "utf-16"])
)
def test_a_region_apply_keeps_the_file_s_newlines_and_encoding(
    tmp_path_factory: Any,
    change: tuple[int, int, int, int, int],
    newline: str,
    final: bool,
    encoding: str,
) -> None:
    """The property above in CRLF files, files without a final newline and UTF-16 (with its
    BOM): what is written is both changes, in the file's own newlines and encoding, or nothing."""
    a, b, c, d, n = change
    base = [f"base {k:02d}" for k in range(1, 13)]
    theirs = base[: c - 1] + [f"theirs {k}" for k in range(n)] + base[d:]

    def spelled(lines: list[str]) -> bytes:
        text = newline.join(lines) + (newline if final and lines else "")
        return text.encode(encoding)  # utf-16 writes its BOM

    root = tmp_path_factory.mktemp("region")
    (root / "f.txt").write_bytes(spelled(base))
    with Session(root, syntax_check="off") as s:
        assert not s.read("f.txt").is_error
        (root / "f.txt").write_bytes(spelled(theirs))
        result = s.edit("f.txt", "\n".join(base[a - 1 : b]), "ours")  # no newline at its end
    on_disk = (root / "f.txt").read_bytes()
    first = c
    if not final and d == len(base) and (n == 0 or d < c):
        first = c - 1  # deleting or appending at the end changes the newline of the line before
    if first <= b + 1 and a <= d + 1:
        assert result.is_error and on_disk == spelled(theirs)
        return
    assert not result.is_error, result.value
    if b < c:
        ours = [*base[: a - 1], "ours", *base[b:]]
        shift = 1 - (b - a + 1)
        both = ours[: c - 1 + shift] + [f"theirs {k}" for k in range(n)] + ours[d + shift :]
    else:
        both = [*theirs[: a - 1 - (d - c + 1) + n], "ours", *theirs[b - (d - c + 1) + n :]]
    assert on_disk == spelled(both)
