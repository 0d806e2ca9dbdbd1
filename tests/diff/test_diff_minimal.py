"""Minimality: the hunks change as few lines as possible.

GNU ``diff --minimal`` is the exact oracle on the generated corpus; ``git diff --numstat --minimal``
is shown beside it (git's "minimal" drops frequent lines and may report more). The pure-Python
Myers diff is the oracle for the engine's fast paths on every corpus pair.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from diff_corpus import corpus, large_corpus, lines_of

from edittools.diff import diff_texts
from edittools.diff._exact import _python_diff, diff_keys
from edittools.diff._lines import split_keys
from edittools.diff._myers import diff_ids

CASES = [case for case in corpus() if case.old is not None and case.new is not None]
LARGE = large_corpus()


def _reference_counts(old: bytes, new: bytes) -> tuple[int, int]:
    ids: dict[bytes, int] = {}
    a = [ids.setdefault(line, len(ids)) for line in lines_of(old)]
    b = [ids.setdefault(line, len(ids)) for line in lines_of(new)]
    blocks = diff_ids(a, b)
    return sum(b1 - b0 for _, _, b0, b1 in blocks), sum(a1 - a0 for a0, a1, _, _ in blocks)


def _gnu_counts(old: Path, new: Path) -> tuple[int, int]:
    result = subprocess.run(
        ["diff", "--minimal", "--text", str(old), str(new)], capture_output=True, check=False
    )
    assert result.returncode in (0, 1), result.stderr
    lines = result.stdout.split(b"\n")
    return sum(line.startswith(b">") for line in lines), sum(
        line.startswith(b"<") for line in lines
    )


def _git_counts(old: Path, new: Path) -> tuple[int, int]:
    result = subprocess.run(
        ["git", "diff", "--no-index", "--numstat", "--minimal", "--text", str(old), str(new)],
        capture_output=True,
        check=False,
    )
    assert result.returncode in (0, 1), result.stderr
    if not result.stdout:
        return 0, 0
    added, removed = result.stdout.split(b"\t")[:2]
    return int(added), int(removed)


def test_counts_equal_the_exact_myers_reference() -> None:
    for case in CASES:
        assert case.old is not None and case.new is not None
        payload = diff_texts(case.old, case.new, path="f")
        ours = (payload.stats.added, payload.stats.removed)
        assert ours == _reference_counts(case.old, case.new), case.name
        assert payload.minimal is True


@pytest.mark.integration
def test_counts_equal_gnu_diff_minimal_with_git_beside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = []
    for case in CASES + LARGE:
        assert case.old is not None and case.new is not None
        old, new = tmp_path / "old", tmp_path / "new"
        old.write_bytes(case.old)
        new.write_bytes(case.new)
        payload = diff_texts(case.old, case.new, path="f")
        ours = (payload.stats.added, payload.stats.removed)
        gnu = _gnu_counts(old, new)
        git = _git_counts(old, new)
        assert ours == gnu, case.name
        # The minimum is a lower bound for every correct diff, git's included.
        assert sum(git) >= sum(gnu), case.name
        rows.append((case.name, ours, gnu, git))
    above = [row for row in rows if sum(row[3]) > sum(row[2])]
    with capsys.disabled():
        print(f"\n{len(rows)} pairs; git --minimal above the minimum on {len(above)}:")
        for name, ours, gnu, git in above:
            print(
                f"  {name}: ours +{ours[0]}/-{ours[1]}  GNU +{gnu[0]}/-{gnu[1]}  git +{git[0]}/-{git[1]}"
            )


def test_reference_corpus_case_is_not_trivially_equal(tmp_path: Path) -> None:
    # Guard against an oracle that agrees because nothing changed.
    changed = [case for case in CASES if case.old != case.new]
    assert len(changed) > 60
    assert any(_reference_counts(c.old or b"", c.new or b"")[0] > 5 for c in changed)


def test_pure_python_path_for_huge_vocabularies_matches_the_cpp_path() -> None:
    # The path taken when distinct common lines outnumber code points, run here on the corpus.
    for case in CASES:
        assert case.old is not None and case.new is not None
        a = split_keys(case.old, 0, len(case.old))
        b = split_keys(case.new, 0, len(case.new))
        common = set(a).intersection(b)
        if not common:
            continue
        expected = diff_keys(a, b)
        got = _python_diff(a, b, common)
        assert got.reduced_distance == expected.reduced_distance, case.name
        count = sum(a1 - a0 + b1 - b0 for a0, a1, b0, b1 in got.blocks)
        assert count == sum(a1 - a0 + b1 - b0 for a0, a1, b0, b1 in expected.blocks), case.name
