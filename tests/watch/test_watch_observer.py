"""The sandbox watcher on a real directory: change records, coalescing, ignored paths, baselines."""

from __future__ import annotations

import itertools
import os
import pathlib
import threading
from collections.abc import Callable, Iterator

import pytest
from watch_helpers import collect, drain, run_child

from sandbox import Sandbox, SandboxError
from sandbox._watch import Baseline, FileChange, Watcher


@pytest.fixture
def root(tmp_path: pathlib.Path) -> pathlib.Path:
    path = tmp_path / "root"
    path.mkdir()
    (path / "a.txt").write_text("one\ntwo\nthree\n")
    (path / "sub").mkdir()
    (path / "sub" / "b.txt").write_text("bee\n")
    return path


@pytest.fixture
def sb(root: pathlib.Path) -> Iterator[Sandbox]:
    with Sandbox(root, deny=["*.log", "build/"]) as box:
        yield box


@pytest.fixture
def started(sb: Sandbox) -> Iterator[Callable[..., Watcher]]:
    """Start watchers on `sb` (tracking the paths given); every one is stopped at the end."""
    watchers: list[Watcher] = []

    def start(*paths: str, **kwargs: object) -> Watcher:
        watcher = Watcher(sb, quiet=0.05, **kwargs)  # type: ignore[arg-type]
        watchers.append(watcher)
        watcher.start()
        for path in paths:
            watcher.track(path)
        return watcher

    yield start
    for watcher in watchers:
        watcher.stop()


def wait_for(watcher: Watcher, path: str) -> list[FileChange]:
    changes = collect(watcher.get, lambda got: any(c.path == path for c in got))
    assert any(c.path == path for c in changes), f"no change of {path} arrived: {changes}"
    return changes


def finish(watcher: Watcher, changes: list[FileChange]) -> list[FileChange]:
    """Stop the watcher (which settles what is pending) and return every change it reported."""
    watcher.stop()
    return changes + drain(watcher.get)


def content(sb: Sandbox, baseline: Baseline | None) -> bytes | None:
    assert baseline is not None and baseline.blob_id is not None
    return sb.store.get(baseline.blob_id)


def test_append_to_a_tracked_file_is_one_modified_with_both_contents(
    sb: Sandbox, root: pathlib.Path, started: Callable[..., Watcher]
) -> None:
    watcher = started("a.txt")
    with open(root / "a.txt", "a") as fh:
        fh.write("four\n")
    changes = finish(watcher, wait_for(watcher, "a.txt"))
    assert [(c.kind, c.path) for c in changes] == [("modified", "a.txt")]
    assert content(sb, changes[0].old) == b"one\ntwo\nthree\n"
    assert content(sb, changes[0].new) == b"one\ntwo\nthree\nfour\n"


def test_atomic_save_is_one_modified_not_create_move_delete(
    sb: Sandbox, root: pathlib.Path, started: Callable[..., Watcher]
) -> None:
    watcher = started("a.txt")
    # An editor's save: write a temp file, take a moment, rename it over the file.
    run_child(
        "import os, time\n"
        "open('.a.txt.swp', 'w').write('one\\n2\\nthree\\n')\n"
        "time.sleep(0.02)\n"
        "os.replace('.a.txt.swp', 'a.txt')\n",
        root,
    )
    changes = finish(watcher, wait_for(watcher, "a.txt"))
    assert [(c.kind, c.path, c.old_path) for c in changes] == [("modified", "a.txt", None)]
    assert content(sb, changes[0].new) == b"one\n2\nthree\n"


def test_rename_of_a_tracked_file_is_moved_with_old_path(
    sb: Sandbox, root: pathlib.Path, started: Callable[..., Watcher]
) -> None:
    watcher = started("sub/b.txt")
    os.rename(root / "sub" / "b.txt", root / "c.txt")
    changes = finish(watcher, wait_for(watcher, "c.txt"))
    assert [(c.kind, c.path, c.old_path) for c in changes] == [("moved", "c.txt", "sub/b.txt")]
    assert content(sb, changes[0].old) == content(sb, changes[0].new) == b"bee\n"
    assert watcher.baseline("sub/b.txt") is None
    assert watcher.baseline("c.txt") == changes[0].new


