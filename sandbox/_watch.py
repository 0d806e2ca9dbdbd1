"""Changes made outside the tools: a watchdog observer, per-file baselines and coalesced change records.

A `Watcher` runs a recursive watchdog observer on the sandbox root and one worker thread. Filesystem
events only say *which* paths to look at. Once a path has been quiet for `quiet` seconds (or at the
latest `max_delay` after its first event) the worker reads it through the sandbox and compares it
with its baseline, the content last seen. So a burst of writes becomes one change, and an editor's
write-temp-then-rename save becomes one `modified` of the file (the temp file has no baseline, so it
never becomes a change of its own). A real rename of a file with a baseline is a `moved`.

Where the observer reports closes (inotify), a file written to is not looked at until the writer
closes it: quiet time alone split one slow write (truncate, pause, write, pause, write) into as many
changes as it had pauses, each showing a half-written file. A writer that keeps the file open and
idle for `max_delay`, or open at all for `max_open_delay`, is looked at anyway.

Baselines are kept for the files registered with `track` (the files a session read or wrote), for
every file a change was seen in, and for what the optional `baseline_of` lookup knows. Their bytes
live in the blob store; a file over the cap is known by its hash alone. With `track_all`, every
file found at start gets a stat-only baseline (size, mtime, inode: one `lstat`, no read), so
starting over 100,000 files costs a walk of the tree rather than a read of it; a background pass
then reads the text files under `max_baseline_bytes` one by one and keeps their content, each
only if its stat is still the one seen at start. A file changed before that pass reached it is
reported with its earlier content unknown (never with a wrong one). The state folder and denied
paths are never looked at.

This module runs the observer and the worker; the baselines and reading them are in `_baselines`,
turning a due batch into changes in `_batch`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING

from ._baselines import Baseline, BaselineTable, look, scan
from ._batch import ChangeKind, FileChange, Pending, changes_of
from ._errors import SandboxError
from ._sandbox import Sandbox

if TYPE_CHECKING:
    from watchdog.events import FileSystemEvent, FileSystemEventHandler
    from watchdog.observers.api import BaseObserver

# watchdog is imported when a watcher starts: every session imports this module, few watch.

__all__ = ["Baseline", "ChangeKind", "FileChange", "Watcher"]

_log = logging.getLogger(__name__)


class Watcher:
    """Observe a sandbox's tree and report coalesced `FileChange`s of files changed on disk.

    Changes go to `on_change` (called on the worker thread) or, without it, to a queue read with
    `get`. A file without a baseline that appears waits `new_file_quiet` (not `quiet`) before it
    is reported, so a temp file that an editor renames over its target a moment later is not
    reported as created. `baseline_of(path)` may supply a baseline for a path the watcher has none for (a
    session's read records). Use as a context manager, or call `start` and `stop`.
    """

    def __init__(
        self,
        sandbox: Sandbox,
        *,
        track_all: bool = False,
        max_baseline_bytes: int = 1024 * 1024,
        quiet: float = 0.1,
        new_file_quiet: float = 0.5,
        max_delay: float = 2.0,
        max_open_delay: float = 30.0,
        on_change: Callable[[FileChange], None] | None = None,
        baseline_of: Callable[[str], Baseline | None] | None = None,
    ) -> None:
        self.sandbox = sandbox
        self.track_all = track_all
        self.max_baseline_bytes = max_baseline_bytes
        self.quiet = quiet
        self.new_file_quiet = max(quiet, new_file_quiet)
        self.max_delay = max_delay
        self.max_open_delay = max(max_delay, max_open_delay)
        self._closes = False  # whether the observer reports closes of written files
        self._warmer: threading.Thread | None = None
        self._on_change = on_change
        self._changes: queue.Queue[FileChange] = queue.Queue()
        self._baselines = BaselineTable(baseline_of)
        self._pending: dict[str, Pending] = {}
        self._cond = threading.Condition()
        self._stopping = False
        self._observer: BaseObserver | None = None
        self._worker: threading.Thread | None = None

    # --- life cycle -----------------------------------------------------------------------

    def start(self) -> Watcher:
        """Start observing; with `track_all`, take stat-only baselines of the files already there.

        Their content is then read in the background (see the module notes).
        """
        if self._worker is not None:
            raise RuntimeError("this watcher was already started")
        self._worker = threading.Thread(target=self._run, name="sandbox-watch", daemon=True)
        self._worker.start()
        # The blob store's folders exist before watching starts: watchdog warns (and, with warnings
        # as errors, its emitter thread dies) when a folder and its subfolder appear in one burst.
        self.sandbox._state.subdir("blobs")
        from watchdog.observers import Observer

        observer = Observer()
        observer.schedule(_forwarder(self), str(self.sandbox.root), recursive=True)
        observer.daemon = True
        try:
            observer.start()
        except OSError as exc:
            self.stop()
            raise SandboxError(
                "io_error",
                f"Cannot watch the sandbox root: {exc}. Raise the inotify watch limit or watch a "
                "smaller tree.",
            ) from exc
        self._observer = observer
        self._closes = _reports_closes(observer)
        if self.track_all:
            self._baselines.add_many(scan(self.sandbox))
            self._warmer = threading.Thread(
                target=self._warm, name="sandbox-watch-baselines", daemon=True
            )
            self._warmer.start()
        return self

    def stop(self) -> None:
        """Stop observing, report what is still pending, and join every thread."""
        observer, self._observer = self._observer, None
        if observer is not None:
            observer.stop()
            observer.join()
            _release_reader(observer)
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        for thread in (self._warmer, self._worker):
            if thread is not None and thread is not threading.current_thread():
                thread.join()

    def warmed(self, timeout: float | None = None) -> bool:
        """Wait until the content of the files found at start was read (`track_all`).

        Returns whether that pass is over (at once True without `track_all`); `timeout` bounds
        the wait. Changes are reported meanwhile, with the earlier content when it was read.
        """
        warmer = self._warmer
        if warmer is None:
            return True
        warmer.join(timeout)
        return not warmer.is_alive()

    @property
    def started(self) -> bool:
        """Whether `start` was called (a stopped watcher stays started: it cannot run again)."""
        return self._worker is not None

    def __enter__(self) -> Watcher:
        return self if self.started else self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # --- baselines ------------------------------------------------------------------------

    def track(self, path: str, *, text_only: bool = False) -> Baseline | None:
        """Register `path`: read it through the sandbox and keep its content as its baseline.

        Returns the baseline, or None when there is no readable regular file (or, with
        `text_only`, when the file is binary). Raises the sandbox's path errors (outside_root, ...).
        """
        rel = self.sandbox.relpath(path)
        current = self._look(rel, text_only=text_only)
        if not isinstance(current, Baseline):
            return None
        self._baselines.set(rel, current)
        return current

    def baseline(self, path: str) -> Baseline | None:
        """The baseline kept for a root-relative path, if any."""
        return self._baselines.get(path)

    def get(self, timeout: float | None = None) -> FileChange | None:
        """The next change (when no `on_change` was given), or None after `timeout` seconds."""
        try:
            return self._changes.get(timeout=timeout)
        except queue.Empty:
            return None

    # --- events (observer thread) ---------------------------------------------------------

    def _on_event(self, event: FileSystemEvent) -> None:
        kind = event.event_type
        if kind in ("opened", "closed_no_write"):
            return
        src = self._rel(event.src_path, directory=event.is_directory)
        dest = self._rel(event.dest_path, directory=event.is_directory) if kind == "moved" else None
        if event.is_directory:
            # Contents moved or deleted without per-file events (moved out of the tree): look again
            # at every tracked file below.
            if kind in ("deleted", "moved") and src is not None:
                self._mark_many(self._baselines.below(src))
            return
        with self._cond:
            now = time.monotonic()
            if kind == "moved":
                if src is not None and dest is not None:
                    self._mark(src, now)
                    self._mark(dest, now, appeared=True).sources.append(src)
                    self._pending[src].links.add(dest)
                    self._pending[dest].links.add(src)
                elif dest is not None:
                    self._mark(dest, now, appeared=True)
                elif src is not None:
                    self._mark(src, now)
            elif src is not None:
                pending = self._mark(src, now, appeared=kind == "created")
                if kind in ("modified", "created"):
                    pending.writing = self._closes
                elif kind in ("closed", "deleted"):
                    pending.writing = False
            self._cond.notify()

    def _mark(self, rel: str, now: float, *, appeared: bool = False) -> Pending:
        pending = self._pending.get(rel)
        if pending is None:
            pending = self._pending[rel] = Pending(first=now, last=now)
        pending.last = now
        if appeared and not pending.appeared:
            pending.appeared = True
            pending.new_file = self._baselines.known(rel) is None
        return pending

    def _mark_many(self, paths: list[str]) -> None:
        with self._cond:
            now = time.monotonic()
            for rel in paths:
                self._mark(rel, now)
            self._cond.notify()

    def _rel(self, raw: bytes | str, *, directory: bool) -> str | None:
        """The root-relative path of an event path, or None when outside or ignored."""
        rel = os.path.relpath(os.fsdecode(raw), self.sandbox.root)
        if rel == "." or rel == ".." or rel.startswith(".." + os.sep):
            return None
        rel = rel.replace(os.sep, "/")
        if self.sandbox.is_denied(rel) or (directory and self.sandbox.is_denied(rel + "/")):
            return None
        return rel

    # --- the worker -----------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._cond:
                batch = self._take_due(force=self._stopping)
                while not batch:
                    if self._stopping:
                        return
                    self._cond.wait(self._wait_time())
                    batch = self._take_due(force=self._stopping)
            try:
                changes = self._changes_of(batch)
            except Exception:  # keep watching: one bad batch must not end the worker
                _log.exception("sandbox watcher: could not settle %s", sorted(batch))
                continue
            for change in changes:
                self._deliver(change)

    def _wait_time(self) -> float | None:
        if not self._pending:
            return None
        now = time.monotonic()
        return max(0.0, min(self._due_at(p) for p in self._pending.values()) - now)

    def _due_at(self, pending: Pending) -> float:
        if pending.writing:  # wait for the writer to close the file (see the module notes)
            return min(pending.last + self.max_delay, pending.first + self.max_open_delay)
        quiet = self.new_file_quiet if pending.new_file else self.quiet
        return min(pending.last + quiet, pending.first + self.max_delay)

    def _take_due(self, *, force: bool) -> dict[str, Pending]:
        """Remove and return the pending paths that are due, with every path linked to them."""
        now = time.monotonic()
        due = [p for p, pend in self._pending.items() if force or self._due_at(pend) <= now]
        batch: dict[str, Pending] = {}
        while due:
            rel = due.pop()
            pending = self._pending.pop(rel, None)
            if pending is None:
                continue
            batch[rel] = pending
            due.extend(pending.links)
        return batch

    def _deliver(self, change: FileChange) -> None:
        if self._on_change is None:
            self._changes.put(change)
            return
        try:
            self._on_change(change)
        except Exception:
            _log.exception("sandbox watcher: on_change failed for %s", change.path)

    def _changes_of(self, batch: dict[str, Pending]) -> list[FileChange]:
        """Look at each path of a batch now and turn the batch into changes."""
        current = {rel: self._look(rel) for rel in batch}
        return changes_of(batch, current, self._baselines)

    def _warm(self) -> None:
        """Read the content of each file that has a stat-only baseline, until stopped."""
        for rel in self._baselines.stat_only():
            if self._stopping:
                return
            seen = self._baselines.get(rel)
            if seen is None or seen.content_known:
                continue
            try:
                current = self._look(rel, text_only=True)
            except Exception:  # keep going: one unreadable file must not end the pass
                _log.exception("sandbox watcher: could not read %s", rel)
                continue
            # Kept only when the file is still the one seen at start: a file changed meanwhile
            # is the worker's to report, against what was known before.
            if isinstance(current, Baseline) and seen.same_file(current):
                self._baselines.replace(rel, seen, current)

    # --- reading through the sandbox ------------------------------------------------------

    def _look(self, rel: str, *, text_only: bool = False) -> object:
        """The current baseline of `rel`, or a `_baselines` sentinel (absent, or skip it)."""
        return look(self.sandbox, rel, max_bytes=self.max_baseline_bytes, text_only=text_only)


def _forwarder(watcher: Watcher) -> FileSystemEventHandler:
    """A watchdog handler that hands every event to `watcher`."""
    from watchdog.events import FileSystemEventHandler

    class Forwarder(FileSystemEventHandler):
        def on_any_event(self, event: FileSystemEvent) -> None:
            watcher._on_event(event)

    return Forwarder()


def _release_reader(observer: BaseObserver) -> None:
    """Close the descriptors of a stopped observer's inotify reader if watchdog left them open.

    watchdog 7's reader starts as if it were reading, so a stop that comes before its thread first
    reads leaves the closing to a read that never happens: its inotify descriptor and a pipe stay
    open (seen: 81 descriptors after 300 watchers started and stopped at once). Once the thread
    has ended, a reader still marked reading and closed holds them; no other code will close them.
    """
    reader = getattr(observer, "_inotify_fd", None)
    lock = getattr(reader, "_lock", None)
    if reader is None or lock is None or reader.is_alive():
        return
    with lock:
        if getattr(reader, "_closed", False) and getattr(reader, "_is_reading", False):
            reader._is_reading = False
            with contextlib.suppress(OSError):
                reader._close_resources()


def _reports_closes(observer: BaseObserver) -> bool:
    """Whether `observer` reports closes of written files (inotify does; elsewhere quiet time
    alone settles a path)."""
    try:
        from watchdog.observers.inotify import InotifyObserver
    except ImportError:  # not Linux
        return False
    return isinstance(observer, InotifyObserver)
