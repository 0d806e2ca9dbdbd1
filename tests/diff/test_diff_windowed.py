"""The windowed scanner and the budget fallback: correct hunks, minimal counts where promised."""

from __future__ import annotations

import random

import pytest
from diff_corpus import Case, code_file, corpus, edit_lines, join, large_corpus
from hunk_apply import apply_hunks
from hypothesis import given, settings
from hypothesis import strategies as st

from edittools.diff import _fast as fast
from edittools.diff import diff_texts
from edittools.diff._changes import Change
from edittools.diff._engine import region_changes, trim_common
from edittools.diff._exact import KeyDiff
from edittools.diff._fast import coarse_changes, scan_changes, scan_counts
from edittools.diff._hunks import build_hunks

LARGE = large_corpus()


def _count(changes: list[Change]) -> int:
    return sum(c.a1 - c.a0 + c.b1 - c.b0 for c in changes)


def _exact_count(old: bytes, new: bytes) -> int:
    return _count(region_changes(old, new, 0, len(old), 0, len(new), 0, 0))


@pytest.mark.parametrize("case", LARGE, ids=[case.name for case in LARGE])
def test_large_pairs_take_the_windowed_path_and_stay_minimal(case: Case) -> None:
    assert case.old is not None and case.new is not None
    pa, ea, pb, eb = trim_common(case.old, case.new)
    assert (ea - pa) + (eb - pb) > 64 * 1024  # the scanner runs, not the one-piece diff
    payload = diff_texts(case.old, case.new, path="f", budget=None)
    assert payload.minimal
    assert apply_hunks(case.old, payload.hunks) == case.new
    assert payload.stats.added + payload.stats.removed == _exact_count(case.old, case.new)


@pytest.mark.parametrize("window", [64, 300, 2048])
def test_tiny_windows_give_the_same_minimal_counts(window: int) -> None:
    for case in corpus() + LARGE[:4]:
        old, new = case.old or b"", case.new or b""
        changes, minimal = scan_changes(
            old, new, 0, len(old), 0, len(new), 0, None, window=window, dense=window * 64
        )
        assert minimal
        assert _count(changes) == _exact_count(old, new), case.name
        hunks = build_hunks(old, new, changes, context=3)
        assert apply_hunks(old, hunks) == new, case.name


def test_dense_region_falls_back_to_one_exact_piece() -> None:
    case = next(c for c in LARGE if c.name == "large-dense-middle")
    old, new = case.old or b"", case.new or b""
    changes, minimal = scan_changes(old, new, 0, len(old), 0, len(new), 0, None, dense=8192)
    assert minimal
    assert _count(changes) == _exact_count(old, new)


def test_coarse_diff_is_correct_and_close_to_minimal() -> None:
    for case in LARGE:
        old, new = case.old or b"", case.new or b""
        changes = coarse_changes(old, new, (0, len(old), 0, len(new)), 0, 0)
        assert apply_hunks(old, build_hunks(old, new, changes, context=3)) == new, case.name
        assert _count(changes) >= _exact_count(old, new)


def test_spent_budget_returns_a_correct_coarse_diff_flagged_not_minimal() -> None:
    rng = random.Random(5)
    old_lines = code_file(rng, 20000)
    new_lines = [line + " # changed" if rng.random() < 0.5 else line for line in old_lines]
    old, new = join(old_lines), join(new_lines)
    payload = diff_texts(old, new, path="f", budget=0.0)
    assert payload.minimal is False
    assert apply_hunks(old, payload.hunks) == new
    exact = diff_texts(old, new, path="f", budget=None)
    assert exact.minimal is True
    assert exact.stats.added + exact.stats.removed <= payload.stats.added + payload.stats.removed


def test_edits_far_apart_in_a_large_file_keep_their_line_numbers() -> None:
    rng = random.Random(9)
    old_lines = code_file(rng, 30000)
    new_lines = list(old_lines)
    new_lines[100] = "first change"
    new_lines[29000] = "second change"
    new_lines = edit_lines(rng, new_lines, 0)
    payload = diff_texts(join(old_lines), join(new_lines), path="f", context=0)
    assert [(h.old_start, h.new_start) for h in payload.hunks] == [(101, 101), (29001, 29001)]


FEW = st.sampled_from(["", "}", "a", "b", "x = 1", "  return"])
EDITS = st.lists(
    st.tuples(st.integers(0, 400), st.integers(0, 5), st.lists(FEW, max_size=5)), max_size=8
)


@settings(max_examples=200, deadline=None)
@given(st.lists(FEW, max_size=400), EDITS, st.sampled_from([16, 64, 256]))
def test_windowed_counts_equal_exact_on_duplicate_heavy_text(
    old_lines: list[str], edits: list[tuple[int, int, list[str]]], window: int
) -> None:
    new_lines = list(old_lines)
    for pos, cut, inserted in edits:
        pos = min(pos, len(new_lines))
        new_lines[pos : pos + cut] = inserted
    old, new = join(old_lines), join(new_lines)
    changes, minimal = scan_changes(
        old, new, 0, len(old), 0, len(new), 0, None, window=window, dense=window * 64
    )
    assert minimal
    assert _count(changes) == _exact_count(old, new)
    assert apply_hunks(old, build_hunks(old, new, changes, context=2)) == new


