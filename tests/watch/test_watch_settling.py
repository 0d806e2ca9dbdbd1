"""One external change is one event; a watch over a whole tree starts from stat-only baselines."""

from __future__ import annotations

import os
import pathlib
from collections.abc import Iterator

import pytest
from watch_helpers import collect, drain, run_child

from edittools import Session
from edittools.state._external import ExternalWatcher
from sandbox import Sandbox
from sandbox._watch import FileChange, Watcher

pytestmark = pytest.mark.integration

ORIGINAL = b"one\ntwo\nthree\n"
# One change made slowly: the file is truncated, then written in three parts with pauses longer
# than the quiet time between them, then closed. Before, every pause ended a "change".
SLOW_WRITER = """
import time
with open("a.txt", "w") as f:
    f.flush()
    time.sleep(0.4)
    for part in ("ONE\\n", "TWO\\n", "THREE\\n"):
        f.write(part)
        f.flush()
        time.sleep(0.4)
"""


@pytest.fixture
def root(tmp_path: pathlib.Path) -> pathlib.Path:
    path = tmp_path / "root"
    path.mkdir()
    (path / "a.txt").write_bytes(ORIGINAL)
    (path / "image.bin").write_bytes(b"\x89PNG\x00\x01")
    (path / "sub").mkdir()
    for i in range(50):
        (path / "sub" / f"f{i}.txt").write_text(f"file {i}\n")
    return path


@pytest.fixture
def sb(root: pathlib.Path) -> Iterator[Sandbox]:
    with Sandbox(root) as box:
        yield box


def _blob(sb: Sandbox, blob_id: str | None) -> bytes | None:
    return None if blob_id is None else sb.store.get(blob_id)


def test_a_slow_write_by_another_process_is_one_change(sb: Sandbox, root: pathlib.Path) -> None:
    watcher = Watcher(sb, quiet=0.05, new_file_quiet=0.05)
    watcher.start()
    try:
        watcher.track("a.txt")
        run_child(SLOW_WRITER, root)
        changes = collect(watcher.get, lambda got: len(got) >= 1)
    finally:
        watcher.stop()
    changes += drain(watcher.get)
    assert [(c.kind, c.path) for c in changes] == [("modified", "a.txt")]
    old, new = changes[0].old, changes[0].new
    assert old is not None and new is not None
    assert _blob(sb, old.blob_id) == ORIGINAL
    assert _blob(sb, new.blob_id) == b"ONE\nTWO\nTHREE\n"


def test_a_slow_write_is_one_external_event_with_the_whole_diff(root: pathlib.Path) -> None:
    with Session(root) as session:
        assert not session.read("a.txt").is_error
        watching = ExternalWatcher(
            session.sandbox, workspace=session.workspace, quiet=0.05, new_file_quiet=0.05
        ).start()
        try:
            run_child(SLOW_WRITER, root)
            events = collect(watching.get, lambda got: len(got) >= 1)
        finally:
            watching.stop()
        events += drain(watching.get)
    assert len(events) == 1, [e.value for e in events]
    assert events[0].artifact is not None and events[0].artifact.kind == "diff"
    payload = events[0].artifact.payload
    assert (payload.path, payload.stats.added, payload.stats.removed) == ("a.txt", 3, 3)


def test_track_all_starts_with_a_stat_baseline_for_every_file_then_reads_the_text_ones(
    sb: Sandbox,
) -> None:
    watcher = Watcher(sb, quiet=0.05, track_all=True)
    watcher.start()
    try:
        for rel in ("a.txt", "image.bin", *(f"sub/f{i}.txt" for i in range(50))):
            baseline = watcher.baseline(rel)
            assert baseline is not None and baseline.stat is not None, rel
        assert watcher.warmed(timeout=30)
        a = watcher.baseline("a.txt")
        assert a is not None and a.content_known and _blob(sb, a.blob_id) == ORIGINAL
        image = watcher.baseline("image.bin")
        assert image is not None and not image.content_known  # binary: never read into a blob
    finally:
        watcher.stop()


def _settled(watcher: Watcher, path: str) -> list[FileChange]:
    changes = collect(watcher.get, lambda got: any(c.path == path for c in got))
    watcher.stop()
    return changes + drain(watcher.get)


def test_a_change_under_track_all_never_shows_a_wrong_earlier_content(
    sb: Sandbox, root: pathlib.Path
) -> None:
    # Whether or not the background pass read the file before the change, the old side is the
    # true earlier content or unknown, never the new content or a half-read one.
    watcher = Watcher(sb, quiet=0.05, track_all=True)
    watcher.start()
    run_child("open('sub/f7.txt', 'a').write('more\\n')\n", root)
    changes = _settled(watcher, "sub/f7.txt")
    assert [(c.kind, c.path) for c in changes] == [("modified", "sub/f7.txt")]
    old, new = changes[0].old, changes[0].new
    assert new is not None and _blob(sb, new.blob_id) == b"file 7\nmore\n"
    assert old is not None
    assert not old.content_known or _blob(sb, old.blob_id) == b"file 7\n"


def test_a_rename_of_a_file_seen_only_by_stat_is_a_move_with_its_content(
    sb: Sandbox, root: pathlib.Path
) -> None:
    watcher = Watcher(sb, quiet=0.05, track_all=True)
    watcher.start()
    os.rename(root / "sub/f3.txt", root / "sub/renamed.txt")
    changes = _settled(watcher, "sub/renamed.txt")
    assert [(c.kind, c.path, c.old_path) for c in changes] == [
        ("moved", "sub/renamed.txt", "sub/f3.txt")
    ]
    old, new = changes[0].old, changes[0].new
    assert old is not None and new is not None
    assert _blob(sb, old.blob_id) == _blob(sb, new.blob_id) == b"file 3\n"


def test_deleting_an_untouched_binary_file_is_reported(sb: Sandbox, root: pathlib.Path) -> None:
    watcher = Watcher(sb, quiet=0.05, track_all=True)
    watcher.start()
    os.unlink(root / "image.bin")
    changes = _settled(watcher, "image.bin")
    assert [(c.kind, c.path) for c in changes] == [("deleted", "image.bin")]
