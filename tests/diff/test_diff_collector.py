"""The diff pauses the cycle collector while it runs and leaves its switch as it found it."""

from __future__ import annotations

import gc

from edittools.diff import diff_texts
from edittools.diff._collector import collector_paused


def test_the_collector_is_off_inside_and_on_again_after() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_is_on_again_after_a_diff_even_when_it_fails() -> None:
    try:
        with collector_paused():
            raise ValueError("boom")
    except ValueError:
        pass
    assert gc.isenabled()
    payload = diff_texts(b"a\nb\n", b"a\nc\n", path="x")
    assert payload.stats.added == 1
    assert gc.isenabled()


def test_a_collector_switched_off_by_the_caller_stays_off() -> None:
    gc.disable()
    try:
        diff_texts("a\n", "b\n", path="x")
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
