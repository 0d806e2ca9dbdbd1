"""The shape of diff payloads: headers, hunk ranges, markers, stats, operations, binary, errors."""

from __future__ import annotations

import pytest

from edittools.artifacts import Hunk
from edittools.diff import DiffError, diff_texts, hunk_header, snippet_diff, unified_excerpt

HEADER = "diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n"


def test_modify_has_git_headers_and_a_count_of_one_is_omitted() -> None:
    payload = diff_texts("a\nb\nc\n", "a\nB\nc\n", path="f.txt", context=0)
    # As git: the line above the hunk that starts with a letter is its function context.
    assert payload.unified == HEADER + "@@ -2 +2 @@ a\n-b\n+B\n"
    assert payload.operation == "modify"
    assert payload.granularity == "file"
    assert (payload.stats.added, payload.stats.removed) == (1, 1)


def test_insert_after_a_line_names_that_line_with_an_empty_range() -> None:
    payload = diff_texts("a\nb\n", "a\nx\ny\nb\n", path="f.txt", context=0)
    assert payload.unified == HEADER + "@@ -1,0 +2,2 @@ a\n+x\n+y\n"
    hunk = payload.hunks[0]
    assert (hunk.old_start, hunk.old_lines, hunk.new_start, hunk.new_lines) == (1, 0, 2, 2)


def test_empty_old_file_gives_zero_zero_range() -> None:
    payload = diff_texts("", "one\ntwo\n", path="f.txt")
    assert payload.unified == HEADER + "@@ -0,0 +1,2 @@\n+one\n+two\n"


def test_emptying_a_file_gives_zero_zero_new_range() -> None:
    payload = diff_texts("one\ntwo\n", "", path="f.txt")
    assert payload.unified == HEADER + "@@ -1,2 +0,0 @@\n-one\n-two\n"


def test_missing_final_newline_is_marked_after_the_line() -> None:
    payload = diff_texts("a\nb", "a\nb\n", path="f.txt")
    assert payload.hunks[0].lines == [" a", "-b", "\\ No newline at end of file", "+b"]
    assert payload.unified.endswith("-b\n\\ No newline at end of file\n+b\n")
    assert (payload.stats.added, payload.stats.removed) == (1, 1)


def test_context_line_without_final_newline_is_marked() -> None:
    payload = diff_texts("a\nb\nc", "A\nb\nc", path="f.txt")
    assert payload.hunks[0].lines == ["-a", "+A", " b", " c", "\\ No newline at end of file"]


def test_carriage_returns_stay_in_the_line_text() -> None:
    payload = diff_texts(b"a\r\nb\r\n", b"a\r\nc\r\n", path="f.txt")
    assert payload.hunks[0].lines == [" a\r", "-b\r", "+c\r"]


def test_lines_split_on_newline_only() -> None:
    old = "a\u2028b\x0cc\rd\n"
    new = "a\u2028b\x0cc\rD\n"
    payload = diff_texts(old, new, path="f.txt")
    assert payload.hunks[0].lines == ["-a\u2028b\x0cc\rd", "+a\u2028b\x0cc\rD"]


def test_context_is_configurable() -> None:
    old = "".join(f"{i}\n" for i in range(20))
    new = old.replace("10\n", "ten\n")
    assert len(diff_texts(old, new, path="f.txt").hunks[0].lines) == 8
    assert len(diff_texts(old, new, path="f.txt", context=1).hunks[0].lines) == 4
    assert diff_texts(old, new, path="f.txt", context=5).hunks[0].old_start == 6


def test_changes_within_twice_the_context_share_one_hunk() -> None:
    old = "".join(f"{i}\n" for i in range(30))
    near = old.replace("10\n", "X\n").replace("17\n", "Y\n")
    far = old.replace("10\n", "X\n").replace("18\n", "Y\n")
    assert len(diff_texts(old, near, path="f.txt").hunks) == 1
    assert len(diff_texts(old, far, path="f.txt").hunks) == 2


