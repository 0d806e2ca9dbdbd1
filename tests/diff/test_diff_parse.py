"""The one unified-diff parser reads every emitted diff back into the hunks it was printed from."""

from __future__ import annotations

import pytest
from diff_corpus import Case, corpus

from edittools.dialects._patches import payload_from_unified
from edittools.diff import DiffError, diff_texts, parse_unified

CASES = [case for case in corpus() if case.old is not None and case.new is not None]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_emitted_diffs_read_back_to_their_hunks(case: Case) -> None:
    payload = diff_texts(case.old, case.new, path="src/f.txt")
    if payload.binary or not payload.hunks:
        return
    [patch] = parse_unified(payload.unified)
    assert (patch.op, patch.path, patch.move_to) == ("update", "src/f.txt", None)
    numbers = [(h.old_start, h.old_count, h.new_start, h.new_count) for h in patch.hunks]
    assert numbers == [(h.old_start, h.old_lines, h.new_start, h.new_lines) for h in payload.hunks]
    marker = "\\ No newline at end of file"
    bodies = [[ln for ln in h.lines if ln != marker] for h in payload.hunks]
    assert [list(h.lines) for h in patch.hunks] == bodies
    [read] = payload_from_unified(payload.unified) or [None]
    assert read is not None, case.name
    assert read.path == "src/f.txt"
    # Foreign hunks are kept without their lines' carriage returns, as every dialect reads them;
    # their word-level highlights are computed afresh from those lines.
    expected = [
        h.model_copy(update={"lines": [ln.rstrip("\r") for ln in h.lines], "spans": None})
        for h in payload.hunks
    ]
    assert [h.model_copy(update={"spans": None}) for h in read.hunks] == expected, case.name
    assert [h.heading for h in read.hunks] == [h.heading for h in payload.hunks]
    assert read.stats == payload.stats


def test_no_newline_markers_stay_where_they_were() -> None:
    payload = diff_texts("a\nb", "a\nc", path="x.txt")
    [read] = payload_from_unified(payload.unified) or [None]
    assert read is not None
    assert read.hunks[0].lines == [
        " a",
        "-b",
        "\\ No newline at end of file",
        "+c",
        "\\ No newline at end of file",
    ]
    assert read.unified == payload.unified


def test_a_malformed_hunk_names_its_line() -> None:
    with pytest.raises(DiffError) as info:
        parse_unified("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n")
    assert (info.value.code, info.value.line) == ("invalid_patch", 3)
    assert payload_from_unified("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n") is None
