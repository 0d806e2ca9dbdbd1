"""The diff pauses the cycle collector while it runs and leaves its switch as it found it."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from edittools.diff import _files as files
from edittools.diff import diff_texts, line_diff_dirs
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


def test_a_tree_diff_walks_reads_and_diffs_with_the_collector_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thousands of files make hundreds of thousands of lists and tuples between the diffs
    (which pause the collector themselves): the whole tree diff runs with it off, and leaves
    it on after."""
    for side, change in (("old", b"a"), ("new", b"b")):
        for index in range(40):
            path = tmp_path / side / f"d{index % 4}" / f"f{index}.txt"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(b"line\n" + change + b"\n")
    seen: list[tuple[str, bool]] = []
    walk, reader = files._walk, files._reader

    def watched_walk(root: str) -> list[str]:
        seen.append(("walk", gc.isenabled()))
        return walk(root)

    @contextmanager
    def watched_reader(root: str) -> Iterator[Callable[[str], bytes]]:
        with reader(root) as read:

            def watched_read(name: str) -> bytes:
                seen.append(("read", gc.isenabled()))
                return read(name)

            yield watched_read

    monkeypatch.setattr(files, "_walk", watched_walk)
    monkeypatch.setattr(files, "_reader", watched_reader)
    entries = line_diff_dirs(tmp_path / "old", tmp_path / "new", hunks=False)
    assert len(entries) == 40
    assert {kind for kind, _ in seen} == {"walk", "read"}
    assert not any(enabled for _, enabled in seen)
    assert gc.isenabled()