def test_identical_texts_give_no_hunks_and_no_text() -> None:
    payload = diff_texts("same\n", "same\n", path="f.txt")
    assert payload.hunks == []
    assert payload.unified == ""
    assert (payload.stats.added, payload.stats.removed) == (0, 0)


def test_create_uses_dev_null_and_new_file_mode() -> None:
    payload = diff_texts(None, "x\n", path="d/new.py")
    assert payload.operation == "create"
    assert payload.old is None and payload.new == "x\n"
    assert payload.unified == (
        "diff --git a/d/new.py b/d/new.py\nnew file mode 100644\n"
        "--- /dev/null\n+++ b/d/new.py\n@@ -0,0 +1 @@\n+x\n"
    )


def test_delete_uses_dev_null_and_deleted_file_mode() -> None:
    payload = diff_texts("x\n", None, path="gone.py")
    assert payload.operation == "delete"
    assert payload.new is None
    assert payload.unified == (
        "diff --git a/gone.py b/gone.py\ndeleted file mode 100644\n"
        "--- a/gone.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
    )


def test_rename_names_both_paths() -> None:
    payload = diff_texts("a\n", "b\n", path="new.txt", old_path="old.txt")
    assert payload.operation == "rename"
    assert payload.old_path == "old.txt"
    assert payload.unified.startswith(
        "diff --git a/old.txt b/new.txt\nrename from old.txt\nrename to new.txt\n"
        "--- a/old.txt\n+++ b/new.txt\n"
    )


def test_same_old_path_is_a_plain_modify() -> None:
    payload = diff_texts("a\n", "b\n", path="p.txt", old_path="p.txt")
    assert payload.operation == "modify"
    assert payload.old_path is None


def test_paths_are_quoted_like_git() -> None:
    payload = diff_texts("a\n", "b\n", path="tést")
    assert payload.unified.startswith('diff --git "a/t\\303\\251st" "b/t\\303\\251st"\n')
    spaced = diff_texts("a\n", "b\n", path="x y.txt")
    assert "--- a/x y.txt\t\n+++ b/x y.txt\t\n" in spaced.unified


def test_include_texts_false_leaves_texts_out() -> None:
    payload = diff_texts(b"a\n", b"b\n", path="f.txt", include_texts=False)
    assert payload.old is None and payload.new is None
    full = diff_texts(b"a\n", "é\n".encode(), path="f.txt")
    assert (full.old, full.new) == ("a\n", "é\n")


@pytest.mark.parametrize("old", [b"a\0b\n", b"caf\xe9\n"])
def test_nul_or_invalid_utf8_is_binary(old: bytes) -> None:
    payload = diff_texts(old, b"text\n", path="f.bin")
    assert payload.binary is True
    assert payload.hunks == []
    assert (payload.stats.added, payload.stats.removed) == (0, 0)
    assert payload.old is None and payload.new is None
    assert (
        payload.unified == "diff --git a/f.bin b/f.bin\nBinary files a/f.bin and b/f.bin differ\n"
    )


def test_binary_create_names_dev_null() -> None:
    payload = diff_texts(None, b"\0\1", path="f.bin")
    assert payload.unified == (
        "diff --git a/f.bin b/f.bin\nnew file mode 100644\nBinary files /dev/null and b/f.bin differ\n"
    )


def test_identical_binary_has_no_text() -> None:
    payload = diff_texts(b"\0", b"\0", path="f.bin")
    assert payload.binary is True
    assert payload.unified == ""


def test_both_sides_missing_is_an_error_with_a_code() -> None:
    with pytest.raises(DiffError) as info:
        diff_texts(None, None, path="f.txt")
    assert info.value.code == "no_content"


