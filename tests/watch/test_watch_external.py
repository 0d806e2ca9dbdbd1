"""External changes reach a session as `external` stream events; child processes make the changes."""

from __future__ import annotations

import itertools
import json
import os
import pathlib
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from watch_helpers import collect, drain, numstat, run_child

from edittools import Session, StreamEvent
from edittools.artifacts import DiffArtifact, TextArtifact
from edittools.state._external import ExternalWatcher, external_event
from sandbox import Sandbox
from sandbox._watch import Baseline, FileChange

REPO = pathlib.Path(__file__).parents[2]
FIVE = "".join(f"line {i}\n" for i in range(1, 6))


@pytest.fixture
def root(tmp_path: pathlib.Path) -> pathlib.Path:
    path = tmp_path / "root"
    path.mkdir()
    for name in ("rewrite.txt", "append.txt", "saved.txt", "doomed.txt", "moving.txt"):
        (path / name).write_text(FIVE)
    return path


@pytest.fixture
def watching(session: Session) -> Iterator[ExternalWatcher]:
    with ExternalWatcher(session.sandbox, workspace=session.workspace, quiet=0.05) as watcher:
        yield watcher


def diff_of(event: StreamEvent) -> DiffArtifact:
    assert isinstance(event.artifact, DiffArtifact), event
    return event.artifact


def by_path(events: list[StreamEvent]) -> dict[str, StreamEvent]:
    return {diff_of(e).payload.path: e for e in events}


def wait_for(watcher: ExternalWatcher, *paths: str) -> list[StreamEvent]:
    def arrived(got: list[StreamEvent]) -> bool:
        return set(paths) <= {diff_of(e).payload.path for e in got}

    events = collect(watcher.get, arrived)
    assert arrived(events), f"expected changes of {paths}, got {[e.artifact for e in events]}"
    return events


@pytest.mark.integration
def test_changes_by_a_child_process_arrive_with_the_right_counts(
    session: Session, watching: ExternalWatcher, root: pathlib.Path, tmp_path: pathlib.Path
) -> None:
    for name in ("rewrite.txt", "append.txt", "saved.txt", "doomed.txt"):
        assert not session.read(name).is_error
    run_child(
        "import os, time\n"
        "open('rewrite.txt', 'w').write('line 1\\nTWO\\nline 3\\nFOUR\\nline 5\\n')\n"
        "open('append.txt', 'a').write('line 6\\nline 7\\n')\n"
        "open('.saved.txt.tmp', 'w').write('line 1\\nline 2\\nline 5\\n')\n"
        "time.sleep(0.02)\n"
        "os.replace('.saved.txt.tmp', 'saved.txt')\n"
        "os.remove('doomed.txt')\n",
        root,
    )
    names = ("rewrite.txt", "append.txt", "saved.txt", "doomed.txt")
    events = by_path(wait_for(watching, *names))
    assert set(events) == set(names)  # nothing for the editor's temp file
    expected = {
        "rewrite.txt": ("modify", 2, 2),
        "append.txt": ("modify", 2, 0),
        "saved.txt": ("modify", 0, 2),
        "doomed.txt": ("delete", 0, 5),
    }
    for name, (operation, added, removed) in expected.items():
        event = events[name]
        payload = diff_of(event).payload
        assert event.name == "external" and not event.is_error
        assert (payload.operation, payload.stats.added, payload.stats.removed) == (
            operation,
            added,
            removed,
        )
        assert payload.granularity == "file"
        assert diff_of(event).title == f"external: {name} +{added} -{removed}"
        new = (root / name).read_bytes() if operation != "delete" else b""
        assert numstat(FIVE.encode(), new, tmp_path / "git" / name) == (added, removed)
        assert payload.old == FIVE
        assert f"+{added} -{removed}" in event.value and "outside the tools" in event.value


@pytest.mark.integration
def test_the_unified_diff_of_an_external_change_applies_with_git(
    session: Session, watching: ExternalWatcher, root: pathlib.Path, tmp_path: pathlib.Path
) -> None:
    session.read("rewrite.txt")
    run_child("open('rewrite.txt', 'w').write('head\\nline 2\\nline 3\\nline 5\\ntail')\n", root)
    (event,) = wait_for(watching, "rewrite.txt")
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "rewrite.txt").write_text(FIVE)
    subprocess.run(["git", "init", "-q"], cwd=copy, check=True)
    subprocess.run(
        ["git", "apply", "-"], cwd=copy, input=diff_of(event).payload.unified.encode(), check=True
    )
    assert (copy / "rewrite.txt").read_bytes() == (root / "rewrite.txt").read_bytes()


