"""Changes made outside the tools, reported like the tools' own: stream events with diff artifacts.

`ExternalWatcher` runs a `sandbox._watch.Watcher` and turns each `FileChange` into a `StreamEvent`
named `external`. When the old content is known (a baseline), the artifact is a full file-granularity
diff; a new file is a `create`, a removed one a `delete`, a rename a `rename` with `old_path`. The
title starts with `external:` so no host mistakes it for a tool's change. When one side's content
was not kept (over the size cap, a file changed that nobody had seen, or one a whole-tree watch
knew only by its stat so far), the event carries a text artifact saying so instead of a diff that
would claim wrong counts.

Linked to a session's workspace, the files the session read or wrote serve as baselines, and the
session's own writes are not reported: a change whose new content is what the session last wrote
or read is not news to it. Staleness needs nothing from here: the tools compare content hashes
before every write, so a file changed outside fails the next edit with `stale_read` and its diff.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import queue
from collections.abc import Callable
from types import TracebackType

from edittools.artifacts import DiffArtifact, StreamEvent, TextArtifact, TextPayload
from edittools.artifacts.builders import diff_title
from edittools.diff import diff_texts, unified_excerpt
from edittools.state._workspace import Workspace
from sandbox import Baseline, BlobStore, FileChange, Sandbox, SandboxError, Watcher

__all__ = ["EVENT_NAME", "ExternalWatcher", "external_event"]

EVENT_NAME = "external"
_VERBS = {"created": "created", "modified": "changed", "deleted": "deleted", "moved": "renamed"}
_IDS = itertools.count(1)


def external_event(
    change: FileChange,
    store: BlobStore,
    *,
    event_id: str | None = None,
    inline_bytes: int = 2 << 20,
) -> StreamEvent:
    """The stream event of one external change, with a diff artifact when both sides are known.

    Full texts go inline up to `inline_bytes` each; larger ones are left out (`truncated`) and
    referenced by blob id.
    """
    event_id = event_id or f"{EVENT_NAME}-{os.getpid()}-{next(_IDS)}"
    old = _content(store, change.old) if change.kind != "created" else None
    new = _content(store, change.new) if change.kind != "deleted" else None
    verb = _VERBS[change.kind]
    where = change.path if change.old_path is None else f"{change.path} (from {change.old_path})"
    if (change.kind != "created" and old is None) or (change.kind != "deleted" and new is None):
        text = (
            f"{where} was {verb} outside the tools. Its earlier or new content was not kept (no "
            "baseline, not read yet, or over the size cap), so there is no diff; read the file "
            "to see it."
        )
        title = f"{EVENT_NAME}: {change.path} {verb}"
        notice = TextArtifact(icon="file-diff", title=title, payload=TextPayload(text=text))
        return StreamEvent(id=event_id, name=EVENT_NAME, value=text, artifact=notice)
    small = all(len(side) <= inline_bytes for side in (old, new) if side is not None)
    payload = diff_texts(old, new, path=change.path, old_path=change.old_path, include_texts=small)
    if not small and not payload.binary:
        payload = payload.model_copy(
            update={
                "truncated": True,
                "old_ref": change.old.blob_id if change.old else None,
                "new_ref": change.new.blob_id if change.new else None,
            }
        )
    shown = unified_excerpt(payload.unified)
    value = (
        f"{where} was {verb} outside the tools "
        f"(+{payload.stats.added} -{payload.stats.removed}).\n{shown}"
    )
    artifact = DiffArtifact(
        icon="file-diff", title=f"{EVENT_NAME}: {diff_title(payload)}", payload=payload
    )
    return StreamEvent(id=event_id, name=EVENT_NAME, value=value, artifact=artifact)


def _content(store: BlobStore, baseline: Baseline | None) -> bytes | None:
    if baseline is None or baseline.blob_id is None:
        return None
    try:
        return store.get(baseline.blob_id)
    except SandboxError:
        return None


class ExternalWatcher:
    """Watch a sandbox and report changes made outside the tools as `external` stream events.

    Events go to `on_event` (called on the watcher's thread) or, without it, to a queue read with
    `get`. With a `workspace`, the session's read and written files are baselines, its own writes
    are not reported, and with `journal` the events are appended to the session journal. The
    other keywords tune the underlying `Watcher`.
    """

    def __init__(
        self,
        sandbox: Sandbox,
        *,
        workspace: Workspace | None = None,
        on_event: Callable[[StreamEvent], None] | None = None,
        journal: bool = False,
        track_all: bool = False,
        max_baseline_bytes: int = 1 << 20,
        quiet: float = 0.1,
        new_file_quiet: float = 0.5,
        max_delay: float = 2.0,
    ) -> None:
        self.sandbox = sandbox
        self.workspace = workspace
        self._on_event = on_event
        self._journal = journal
        self._events: queue.Queue[StreamEvent] = queue.Queue()
        self.watcher = Watcher(
            sandbox,
            track_all=track_all,
            max_baseline_bytes=max_baseline_bytes,
            quiet=quiet,
            new_file_quiet=new_file_quiet,
            max_delay=max_delay,
            on_change=self._on_change,
            baseline_of=self._seen if workspace is not None else None,
        )

    def start(self) -> ExternalWatcher:
        """Start watching; returns self."""
        self.watcher.start()
        return self

    def stop(self) -> None:
        """Stop watching and join the watcher's threads; pending changes are still reported."""
        self.watcher.stop()

    def get(self, timeout: float | None = None) -> StreamEvent | None:
        """The next event (when no `on_event` was given), or None after `timeout` seconds."""
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def __enter__(self) -> ExternalWatcher:
        return self if self.watcher.started else self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _seen(self, path: str) -> Baseline | None:
        assert self.workspace is not None
        return self.workspace.seen(path)

    def _own(self, change: FileChange) -> bool:
        """Whether the session itself left the file this way (its write, edit, patch or undo).

        The tools hold a file's lock from their write until their read record is updated, so
        taking the lock first means a change is never judged against a record about to change.
        """
        ws = self.workspace
        if ws is None:
            return False
        with contextlib.ExitStack() as locks:
            for path in sorted({change.path, change.old_path or change.path}):
                # A path whose folder is gone cannot be locked, and no tool is writing there.
                with contextlib.suppress(SandboxError):
                    locks.enter_context(self.sandbox.lock(path))
            return self._left_by_session(ws, change)

    def _left_by_session(self, ws: Workspace, change: FileChange) -> bool:
        if change.new is not None:
            record = ws.seen(change.path)
            if record is None or record.digest != change.new.digest:
                return False
            return change.old_path is None or self._own_delete(ws, change.old_path, change.old)
        return self._own_delete(ws, change.path, change.old)

    @staticmethod
    def _own_delete(ws: Workspace, path: str, old: Baseline | None) -> bool:
        last = ws.last_change(path)
        if ws.seen(path) is not None or last is None or last.after_digest is not None:
            return False
        return old is None or old.blob_id is None or last.before_blob == old.blob_id

    def _on_change(self, change: FileChange) -> None:
        if self._own(change):
            return
        inline = self.workspace.options.inline_text_bytes if self.workspace else 2 << 20
        event = external_event(change, self.sandbox.store, inline_bytes=inline)
        if self._journal and self.workspace is not None:
            self.workspace.journal(event)
        if self._on_event is None:
            self._events.put(event)
        else:
            self._on_event(event)