def test_snippet_without_location_has_null_starts_and_bare_headers() -> None:
    payload = snippet_diff("a\nb\nc", "a\nB\nc", path="f.txt")
    assert payload.granularity == "snippet"
    hunk = payload.hunks[0]
    assert (hunk.old_start, hunk.new_start) == (None, None)
    assert hunk.lines == [" a", "-b", "+B", " c"]
    assert payload.unified == HEADER + "@@ @@\n a\n-b\n+B\n c\n"
    assert (payload.stats.added, payload.stats.removed) == (1, 1)
    assert payload.old is None and payload.new is None


def test_snippet_with_start_line_is_numbered_from_it() -> None:
    payload = snippet_diff("a\nb\nc\n", "a\nB\nc\n", path="f.txt", start_line=41)
    hunk = payload.hunks[0]
    assert (hunk.old_start, hunk.old_lines, hunk.new_start, hunk.new_lines) == (41, 3, 41, 3)
    assert "@@ -41,3 +41,3 @@\n" in payload.unified


def test_snippet_pure_insertion_is_minimal() -> None:
    payload = snippet_diff("x = 1\n", "x = 1\ny = 2\n", path="f.txt")
    assert (payload.stats.added, payload.stats.removed) == (1, 0)


def test_invalid_utf8_only_in_a_changed_line_of_a_large_file_is_binary() -> None:
    old = b"".join(b"line %d\n" % i for i in range(50_000))
    new = old.replace(b"line 40000\n", b"line \xff\n")
    assert diff_texts(old, new, path="f").binary is True
    assert diff_texts(old.decode(), new, path="f").binary is True
    assert diff_texts(old, old.replace(b"line 40000\n", b"l\xc3\xa9\n"), path="f").binary is False


def test_nul_only_in_a_changed_line_of_a_large_file_is_binary() -> None:
    old = b"".join(b"line %d\n" % i for i in range(50_000))
    assert diff_texts(old, old.replace(b"line 30000\n", b"li\0ne\n"), path="f").binary is True


def test_bad_bytes_in_one_of_many_dense_changes_are_binary() -> None:
    old = b"".join(b"line %d\n" % i for i in range(50_000))
    # Every fifth line changed: dense enough for one scan over the whole changed range.
    edited = b"".join(b"edit %d\n" % i if i % 5 == 0 else b"line %d\n" % i for i in range(50_000))
    assert diff_texts(old, edited, path="f").binary is False
    for bad in (b"edit 25000\xff\n", b"edit\0 25000\n"):
        new = edited.replace(b"edit 25000\n", bad)
        assert diff_texts(old, new, path="f").binary is True


def test_bad_bytes_in_one_of_few_scattered_changes_are_binary() -> None:
    old = b"".join(b"line %d\n" % i for i in range(50_000))
    # Two edits far apart: each changed range is checked on its own.
    edited = old.replace(b"line 100\n", b"edit 100\n")
    assert diff_texts(old, edited.replace(b"line 40000\n", b"ok 40000\n"), path="f").binary is False
    for bad in (b"edit 40000\xff\n", b"edit\0 40000\n"):
        new = edited.replace(b"line 40000\n", bad)
        assert diff_texts(old, new, path="f").binary is True


def test_hunk_header_omits_counts_of_one_and_leaves_snippet_starts_blank() -> None:
    assert hunk_header(Hunk(old_start=3, old_lines=1, new_start=3, new_lines=2, lines=[])) == (
        "@@ -3 +3,2 @@"
    )
    snippet = Hunk(old_start=None, old_lines=1, new_start=None, new_lines=1, lines=[])
    assert hunk_header(snippet) == "@@ @@"


def test_a_long_unified_text_is_cut_for_the_model_with_a_note() -> None:
    old = "".join(f"line {k}\n" for k in range(2000))
    unified = diff_texts(old, old.upper(), path="f").unified
    shown = unified_excerpt(unified)
    assert unified.startswith(shown.split("\n[... diff cut")[0])
    assert shown.endswith("\n[... diff cut; read the file to see all of it]\n")
    assert len(shown) < 4100 < len(unified)
    small = diff_texts("a\n", "b\n", path="f").unified
    assert unified_excerpt(small) == small