def test_delete_of_a_tracked_file_carries_its_last_content(
    sb: Sandbox, root: pathlib.Path, started: Callable[..., Watcher]
) -> None:
    watcher = started("a.txt")
    (root / "a.txt").unlink()
    changes = finish(watcher, wait_for(watcher, "a.txt"))
    assert [(c.kind, c.new) for c in changes] == [("deleted", None)]
    assert content(sb, changes[0].old) == b"one\ntwo\nthree\n"


def test_new_file_is_created_and_a_temp_file_that_came_and_went_is_nothing(
    sb: Sandbox, root: pathlib.Path, started: Callable[..., Watcher]
) -> None:
    watcher = started()
    (root / "gone.tmp").write_text("scratch\n")
    (root / "gone.tmp").unlink()
    (root / "sub" / "new.txt").write_text("fresh\n")
    changes = finish(watcher, wait_for(watcher, "sub/new.txt"))
    assert [(c.kind, c.path, c.old) for c in changes] == [("created", "sub/new.txt", None)]
    assert content(sb, changes[0].new) == b"fresh\n"


def test_burst_of_writes_to_one_file_coalesces(
    sb: Sandbox, root: pathlib.Path, started: Callable[..., Watcher]
) -> None:
    watcher = started("a.txt")
    # A formatter-like writer: 100 rewrites a few milliseconds apart, well inside the quiet period
    # (paced in the child, so that without coalescing the watcher would settle many of them).
    run_child(
        "import time\n"
        "for i in range(100):\n"
        "    open('a.txt', 'w').write(f'line {i}\\n')\n"
        "    time.sleep(0.003)\n",
        root,
    )
    changes = collect(
        watcher.get,
        lambda got: bool(got) and content(sb, got[-1].new) == b"line 99\n",
    )
    changes = finish(watcher, changes)
    assert 1 <= len(changes) <= 5
    assert content(sb, changes[-1].new) == b"line 99\n"
    assert content(sb, changes[0].old) == b"one\ntwo\nthree\n"
    for earlier, later in itertools.pairwise(changes):
        assert earlier.new == later.old


def test_denied_paths_and_the_state_folder_are_ignored(
    sb: Sandbox, root: pathlib.Path, started: Callable[..., Watcher]
) -> None:
    watcher = started("a.txt")
    (root / "x.log").write_text("noise\n")
    (root / "build").mkdir()
    (root / "build" / "out.txt").write_text("artefact\n")
    sb.store.put(b"a blob in the state folder\n")
    (root / "marker.txt").write_text("done\n")
    changes = finish(watcher, wait_for(watcher, "marker.txt"))
    assert [c.path for c in changes] == ["marker.txt"]


def test_folder_moved_out_of_the_tree_deletes_its_tracked_files(
    sb: Sandbox, root: pathlib.Path, tmp_path: pathlib.Path, started: Callable[..., Watcher]
) -> None:
    watcher = started("sub/b.txt")
    os.rename(root / "sub", tmp_path / "elsewhere")
    changes = finish(watcher, wait_for(watcher, "sub/b.txt"))
    assert [(c.kind, c.path) for c in changes] == [("deleted", "sub/b.txt")]


