"""What the tools share: the sandbox, what was read when, undo history, checkpoints, the journal.

The workspace holds state and knows no tools. All of it lives in the sandbox's state index (one
SQLite database outside the root, see `sandbox.StateIndex`), so a read in one process counts for an
edit in the next as long as the file's content is unchanged, and a later session can review and
undo what an earlier one did. Rows hold blob ids, digests and small spans, never whole file
contents: the content before a change is a blob (usually the replaced inode itself, linked into the
store), and the content after it is known by its digest plus a recipe — the old blob with one byte
span replaced — from which `content` rebuilds it on demand (for a stale-read diff or a `new_ref`).

A change is committed with `commit`: the files are written all or nothing through the sandbox's
write-ahead intent, and the undo history and read records go into the same transaction, so no
change on disk is unknown to `undo` — not even after a crash.
"""

from __future__ import annotations

import re
import secrets
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from edittools._errors import ToolError
from edittools._options import SessionOptions
from edittools.artifacts import StreamEvent, TextArtifact, TextPayload
from edittools.state._checkpoints import Checkpoints
from edittools.state._contents import KnownContents
from edittools.state._journal import Shown, WindowText, append_event, read_events
from sandbox import (
    Baseline,
    FileWrite,
    Sandbox,
    SandboxError,
    Splice,
    Staged,
    Version,
    digest_of,
)
from sandbox.state import history

_REF = re.compile(r"[0-9a-f]{64}")
"""What a blob id looks like; anything else is refused before the store sees it."""


@dataclass(frozen=True)
class Change:
    """One recorded change of a file: the bytes before (by blob id; None = did not exist) and the
    content digest after (None = deleted)."""

    id: int
    path: str
    before_blob: str | None
    after_digest: str | None


@dataclass(frozen=True)
class Made(Change):
    """A change as its history keeps it: who made it (`actor`, None when unnamed) and when."""

    actor: str | None
    when: float | None


Span = tuple[int, int, bytes]
"""Bytes `before[start:stop]` replaced by the third item."""


class Recipe(NamedTuple):
    """A content kept as its base content with `base[start:stop]` replaced by `middle`, and
    each span of `more` (later in the base, in order) replaced likewise."""

    base: str
    start: int
    stop: int
    middle: bytes
    more: tuple[Span, ...] = ()

    @property
    def spans(self) -> tuple[Span, ...]:
        """Every replaced span, in file order."""
        return ((self.start, self.stop, self.middle), *self.more)


def _go_on() -> None:
    """A call that cannot be cancelled."""


