"""`diff_files` and `diff_buffers`: files diffed through memory maps equal `diff_texts` of their bytes."""

from __future__ import annotations

import mmap
import os
import threading
import tracemalloc
from pathlib import Path

import pytest
from diff_corpus import Case, corpus, large_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import edittools.diff._files as files_module
import edittools.diff._line_diff as line_diff_module
import edittools.diff._mapped as mapped_module
from edittools.diff import DiffError, diff_buffers, diff_files, diff_texts

CASES = [
    case for case in corpus() + large_corpus() if case.old is not None and case.new is not None
]


@pytest.fixture(autouse=True)
def _map_every_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """Map every file that is not empty, as files of 16 MiB and more are: the mapped path is the
    one these tests are about (an empty file cannot be mapped; it is read)."""
    monkeypatch.setattr(files_module, "_MAP_FROM", 1)


def _write(tmp_path: Path, old: bytes, new: bytes) -> tuple[Path, Path]:
    a, b = tmp_path / "old.txt", tmp_path / "new.txt"
    a.write_bytes(old)
    b.write_bytes(new)
    return a, b


def _same_as_texts(tmp_path: Path, old: bytes, new: bytes, **options: object) -> None:
    a, b = _write(tmp_path, old, new)
    for include_texts in (False, True):
        mapped = diff_files(a, b, path="f", include_texts=include_texts, budget=None, **options)  # type: ignore[arg-type]
        whole = diff_texts(old, new, path="f", include_texts=include_texts, budget=None, **options)  # type: ignore[arg-type]
        assert mapped == whole


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_mapped_files_diff_like_their_bytes(tmp_path: Path, case: Case) -> None:
    assert case.old is not None and case.new is not None
    _same_as_texts(tmp_path, case.old, case.new)


@pytest.mark.parametrize(
    "case", [c for c in CASES if c.name.startswith("large-")][:4], ids=lambda case: case.name
)
def test_tiny_chunks_count_lines_across_chunk_borders(
    tmp_path: Path, case: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Newline counts and ASCII checks summed over 7-byte chunks give the same line numbers."""
    monkeypatch.setattr(mapped_module, "CHUNK", 7)
    assert case.old is not None and case.new is not None
    _same_as_texts(tmp_path, case.old, case.new, context=5)


LINES = st.sampled_from(["", "}", "a", "b", "x = 1", "é✓", "c\r", "\r", "nul\0", "\xff"])


@st.composite
def sides(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(LINES, max_size=25))
    text = "\n".join(lines) + draw(st.sampled_from(["", "\n"]))
    # "\xff" as latin-1 is an invalid UTF-8 byte: such sides are binary, as with NUL.
    return text.encode("utf-8") if draw(st.booleans()) else text.encode("latin-1", "replace")


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(sides(), sides(), st.integers(0, 4))
def test_any_pair_diffs_as_its_bytes(tmp_path: Path, old: bytes, new: bytes, context: int) -> None:
    """Text or binary, empty or not, with or without a final newline: the same payload."""
    _same_as_texts(tmp_path, old, new, context=context)


def test_a_rename_and_the_default_path(tmp_path: Path) -> None:
    a, b = _write(tmp_path, b"one\ntwo\n", b"one\n2\n")
    assert diff_files(a, b).path == str(b)
    renamed = diff_files(a, b, path="new.txt", old_path="old.txt")
    expected = diff_texts(
        b"one\ntwo\n", b"one\n2\n", path="new.txt", old_path="old.txt", include_texts=False
    )
    assert renamed == expected
    assert renamed.operation == "rename"


def test_memory_stays_bounded_on_a_large_pair(tmp_path: Path) -> None:
    """A 32 MiB pair with scattered edits allocates far less than one file (maps are not copied)."""
    line = b"%08d the quick brown fox jumps over the lazy dog\n"
    old = b"".join(line % i for i in range(600_000))
    new = old.replace(line % 1234, b"changed\n").replace(line % 400_000, b"")
    a, b = _write(tmp_path, old, new)
    expected = diff_texts(old, new, path="f", budget=None, include_texts=False)
    del old, new
    tracemalloc.start()
    try:
        payload = diff_files(a, b, path="f", budget=None)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert payload == expected
    assert peak < a.stat().st_size // 3


def test_a_directory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"x\n")
    with pytest.raises(DiffError) as caught:
        diff_files(tmp_path, tmp_path / "f")
    assert caught.value.code == "not_a_file"


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    (tmp_path / "f").write_bytes(b"x\n")
    outcome: list[BaseException] = []

    def run() -> None:
        try:
            diff_files(tmp_path / "f", fifo)
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive()
    assert isinstance(outcome[0], DiffError) and outcome[0].code == "not_a_file"


def test_a_missing_file_raises_its_oserror(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"x\n")
    with pytest.raises(FileNotFoundError):
        diff_files(tmp_path / "f", tmp_path / "missing")


def test_buffers_take_a_map_and_bytes_together(tmp_path: Path) -> None:
    a, _ = _write(tmp_path, b"a\nb\nc\n", b"")
    with a.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
        payload = diff_buffers(data, b"a\nB\nc\n", path="f")
    assert payload == diff_texts(b"a\nb\nc\n", b"a\nB\nc\n", path="f", include_texts=False)


def test_the_maps_close_when_the_engine_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine's view of a map ends with the diff, even one that raised: the error is the
    engine's own, and a caller's map closes after (a live view makes close raise BufferError)."""

    def fail(*_: object, **__: object) -> None:
        raise RuntimeError("stopped")

    monkeypatch.setattr(line_diff_module, "line_changes", fail)
    a, b = _write(tmp_path, b"a\nb\nc\n", b"a\nB\nc\n")
    with pytest.raises(RuntimeError, match="stopped"):
        diff_files(a, b)
    with a.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
        with pytest.raises(RuntimeError, match="stopped"):
            diff_buffers(data, data, path="f")
        data.close()