def test_track_all_keeps_the_content_of_text_files_only(
    sb: Sandbox, root: pathlib.Path, started: Callable[..., Watcher]
) -> None:
    (root / "image.bin").write_bytes(b"\x89PNG\x00\x01\x02")
    (root / "big.txt").write_text("x" * 100 + "\n")
    (root / "x.log").write_text("denied\n")
    watcher = started(track_all=True, max_baseline_bytes=64)
    try:
        assert watcher.warmed(timeout=30)
        assert content(sb, watcher.baseline("a.txt")) == b"one\ntwo\nthree\n"
        assert content(sb, watcher.baseline("sub/b.txt")) == b"bee\n"
        image = watcher.baseline("image.bin")  # binary: known by its stat, never read into a blob
        assert image is not None and not image.content_known and image.blob_id is None
        assert watcher.baseline("x.log") is None
        big = watcher.baseline("big.txt")
        assert big is not None and big.blob_id is None  # over the cap: known by hash alone
    finally:
        watcher.stop()


def test_file_over_the_cap_is_modified_without_contents(
    sb: Sandbox, root: pathlib.Path, started: Callable[..., Watcher]
) -> None:
    (root / "big.txt").write_text("x" * 100 + "\n")
    watcher = started("big.txt", max_baseline_bytes=64)
    (root / "big.txt").write_text("y" * 100 + "\n")
    changes = finish(watcher, wait_for(watcher, "big.txt"))
    assert [c.kind for c in changes] == ["modified"]
    old, new = changes[0].old, changes[0].new
    assert old is not None and new is not None and old.digest != new.digest
    assert old.blob_id is None and new.blob_id is None


def test_baseline_of_supplies_the_old_side_of_an_untracked_file(
    sb: Sandbox, root: pathlib.Path, started: Callable[..., Watcher]
) -> None:
    known = Baseline(sb.read_bytes("a.txt")[1].digest, sb.store.put((root / "a.txt").read_bytes()))
    watcher = started(baseline_of=lambda path: known if path == "a.txt" else None)
    (root / "a.txt").write_text("replaced\n")
    changes = finish(watcher, wait_for(watcher, "a.txt"))
    assert [(c.kind, c.old) for c in changes] == [("modified", known)]


def test_untracked_file_changed_is_modified_with_unknown_old_side(
    sb: Sandbox, root: pathlib.Path, started: Callable[..., Watcher]
) -> None:
    watcher = started()
    with open(root / "a.txt", "a") as fh:
        fh.write("more\n")
    changes = finish(watcher, wait_for(watcher, "a.txt"))
    assert [(c.kind, c.old) for c in changes] == [("modified", None)]
    assert watcher.baseline("a.txt") == changes[0].new


def test_a_failing_callback_does_not_stop_the_worker(
    sb: Sandbox, root: pathlib.Path, started: Callable[..., Watcher]
) -> None:
    seen: list[str] = []
    arrived = {name: threading.Event() for name in ("first.txt", "second.txt")}

    def on_change(change: FileChange) -> None:
        seen.append(change.path)
        arrived[change.path].set()
        if change.path == "first.txt":
            raise RuntimeError("a broken consumer")

    watcher = started(on_change=on_change)
    (root / "first.txt").write_text("1\n")
    assert arrived["first.txt"].wait(15)
    (root / "second.txt").write_text("2\n")
    assert arrived["second.txt"].wait(15)
    watcher.stop()
    assert seen == ["first.txt", "second.txt"]
    assert watcher.get(0) is None  # with a callback nothing is queued


def test_stop_is_idempotent_and_works_before_start(
    sb: Sandbox, started: Callable[..., Watcher]
) -> None:
    Watcher(sb).stop()
    watcher = started()
    with watcher as entered:  # entering a started watcher does not start it again
        assert entered is watcher and watcher.started
    watcher.stop()
    with pytest.raises(RuntimeError):
        watcher.start()


def test_track_refuses_paths_outside_the_root(sb: Sandbox, started: Callable[..., Watcher]) -> None:
    watcher = started()
    try:
        with pytest.raises(SandboxError) as err:
            watcher.track("../outside.txt")
        assert err.value.code == "outside_root"
        assert watcher.track("missing.txt") is None
        assert watcher.track("x.log") is None  # denied: never read
    finally:
        watcher.stop()
