"""What the tools share: the sandbox, what was read when, the undo history and the journal.

The workspace holds state and knows no tools. Read records and the undo history live in memory; the
history and the journal are also appended to JSONL files in the sandbox's state folder, so a later
session can preview, replay and undo what an earlier one did.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from edittools._errors import ToolError
from edittools._options import SessionOptions
from edittools.artifacts import StreamEvent
from sandbox import Sandbox, SandboxError, Version

JOURNAL_FILE = "journal.jsonl"
HISTORY_FILE = "history.jsonl"
_REF = re.compile(r"[0-9a-f]{64}")
"""What a blob id looks like; anything else is refused before the store sees it."""


@dataclass(frozen=True)
class ReadRecord:
    """The content of a file when this session last saw it (read it, or wrote it)."""

    sha256: str
    blob_id: str | None


@dataclass(frozen=True)
class Change:
    """One change this session made to a file: the bytes before (by blob id; None = did not exist)
    and the content hash after (None = deleted)."""

    path: str
    before_blob: str | None
    after_sha256: str | None


class Workspace:
    """State shared by the tools of one session over one sandbox."""

    def __init__(self, sandbox: Sandbox, options: SessionOptions) -> None:
        self.sandbox = sandbox
        self.options = options
        self._reads: dict[str, ReadRecord] = {}
        # The ids of the last contents kept, by object identity: one call stores a content once
        # (undo history, read record, the artifact's ref) and hashes it once. Holding the bytes
        # keeps their identities from being reused; bytes are immutable, so an id stays right.
        self._kept: dict[int, tuple[bytes, str]] = {}
        self._history: dict[str, list[Change]] = {}
        self._event_counter = 0
        # Several sessions (in one process or many) append to one journal: ids must not collide.
        self._session_token = secrets.token_hex(4)
        self.dry_run = False
        """While true, tools compute their changes and diffs but write nothing."""
        self._load_history()

    # --- reads ----------------------------------------------------------------------------

    def keep(self, data: bytes) -> str | None:
        """Store `data` in the blob store and return its id; None when over `baseline_bytes`."""
        if len(data) > self.options.baseline_bytes:
            return None
        kept = self._kept.get(id(data))
        if kept is not None and kept[0] is data:
            return kept[1]
        blob_id = self.sandbox.store.put(data)
        if len(self._kept) >= 4:
            self._kept.pop(next(iter(self._kept)))
        self._kept[id(data)] = (data, blob_id)
        return blob_id

    def note_seen(self, path: str, data: bytes, version: Version) -> ReadRecord:
        """Remember that the session knows `path` as `data` (after a read, write or edit)."""
        blob_id = self.keep(data)
        record = ReadRecord(sha256=version.sha256, blob_id=blob_id)
        self._reads[path] = record
        return record

    def forget(self, path: str) -> None:
        """Drop what the session knew of `path` (after a delete)."""
        self._reads.pop(path, None)

    def remember(self, path: str, record: ReadRecord | None) -> None:
        """Put back an earlier read record (None forgets), e.g. when a change is rolled back."""
        if record is None:
            self._reads.pop(path, None)
        else:
            self._reads[path] = record

    def seen(self, path: str) -> ReadRecord | None:
        """The record of the last read or write of `path`, if any."""
        return self._reads.get(path)

    def seen_bytes(self, record: ReadRecord) -> bytes | None:
        """The content a read record refers to, when it was kept."""
        if record.blob_id is None or not self.sandbox.store.has(record.blob_id):
            return None
        return self.sandbox.store.get(record.blob_id)

    def blob(self, ref: str) -> bytes:
        """The stored content with id `ref`, checked against it; see `Session.blob`."""
        if not isinstance(ref, str) or not _REF.fullmatch(ref) or not self.sandbox.store.has(ref):
            raise ToolError(
                "unknown_ref",
                f"No stored content has the id {str(ref)[:80]!r}. Ids come from results "
                "(old_ref, new_ref, image attachments) of tools run on this root.",
                {"ref": str(ref)[:80]},
            )
        try:
            data = self.sandbox.store.get(ref)
        except SandboxError as exc:
            raise ToolError.from_sandbox(exc) from exc
        if len(data) > self.options.max_file_bytes:
            raise ToolError(
                "too_large",
                f"The content {ref} is {len(data)} bytes, over the cap of "
                f"{self.options.max_file_bytes}.",
                {"ref": ref, "bytes": len(data)},
            )
        return data

    # --- undo history ---------------------------------------------------------------------

    def record_change(self, path: str, before: bytes | None, after: Version | None) -> Change:
        """Push a change of `path` onto its undo stack, keeping the old bytes in the blob store."""
        before_blob = None
        if before is not None:
            before_blob = self.keep(before) or self.sandbox.store.put(before)
        change = Change(path, before_blob, None if after is None else after.sha256)
        self._history.setdefault(path, []).append(change)
        self._append(HISTORY_FILE, {"op": "change", **change.__dict__})
        return change

    def last_change(self, path: str) -> Change | None:
        """The most recent change of `path` not yet undone."""
        stack = self._history.get(path)
        return stack[-1] if stack else None

    def pop_change(self, path: str) -> None:
        """Mark the most recent change of `path` as undone."""
        self._history[path].pop()
        self._append(HISTORY_FILE, {"op": "undo", "path": path})

    def _load_history(self) -> None:
        for entry in self._read_jsonl(HISTORY_FILE):
            path = entry.get("path")
            if not isinstance(path, str):
                continue
            if entry.get("op") == "change":
                change = Change(path, entry.get("before_blob"), entry.get("after_sha256"))
                self._history.setdefault(path, []).append(change)
            elif entry.get("op") == "undo" and self._history.get(path):
                self._history[path].pop()

    # --- journal --------------------------------------------------------------------------

    def next_event_id(self, name: str) -> str:
        """A fresh id for a stream event of this session."""
        self._event_counter += 1
        return f"{name}-{self._session_token}-{self._event_counter}"

    def journal(self, event: StreamEvent) -> None:
        """Append a tool result to the session journal as a stream event."""
        if self.options.journal:
            self._append(JOURNAL_FILE, event.model_dump(mode="json", by_alias=True))

    def journal_events(self) -> list[StreamEvent]:
        """Every stream event journaled in this sandbox, oldest first; unreadable lines skipped."""
        events = []
        for entry in self._read_jsonl(JOURNAL_FILE):
            try:
                events.append(StreamEvent.model_validate(entry))
            except ValueError:
                continue
        return events

    @property
    def journal_path(self) -> Path:
        """Where the journal lives."""
        return self.sandbox.log_path(JOURNAL_FILE)

    # --- state files ----------------------------------------------------------------------

    def _append(self, name: str, entry: dict[str, Any]) -> None:
        line = json.dumps(entry, ensure_ascii=False) + "\n"
        self.sandbox.append_log(name, line.encode("utf-8", "surrogateescape"))

    def _read_jsonl(self, name: str) -> Iterator[dict[str, Any]]:
        text = self.sandbox.read_log(name).decode("utf-8", "replace")
        for line in text.splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict):
                yield entry