class Workspace:
    """State shared by the tools of one session over one sandbox."""

    def __init__(self, sandbox: Sandbox, options: SessionOptions) -> None:
        self.sandbox = sandbox
        self.options = options
        sandbox.lock_timeout = options.lock_timeout
        self._index = sandbox.index
        self._event_counter = 0
        # Several sessions (in one process or many) append to one journal: ids must not collide.
        self._session_token = secrets.token_hex(4)
        self._report_recoveries()
        self.checkpoints = Checkpoints(
            sandbox,
            self._index,
            keep_bytes=options.baseline_bytes,
            known=self.has_content,
            fetch=self.content,
        )
        """The root's checkpoints (see `edittools.state._checkpoints`)."""
        self.session_checkpoint: int | None = None
        """The checkpoint taken when the session started, the default `since` of a review."""
        self.contents = KnownContents()
        """What the session knows of the large contents it handled lately (see `_contents`)."""

    @property
    def state_path(self) -> Path:
        """Where this root's state lives (outside the root)."""
        return self.sandbox.state_path

    # --- reads ----------------------------------------------------------------------------

    def keep(self, data: bytes) -> str | None:
        """Store `data` in the blob store and return its id; None when over `baseline_bytes`."""
        if len(data) > self.options.baseline_bytes:
            return None
        return self.sandbox.store.put(data)

    def note_seen(
        self,
        path: str,
        data: bytes,
        version: Version,
        *,
        reader: str | None = None,
        name: str | None = None,
    ) -> Baseline:
        """Remember that `path` is known as `data` (after a read, write or edit) by `reader` (an
        agent's name; default: the session's); with `name`, that the read called it so (see
        `led_to`)."""
        record = Baseline(version.digest, self._blob_of(data, version.digest))
        # Not synced (WAL, synchronous=NORMAL): committed, so the next process sees it, but a power
        # cut may take it back to the previous record. That fails safe: a lost record asks for
        # one more read (`not_read`), an older one is refused by its digest (`stale_read`); never
        # a wrong write. A sync per read would cost more than the read.
        self._record(path, record, reader, name)
        return record

    def note_seen_version(
        self, path: str, version: Version, *, reader: str | None = None, name: str | None = None
    ) -> Baseline:
        """Remember that `path` is known by its version alone (a file read in a streamed pass)."""
        record = Baseline(version.digest, None)
        self._record(path, record, reader, name)
        return record

    def _record(self, path: str, record: Baseline, reader: str | None, name: str | None) -> None:
        same = self.seen(path, reader=reader) == record
        named = name is None or self.led_to(name, reader=reader) == path
        if same and named:
            return  # a read of an unchanged file (the usual repeat) opens no write transaction
        assert record.digest is not None  # the tools' records are of contents read
        with self._index.transaction(durable=False) as db:
            if not same:
                history.put_read(db, self._reader(reader), path, record.digest, record.blob_id)
            if name is not None and not named:
                history.put_name(db, self._reader(reader), name, path)

    def led_to(self, name: str, *, reader: str | None = None) -> str | None:
        """The file `reader`'s last read of `name` (a path as it was spelled, `Sandbox.name_of`)
        led to, if it read it by that name: a read vouches for the file it showed, so a change
        by the same name must land in that file, not where a symlink made or changed since
        leads (`change.resolved`)."""
        return history.led_to(self._index, self._reader(reader), name)

    def seen(self, path: str, *, reader: str | None = None) -> Baseline | None:
        """The record of the last read or write of `path` by `reader` (an agent's name;
        default: the session's), if any. Each named agent has its own records; unnamed sessions
        share theirs (a read in one process counts for the next)."""
        row = history.read_record(self._index, self._reader(reader), path)
        return Baseline(*row) if row is not None else None

    def note_anchored(self, path: str, record: Baseline, *, reader: str | None = None) -> None:
        """Remember that the read `record` of `path` (just noted) showed anchors: the anchors
        `reader` holds name lines of that content, whatever the session changes since."""
        assert record.digest is not None
        if history.anchored_read(self._index, self._reader(reader), path) == record.digest:
            return
        with self._index.transaction(durable=False) as db:
            history.put_anchored(db, self._reader(reader), path, record.digest)

    def anchored(self, path: str, *, reader: str | None = None) -> Baseline | None:
        """What `reader`'s last read of `path` with anchors showed (its blob id None when that
        content is not kept), if it made one."""
        digest = history.anchored_read(self._index, self._reader(reader), path)
        if digest is None:
            return None
        return Baseline(digest, digest if self.has_content(digest) else None)

    def _reader(self, reader: str | None) -> str:
        return (self.options.agent or "") if reader is None else reader

    def seen_bytes(self, record: Baseline) -> bytes | None:
        """The content a read record refers to, when it was kept (checked against its id)."""
        if record.blob_id is None:
            return None
        try:
            return self.content(record.blob_id)
        except SandboxError:
            return None

    def has_content(self, blob_id: str) -> bool:
        """Whether `content(blob_id)` can give the bytes (stored, or rebuilt from a stored base)."""
        if self.sandbox.store.has(blob_id):
            return True
        base = history.derived_base(self._index, blob_id)
        return base is not None and self.sandbox.store.has(base)

    def recipe(self, blob_id: str) -> Recipe | None:
        """How content `blob_id` is rebuilt from a base content, when it is kept that way."""
        found = history.recipe_rows(self._index, blob_id)
        if found is None:
            return None
        (base, start, stop, middle), more = found
        spans = [(start, stop, middle), *more]
        at = 0
        for a, b, m in spans:
            if type(a) is not int or type(b) is not int or not at <= a <= b or type(m) is not bytes:
                raise SandboxError(
                    "blob_corrupt",
                    f"The recipe of content {blob_id} in the state index is damaged (a span "
                    "that is not in order or not bytes); do not rely on it.",
                    path=blob_id,
                )
            at = b
        if not isinstance(base, str) or not _REF.fullmatch(base):
            raise SandboxError(
                "blob_corrupt", f"The recipe of content {blob_id} names no valid base content.",
                path=blob_id)  # fmt: skip
        return Recipe(base, start, stop, middle, tuple((a, b, m) for a, b, m in more))

    def content(self, blob_id: str) -> bytes:
        """The bytes of a content id: a stored blob, or one rebuilt from its recipe.

        Raises `SandboxError` (blob_missing, blob_corrupt); rebuilt bytes are checked against the
        id like stored ones.
        """
        store = self.sandbox.store
        if store.has(blob_id):
            return store.get(blob_id)
        recipe = self.recipe(blob_id)
        if recipe is None:
            return store.get(blob_id)  # raises blob_missing
        old = memoryview(store.get(recipe.base))
        pieces: list[bytes | memoryview] = []
        at = 0
        for start, stop, middle in recipe.spans:
            pieces += [old[at:start], middle]
            at = stop
        data = b"".join((*pieces, old[at:]))
        if digest_of(data) != blob_id:
            raise SandboxError(
                "blob_corrupt",
                f"Content {blob_id} could not be rebuilt from its base (the recipe no longer "
                "gives it); do not rely on it.",
                path=blob_id,
            )
        return data

    def blob(self, ref: str) -> bytes:
        """The stored content with id `ref`, checked against it; see `Session.blob`."""
        if not isinstance(ref, str) or not _REF.fullmatch(ref) or not self.has_content(ref):
            raise ToolError(
                "unknown_ref",
                f"No stored content has the id {str(ref)[:80]!r}. Ids come from results "
                "(old_ref, new_ref, image attachments) of tools run on this root.",
                {"ref": str(ref)[:80]},
            )
        try:
            data = self.content(ref)
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

    # --- changes and undo history ---------------------------------------------------------

    def commit(
        self,
        planned: Sequence[FileWrite],
        *,
        undoes: Change | None = None,
        stop: Callable[[], None] | None = None,
        actor: str | None = None,
    ) -> list[Version | None]:
        """Write every planned file or none, recording the undo history in the same transaction.

        With `undoes`, the commit restores that change: it is marked undone instead of a new
        change being pushed. Returns the new versions (None for a deleted file). The new contents
        are hashed once, while they are written; what the session has now seen of each file is
        recorded as a recipe on the old content (see `content`), not as a second copy.
        `actor` names who made the change (kept with it). `stop` raises to cancel the call: it is asked before the new contents are written out and
        again just before the intent commits, so a cancelled call writes nothing.
        """
        halt = stop or _go_on
        halt()

        def record(db: sqlite3.Connection, intent: int, versions: list[Version | None]) -> None:
            # The last moment to stop: the new contents wait in temp files, and raising here rolls
            # the intent back and removes them; once this transaction commits, the change stands.
            halt()
            for p, version in zip(planned, versions, strict=True):
                after = None if version is None else version.digest
                if undoes is None:
                    history.push_change(db, p.path, p.expect_digest, after, intent, actor)
                if after is None:
                    history.delete_read(db, self._reader(actor), p.path)
                else:
                    blob = self._keep_after(db, p, after)
                    history.put_read(db, self._reader(actor), p.path, after, blob)
            if undoes is not None:
                history.mark_undone(db, undoes.id, intent)

        return self.sandbox.commit_files(planned, record=record)

    def _keep_after(self, db: sqlite3.Connection, p: FileWrite, digest: str) -> str | None:
        """Make the new content of `p` fetchable by its digest, cheaply; None when it is not kept.

        A content whose change is a small span of the old one gets a recipe row on the old
        content (kept as the undo snapshot, in the same transaction: no file written, no extra
        sync); a new or wholly rewritten one under the size cap is stored as a blob; anything
        else is known by its digest alone.
        """
        assert p.data is not None
        base = p.expect_digest
        if self.sandbox.store.has(digest):  # e.g. an undo puts back a content kept before
            return digest
        if isinstance(p.data, Splice | Staged):
            # A spliced file is larger than memory: kept only as a recipe of a few small spans.
            spans = p.data.spans
            if (not spans or len(spans) > _RECIPE_SPANS or base is None
                    or sum(len(new) for _, _, new in spans) > _RECIPE_BYTES):  # fmt: skip
                return None
            history.put_recipe(db, digest, base, spans)
            return digest
        size = len(p.data) if isinstance(p.data, bytes) else sum(len(x) for x in p.data)
        if p.base is not None and base is not None:
            span = p.span if p.span is not None else _one_span(p.base, p.data)
            if len(span[2]) <= _RECIPE_BYTES:
                history.put_recipe(db, digest, base, [span])
                return digest
        if size > self.options.baseline_bytes:
            return None
        data = p.data if isinstance(p.data, bytes) else b"".join(p.data)
        # Unsynced: the file holds it (synced); a later change of it links the file instead.
        return self.sandbox.store.put(data, blob_id=digest, durable=False)

    def writer_of(self, path: str, digest: str) -> tuple[str | None, float] | None:
        """Who made `path` hold content `digest` through the tools (an actor's name, None when
        unnamed) and when; None when the tools never wrote it (a change made outside them)."""
        row = history.writer_of(self._index, path, digest)
        if row is None or not isinstance(row[1], int | float):
            return None
        return (row[0] if isinstance(row[0], str) else None), float(row[1])

    def history(self, path: str) -> list[Made]:
        """The changes of `path` made through the tools and not undone, oldest first."""
        return [
            Made(
                int(i),
                path,
                before,
                after,
                actor if isinstance(actor, str) else None,
                float(when) if isinstance(when, int | float) else None,
            )
            for i, before, after, actor, when in history.changes_of(self._index, path)
        ]

    def last_change(self, path: str) -> Change | None:
        """The most recent change of `path` not yet undone."""
        row = history.last_change(self._index, path)
        return Change(row[0], path, row[1], row[2]) if row is not None else None

    # --- journal --------------------------------------------------------------------------

    def next_event_id(self, name: str) -> str:
        """A fresh id for a stream event of this session."""
        self._event_counter += 1
        return f"{name}-{self._session_token}-{self._event_counter}"

    def journal(
        self, event: StreamEvent, shown: Shown | None = None, actor: str | None = None
    ) -> None:
        """Append a tool result to the journal as a stream event (a read's window by reference
        when `shown` says where it was cut from), with who made the call."""
        if self.options.journal:
            append_event(self._index, self.sandbox.store, event, shown, actor)

    def journal_events(
        self, window: WindowText | None = None, actor: str | None = None
    ) -> Iterator[StreamEvent]:
        """Every stream event journaled for this root (only `actor`'s, when given), oldest
        first, read a page at a time; reads kept by reference have their windows cut again by
        `window`. A row that cannot be read is skipped; the state's own failure raises
        `ToolError`."""
        try:
            yield from read_events(self._index, self.sandbox.store, self.content, window, actor)
        except SandboxError as exc:
            raise ToolError.from_sandbox(exc) from exc

    def _report_recoveries(self) -> None:
        """Journal each settled crash recovery once (whichever process opens the root first)."""
        for outcome, paths in self.sandbox.claim_recoveries():
            text = _RECOVERY_TEXT.get(outcome, _RECOVERY_TEXT["partial"]).format(
                n=len(paths), paths=", ".join(paths)
            )
            self.journal(
                StreamEvent(
                    id=self.next_event_id("recover"),
                    name="recover",
                    value=text,
                    is_error=outcome != "completed",
                    artifact=TextArtifact(title="recovered change", payload=TextPayload(text=text)),
                )
            )

    def _blob_of(self, data: bytes, digest: str) -> str | None:
        """The id under which a content just read stays fetchable, or None when it is not kept.

        A content the state holds already (a snapshot, or a recipe on one) costs nothing; any
        other under the cap is copied unsynced (see `BlobStore.put`), and a change of the file
        puts its replaced inode in the copy's place: a read followed by an edit, even each in a
        process of its own, leaves the state a link, not a copy.
        """
        if self.has_content(digest):
            return digest
        if len(data) > self.options.baseline_bytes:
            return None
        return self.sandbox.store.put(data, blob_id=digest, durable=False)