@pytest.mark.integration
def test_rename_and_create_by_a_child_process(
    session: Session, watching: ExternalWatcher, root: pathlib.Path
) -> None:
    session.read("moving.txt")
    run_child(
        "import os\nos.rename('moving.txt', 'moved.txt')\nopen('fresh.txt', 'w').write('a\\nb\\n')\n",
        root,
    )
    events = by_path(wait_for(watching, "moved.txt", "fresh.txt"))
    moved = diff_of(events["moved.txt"]).payload
    assert (moved.operation, moved.old_path, moved.stats.added, moved.stats.removed) == (
        "rename",
        "moving.txt",
        0,
        0,
    )
    fresh = diff_of(events["fresh.txt"]).payload
    assert (fresh.operation, fresh.stats.added, fresh.new) == ("create", 2, "a\nb\n")
    assert diff_of(events["fresh.txt"]).title == "external: fresh.txt +2 -0"


@pytest.mark.integration
@pytest.mark.parametrize("track_all", [False, True])
def test_the_sessions_own_changes_are_not_reported(
    session: Session, root: pathlib.Path, track_all: bool
) -> None:
    # With track_all the watcher holds its own baselines, so only the own-write check keeps the
    # session's changes out; without it the session's read records are the baselines.
    watching = ExternalWatcher(
        session.sandbox, workspace=session.workspace, quiet=0.05, track_all=track_all
    ).start()
    try:
        _make_own_changes_then_one_outside(session, watching, root)
    finally:
        watching.stop()


def _make_own_changes_then_one_outside(
    session: Session, watching: ExternalWatcher, root: pathlib.Path
) -> None:
    assert not session.read("saved.txt").is_error
    run_child("open('saved.txt', 'a').write('outside first\\n')\n", root)
    wait_for(watching, "saved.txt")
    assert not session.read("saved.txt").is_error
    assert not session.edit("saved.txt", "outside first", "inside next").is_error
    assert not session.read("rewrite.txt").is_error
    assert not session.edit("rewrite.txt", "line 2", "line two").is_error
    assert not session.write("new.txt", "made by the session\n").is_error
    assert not session.read("append.txt").is_error
    assert not session.write("append.txt", "replaced by the session\n").is_error
    assert not session.undo("append.txt").is_error
    assert not session.apply_patch(
        "*** Begin Patch\n*** Delete File: doomed.txt\n*** End Patch\n"
    ).is_error
    run_child("open('marker.txt', 'w').write('outside\\n')\n", root)
    events = wait_for(watching, "marker.txt")
    watching.stop()
    events += drain(watching.get)
    assert [diff_of(e).payload.path for e in events] == ["marker.txt"]


@pytest.mark.integration
def test_an_own_write_is_not_judged_before_the_tool_records_it(
    session: Session, watching: ExternalWatcher, root: pathlib.Path
) -> None:
    # A tool holds the file's lock from its write until its read record is updated; the watcher
    # settles the change in that window and must wait for the lock instead of reporting it.
    session.read("rewrite.txt")
    new = b"written by a slow tool\n"
    with session.sandbox.lock("rewrite.txt"):
        version = session.sandbox.write_bytes("rewrite.txt", new)
        assert watching.get(timeout=0.5) is None
        session.workspace.note_seen("rewrite.txt", new, version)
    run_child("open('marker.txt', 'w').write('outside\\n')\n", root)
    events = wait_for(watching, "marker.txt")
    watching.stop()
    events += drain(watching.get)
    assert [diff_of(e).payload.path for e in events] == ["marker.txt"]


@pytest.mark.integration
def test_a_burst_of_100_writes_coalesces_and_the_last_diff_is_right(
    session: Session, watching: ExternalWatcher, root: pathlib.Path, tmp_path: pathlib.Path
) -> None:
    session.read("rewrite.txt")
    final = "".join(f"line {i}\n" for i in range(1, 5)) + "line 99\n"
    run_child(
        "import time\n"
        "for i in range(100):\n"
        "    open('rewrite.txt', 'w').write("
        "''.join(f'line {n}\\n' for n in range(1, 5)) + f'line {i}\\n')\n"
        "    time.sleep(0.003)\n",
        root,
    )
    events = collect(watching.get, lambda got: bool(got) and diff_of(got[-1]).payload.new == final)
    assert events and diff_of(events[-1]).payload.new == final
    assert 1 <= len(events) <= 10, f"{len(events)} events for one burst"
    payloads = [diff_of(e).payload for e in events]
    assert payloads[0].old == FIVE
    for earlier, later in itertools.pairwise(payloads):
        assert earlier.new == later.old
    last = payloads[-1]
    assert last.old is not None and last.new is not None
    counts = numstat(last.old.encode(), last.new.encode(), tmp_path / "git")
    assert (last.stats.added, last.stats.removed) == counts


