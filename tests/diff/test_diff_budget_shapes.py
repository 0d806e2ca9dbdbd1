"""The budget holds on reordered lines, and one budget holds for all the diffs of a call.

A reordered file shares all its lines between the two sides but few within any window, so a
prediction from the windows' change density said the whole rest was cheap, and the exact diff of
40,000 shuffled lines then took 20 s against a 1 s budget. The exact diffs run are spied on (the
C++ engine is still called); nothing is timed, and a budget the whole could never fit makes the
outcome independent of the machine's speed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hunk_apply import apply_hunks

from edittools.diff import _exact, diff_texts, shared_budget
from edittools.diff._engine import SMALL_REGION
from edittools.diff._fast import CHUNK_LINES

SIZES = (1500, 3000, 6000)


@pytest.fixture
def exact_sizes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The length of each exact diff's problem (both sides, after lines on one side only were
    dropped), as the engine runs them."""
    sizes: list[int] = []
    real = _exact.fast_diff_match_patch.diff

    def spy(a: str, b: str, **kwargs: object) -> object:
        sizes.append(len(a) + len(b))
        return real(a, b, **kwargs)

    monkeypatch.setattr(_exact.fast_diff_match_patch, "diff", spy)
    yield sizes


def _shuffled(lines: int, *, width: int = 40) -> tuple[bytes, bytes]:
    rng = random.Random(lines)
    body = [f"line {i:06d} {'x' * (width - 13)}\n".encode() for i in range(lines)]
    old = b"".join(body)
    rng.shuffle(body)
    return old, b"".join(body)


def _check(old: bytes, new: bytes, budget: float | None) -> tuple[bool, int]:
    payload = diff_texts(old, new, path="f.txt", include_texts=False, budget=budget)
    assert apply_hunks(old, payload.hunks) == new
    return payload.minimal, payload.stats.added


def test_reordered_lines_are_never_diffed_whole_past_the_budget(exact_sizes: list[int]) -> None:
    for lines in SIZES:
        old, new = _shuffled(lines)
        exact_sizes.clear()
        minimal, _ = _check(old, new, budget=0.01)  # the whole would take 45 ms and more
        assert not minimal
        # Each exact diff is a window or a coarse chunk, of a size that does not grow with the
        # file: their cost adds up linearly (the whole would be 2 * lines, its cost the square).
        assert max(exact_sizes) <= 2 * CHUNK_LINES < 2 * lines, (lines, exact_sizes)


def test_reordered_lines_within_the_budget_still_get_the_minimal_diff() -> None:
    old, new = _shuffled(SIZES[0])
    minimal, added = _check(old, new, budget=None)
    assert minimal
    assert added < SIZES[0]  # shuffled lines keep some in order


def test_a_small_middle_of_short_lines_goes_to_the_scanner_when_the_budget_is_short(
    exact_sizes: list[int],
) -> None:
    old, new = _shuffled(2000, width=13)  # 26 KB a side: under the one-piece size together
    assert len(old) + len(new) <= SMALL_REGION
    _check(old, new, budget=0.01)  # 4,000 lines shuffled: about 80 ms at the worst
    assert max(exact_sizes) < 2000, exact_sizes
    exact_sizes.clear()
    minimal, _ = _check(old, new, budget=None)
    assert minimal and exact_sizes == [4000]


def test_diffs_in_one_shared_budget_get_what_is_left(exact_sizes: list[int]) -> None:
    old, new = _shuffled(SIZES[0])
    with shared_budget(0.0):
        minimal, _ = _check(old, new, budget=None)
        assert not minimal  # nothing left: coarse at once, whatever its own budget
        created = diff_texts(None, "a\nb\n" * 500, path="g.txt")
        assert created.minimal and created.stats.added == 1000  # added lines only: no search
        with shared_budget(100.0):  # a nested block shares the outer one
            assert not diff_texts(old, new, path="f.txt").minimal
    assert diff_texts(old, new, path="f.txt", budget=None).minimal