_RECOVERY_TEXT = {
    "completed": "A change of {n} file(s) interrupted by a crash was completed: {paths}.",
    "rolled_back": "A change of {n} file(s) interrupted by a crash was rolled back: {paths}.",
    "partial": (
        "A change of {n} file(s) interrupted by a crash could not be settled fully (a file was "
        "changed meanwhile); check {paths}."
    ),
    "refused": (
        "An unfinished change recorded in the state named {n} file(s) a tool may not write (a "
        "deny pattern, a .git folder, or outside the root), so recovery left them alone: "
        "{paths}. Check them, and the state folder."
    ),
}


# A content whose change replaced at most this many bytes is kept as a recipe, not a copy.
_RECIPE_BYTES = 64 * 1024
# A change of a file over the cap replacing more places than this is kept by its digest alone
# (state grows by the change: a row per place).
_RECIPE_SPANS = 4096
_COMPARE_CHUNK = 1 << 20


def _one_span(before: bytes, after: bytes | Sequence[bytes | memoryview]) -> Span:
    """The one span of `before` that `after` replaced: common prefix and suffix cut off."""
    new = after if isinstance(after, bytes) else b"".join(after)
    limit = min(len(before), len(new))
    head = _common(before, new, limit, forward=True)
    tail = _common(before, new, limit - head, forward=False)
    return head, len(before) - tail, new[head : len(new) - tail]


def _common(a: bytes, b: bytes, limit: int, *, forward: bool) -> int:
    """Length of the common prefix (or suffix) of `a` and `b`, at most `limit`: compared a chunk
    at a time (a memcmp), then narrowed inside the first chunk that differs."""
    va, vb = memoryview(a), memoryview(b)
    done = 0
    step = _COMPARE_CHUNK
    while done < limit:
        n = min(step, limit - done)
        if forward:
            same = va[done : done + n] == vb[done : done + n]
        else:
            same = va[len(a) - done - n : len(a) - done] == vb[len(b) - done - n : len(b) - done]
        if same:
            done += n
        elif n == 1:
            return done
        else:
            step = max(n // 16, 1)
    return done