@pytest.mark.integration
def test_a_read_file_changed_outside_is_merged_into_the_next_edit_which_shows_it(
    session: Session, watching: ExternalWatcher, root: pathlib.Path
) -> None:
    session.read("rewrite.txt")
    run_child("open('rewrite.txt', 'a').write('added outside\\n')\n", root)
    wait_for(watching, "rewrite.txt")
    result = session.edit("rewrite.txt", "line 1", "line one")
    assert not result.is_error, result.value
    assert "changed outside the tools since this session read it" in result.value
    assert "+added outside" in result.value
    expected = FIVE.replace("line 1", "line one") + "added outside\n"
    assert (root / "rewrite.txt").read_text() == expected
    # Beside it, the next change is refused with the diff.
    run_child("open('rewrite.txt', 'a').write('more outside\\n')\n", root)
    result = session.edit("rewrite.txt", "added outside\n", "")
    assert result.is_error and "+more outside" in result.value


@pytest.mark.integration
def test_session_watch_journals_events_when_asked(session: Session, root: pathlib.Path) -> None:
    session.read("append.txt")
    with session.watch(journal=True, quiet=0.05) as watcher:
        assert watcher.workspace is session.workspace
        run_child("open('append.txt', 'a').write('more\\n')\n", root)
        (event,) = wait_for(watcher, "append.txt")
    journaled = [e for e in session.journal() if e.name == "external"]
    assert [e.id for e in journaled] == [event.id]


def test_a_change_without_both_sides_is_text_not_a_wrong_diff(tmp_path: pathlib.Path) -> None:
    with Sandbox(tmp_path) as sb:
        new = Baseline("0" * 64, sb.store.put(b"x\n"))
        event = external_event(FileChange("modified", "a.txt", None, new), sb.store)
        assert isinstance(event.artifact, TextArtifact)
        assert event.artifact.title == "external: a.txt changed"
        assert "no diff" in event.value
        gone = external_event(FileChange("deleted", "b.txt", None, None), sb.store)
        assert isinstance(gone.artifact, TextArtifact)


def test_large_texts_are_left_out_and_referenced_by_blob(tmp_path: pathlib.Path) -> None:
    with Sandbox(tmp_path) as sb:
        old_bytes, new_bytes = b"a\n" * 100, b"a\n" * 99 + b"b\n"
        old = Baseline("1" * 64, sb.store.put(old_bytes))
        new = Baseline("2" * 64, sb.store.put(new_bytes))
        event = external_event(FileChange("modified", "a.txt", old, new), sb.store, inline_bytes=64)
        payload = diff_of(event).payload
        assert payload.old is None and payload.new is None and payload.truncated
        assert (payload.old_ref, payload.new_ref) == (old.blob_id, new.blob_id)
        assert (payload.stats.added, payload.stats.removed) == (1, 1)


def _read_line(proc: subprocess.Popen[bytes], stream: str, timeout: float) -> bytes:
    pipe = proc.stdout if stream == "stdout" else proc.stderr
    assert pipe is not None
    with selectors.DefaultSelector() as sel:
        sel.register(pipe, selectors.EVENT_READ)
        line = b""
        deadline = time.monotonic() + timeout
        while not line.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not sel.select(remaining):
                break
            chunk = os.read(pipe.fileno(), 1)
            if not chunk:
                break
            line += chunk
        return line


@pytest.mark.integration
@pytest.mark.parametrize("as_json", [True, False])
def test_watch_command_prints_changes_until_ctrl_c(root: pathlib.Path, as_json: bool) -> None:
    argv = [sys.executable, "-m", "edittools.cli", "watch", "--root", str(root)]
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1", "COLUMNS": "100"}
    proc = subprocess.Popen(
        argv + (["--json"] if as_json else []),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        ready = _read_line(proc, "stderr", 30)
        assert b"Watching" in ready, ready
        run_child("open('append.txt', 'a').write('line 6\\n')\n", root)
        line = _read_line(proc, "stdout", 15)
        if as_json:
            event = json.loads(line)
            assert event["name"] == "external"
            assert event["artifact"]["title"] == "external: append.txt +1 -0"
            assert event["artifact"]["payload"]["stats"] == {"added": 1, "removed": 0}
        else:
            assert line.strip(), "the rich view printed nothing"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=15) in (0, 130)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