@settings(max_examples=200, deadline=None)
@given(
    st.lists(FEW, max_size=400),
    EDITS,
    st.sampled_from([16, 64, 256]),
    st.booleans(),
    st.sampled_from([None, 0.0]),
)
def test_counting_alone_gives_the_counts_of_the_scanner_s_changes(
    old_lines: list[str],
    edits: list[tuple[int, int, list[str]]],
    window: int,
    final_newline: bool,
    deadline: float | None,
) -> None:
    """Same windows, same commits: the counts and the flag of `scan_changes`, also without a
    final newline and past a spent budget (0.0: coarse after the first window)."""
    new_lines = list(old_lines)
    for pos, cut, inserted in edits:
        pos = min(pos, len(new_lines))
        new_lines[pos : pos + cut] = inserted
    old, new = join(old_lines), join(new_lines)
    if not final_newline:
        old, new = old[:-1], new[:-1]
    sizes = {"window": window, "dense": window * 64}
    changes, minimal = scan_changes(old, new, 0, len(old), 0, len(new), 0, deadline, **sizes)
    counted = scan_counts(old, new, 0, len(old), 0, len(new), deadline, **sizes)
    removed = sum(c.a1 - c.a0 for c in changes)
    assert counted == (sum(c.b1 - c.b0 for c in changes), removed, minimal)


@pytest.mark.parametrize("window", [64, 300, 4096])
def test_counting_alone_on_the_corpora(window: int) -> None:
    for case in corpus() + LARGE:
        old, new = case.old or b"", case.new or b""
        for deadline in (None, 0.0):
            sizes = {"window": window, "dense": window * 64}
            changes, minimal = scan_changes(
                old, new, 0, len(old), 0, len(new), 0, deadline, **sizes
            )
            added, removed, counted_minimal = scan_counts(
                old, new, 0, len(old), 0, len(new), deadline, **sizes
            )
            assert added == sum(c.b1 - c.b0 for c in changes), case.name
            assert removed == sum(c.a1 - c.a0 for c in changes), case.name
            assert counted_minimal == minimal, case.name


def test_dense_duplicate_rewrite_past_the_budget_is_coarse_but_applies() -> None:
    rng = random.Random(11)
    old_lines = [rng.choice(["", "}", "{", "x", "y"]) for _ in range(40_000)]
    new_lines = [
        rng.choice(["", "}", "{", "x", "y"]) if rng.random() < 0.4 else v for v in old_lines
    ]
    old, new = join(old_lines), join(new_lines)
    payload = diff_texts(old, new, path="f", budget=0.01)
    assert payload.minimal is False
    assert apply_hunks(old, payload.hunks) == new


@pytest.mark.parametrize("final_newline", [True, False])
def test_coarse_chunks_cut_by_line_count_keep_offsets_right(final_newline: bool) -> None:
    # Lines of a few bytes, so each coarse chunk is cut at CHUNK_LINES lines; nine in ten
    # changed, so most chunks have no equal run to end at and are committed up to that cut.
    rng = random.Random(13)
    old_lines = [rng.choice(["a", "b", "c", "}"]) for _ in range(9000)]
    new_lines = [rng.choice(["d", "e"]) if rng.random() < 0.9 else v for v in old_lines]
    old, new = join(old_lines), join(new_lines)
    if not final_newline:
        old, new = old[:-1], new[:-1]
    changes = coarse_changes(old, new, (0, len(old), 0, len(new)), 0, 0)
    assert apply_hunks(old, build_hunks(old, new, changes, context=3)) == new
    assert _count(changes) >= _exact_count(old, new)


def _window_sizes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The lines on each side of every exact diff the scanner runs, as it runs them."""
    sizes: list[tuple[int, int]] = []
    exact = fast.diff_keys

    def spy(a: list[bytes], b: list[bytes]) -> KeyDiff:
        sizes.append((len(a), len(b)))
        return exact(a, b)

    monkeypatch.setattr(fast, "diff_keys", spy)
    return sizes


def test_a_window_over_half_the_rest_on_both_sides_becomes_the_whole_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A dense 30 KiB rewrite: the 4 KiB window finds no run to commit at, and the next one
    (16 KiB) would cover over half of what is left, so the rest is diffed at once: two exact
    diffs, not a third over the whole after the 16 KiB one."""
    old = b"".join(b"old line number %05d, kept apart\n" % i for i in range(900))
    new = b"".join(b"new line number %05d, kept apart\n" % i for i in range(900))
    sizes = _window_sizes(monkeypatch)
    added, removed, minimal = scan_counts(old, new, 0, len(old), 0, len(new), None)
    assert (added, removed, minimal) == (900, 900, True)
    assert len(sizes) == 2 and sizes[-1] == (900, 900)


def test_a_short_rest_on_one_side_does_not_pull_in_the_long_rest_of_the_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """New ends a few lines in, old goes on for megabytes: the windows on old still start
    small (the long side is never split whole for a window the short side fills)."""
    old = b"".join(b"removed line %07d\n" % i for i in range(200_000))
    new = b"kept apart\n" * 10
    sizes = _window_sizes(monkeypatch)
    added, removed, _ = scan_counts(old, new, 0, len(old), 0, len(new), None)
    assert (added, removed) == (10, 200_000)
    assert sizes[0][0] < 1000
