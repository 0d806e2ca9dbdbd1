"""`unidiff` parses every emitted diff back to the same hunks and counts."""

from __future__ import annotations

import unidiff
from diff_corpus import corpus

from edittools.diff import diff_texts

NO_NEWLINE = "\\ No newline at end of file"


def test_unidiff_reads_back_every_corpus_diff() -> None:
    checked = 0
    for case in corpus():
        payload = diff_texts(case.old, case.new, path="pkg/mod.py")
        if not payload.hunks:
            continue
        patch = unidiff.PatchSet(payload.unified)
        assert len(patch) == 1, case.name
        parsed = patch[0]
        assert parsed.added == payload.stats.added, case.name
        assert parsed.removed == payload.stats.removed, case.name
        if payload.operation == "create":
            assert parsed.is_added_file, case.name
        if payload.operation == "delete":
            assert parsed.is_removed_file, case.name
        assert len(parsed) == len(payload.hunks), case.name
        for ours, theirs in zip(payload.hunks, parsed, strict=True):
            assert (ours.old_start, ours.old_lines) == (theirs.source_start, theirs.source_length)
            assert (ours.new_start, ours.new_lines) == (theirs.target_start, theirs.target_length)
            their_lines = []
            for line in theirs:
                if line.line_type == "\\":
                    their_lines.append(NO_NEWLINE)
                else:
                    their_lines.append(line.line_type + line.value.removesuffix("\n"))
            assert their_lines == ours.lines, case.name
        checked += 1
    assert checked > 60
