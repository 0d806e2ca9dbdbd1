"""The facade agents and faces hold: one method per tool, delegating to `edittools.tools`."""

from __future__ import annotations

import os
import sys
import threading
import warnings
import weakref
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from edittools._options import SessionOptions
from edittools.artifacts import StreamEvent, ToolResult
from edittools.diagnostics import Checkers
from edittools.state import Checkpoint, ExternalWatcher, Workspace
from edittools.tools import TOOLS, Progress, definitions, run_tool, shown_window
from edittools.tools.blame import BlameLine, blame
from sandbox import Sandbox


class Caller:
    """The tools as methods, every call made with one context: who makes it (`agent`), what
    stops it (`cancel`, an event set from another thread) and what hears how far it has gone
    (`progress`). A `Session` is one, with its own `agent` option; `Session.caller(...)` makes
    others over the same session, so calls from several clients never share a mode."""

    def __init__(
        self,
        session: Session,
        *,
        agent: str | None = None,
        cancel: threading.Event | None = None,
        progress: Progress | None = None,
    ) -> None:
        self._of = session
        self._agent = agent
        self._cancel = cancel
        self._progress = progress

    @property
    def _session(self) -> Session:
        return self._of

    @property
    def sandbox(self) -> Sandbox:
        """The sandbox the calls work in."""
        return self._session._sandbox

    @property
    def agent(self) -> str | None:
        """Who makes this caller's calls (None: the session's `agent` option)."""
        return self._agent

    @property
    def _actor(self) -> str | None:
        return self._agent or self._session.options.agent

    def call(
        self, name: str, arguments: Mapping[str, Any] | Any, *, dry_run: bool = False
    ) -> ToolResult:
        """Run tool `name` with raw `arguments` (as a model sent them), in this caller's
        context; never raises for bad input. With `dry_run` the change and its diff are
        computed but nothing is written."""
        return self._session.call(
            name,
            arguments,
            dry_run=dry_run,
            agent=self._agent,
            cancel=self._cancel,
            progress=self._progress,
        )

    def read(
        self, path: str, *, offset: int = 1, limit: int = 2000, anchors: bool = False
    ) -> ToolResult:
        """Read a text file as numbered lines (with `anchors`, tagged: `12#a3f|text`, for
        `edit_lines`), or an image."""
        arguments: dict[str, Any] = {"path": path, "offset": offset, "limit": limit}
        if anchors:
            arguments["anchors"] = True
        return self.call("read", arguments)

    def symbols(self, path: str) -> ToolResult:
        """The definitions of a source file: lines, kind and dotted name of each."""
        return self.call("symbols", {"path": path})

    def read_symbol(self, path: str, symbol: str) -> ToolResult:
        """One definition of a source file by dotted name, as numbered lines (a read)."""
        return self.call("read_symbol", {"path": path, "symbol": symbol})

    def edit_symbol(
        self, path: str, symbol: str, new_text: str, *, where: str = "replace"
    ) -> ToolResult:
        """Replace a definition (`where="replace"`) or its body (`"body"`), or put `new_text`
        `"before"` or `"after"` it; the text takes its indentation."""
        return self.call(
            "edit_symbol", {"path": path, "symbol": symbol, "new_text": new_text, "where": where}
        )

    def edit_lines(self, path: str, start: str, end: str, new_text: str) -> ToolResult:
        """Replace the lines from anchor `start` to anchor `end` (from a read with anchors)."""
        return self.call(
            "edit_lines", {"path": path, "start": start, "end": end, "new_text": new_text}
        )

    def edit_cell(
        self,
        path: str,
        cell: str | int | None,
        new_text: str = "",
        *,
        mode: str = "replace",
        cell_type: str | None = None,
        to: int | None = None,
    ) -> ToolResult:
        """Replace the source of a notebook's `cell` (its id or 0-based index; a code cell's
        outputs and execution count are kept), insert a new cell after it (`mode="insert"`;
        `cell=None`: at the top), delete it (`mode="delete"`), or move it to the 0-based
        position `to` (`mode="move"`)."""
        arguments: dict[str, Any] = {"path": path, "cell": cell, "new_text": new_text}
        arguments["mode"] = mode
        if cell_type is not None:
            arguments["cell_type"] = cell_type
        if to is not None:
            arguments["to"] = to
        return self.call("edit_cell", arguments)

    def write(self, path: str, content: str) -> ToolResult:
        """Create a file or replace its whole content."""
        return self.call("write", {"path": path, "content": content})

    def edit(
        self, path: str, old_string: str, new_string: str, *, replace_all: bool = False
    ) -> ToolResult:
        """Replace `old_string` with `new_string` (unique unless `replace_all`)."""
        return self.call(
            "edit",
            {
                "path": path,
                "old_string": old_string,
                "new_string": new_string,
                "replace_all": replace_all,
            },
        )

    def multi_edit(self, path: str, edits: Sequence[Mapping[str, Any]]) -> ToolResult:
        """Apply several edits to one file in order, all or nothing."""
        return self.call("multi_edit", {"path": path, "edits": list(edits)})

    def apply_patch(
        self, patch: str, *, strip: int | None = None, overwrite: bool = False
    ) -> ToolResult:
        """Apply a unified diff or Codex-style patch to one or more files, all or nothing.

        `strip` removes leading path components from the file names, as ``patch -p``. With
        `overwrite`, adding or moving onto an existing file replaces it (as Codex does); without,
        that is refused with `exists`.
        """
        arguments: dict[str, Any] = {"patch": patch}
        if strip is not None:
            arguments["strip"] = strip
        return self.call("apply_patch_overwriting" if overwrite else "apply_patch", arguments)

    def insert(self, path: str, line: int, text: str) -> ToolResult:
        """Insert `text` after line `line` of an existing file (0: at the top)."""
        return self.call("insert", {"path": path, "line": line, "text": text})

    def undo(self, path: str) -> ToolResult:
        """Restore a file to its content before this session's last change to it."""
        return self.call("undo", {"path": path})

    def blob(self, ref: str) -> bytes:
        """The content a result refers to by id: a diff's `old_ref`/`new_ref`, an image attachment.

        The bytes come from this root's state only and are checked against their id. Raises
        `ToolError` with code `unknown_ref` for an id that is malformed or names nothing stored,
        `io_error` for a damaged blob, and `too_large` over the session's `max_file_bytes`.
        """
        return self._session.workspace.blob(ref)

    def checkpoint(self, label: str | None = None) -> int:
        """Record what every file the tools have touched holds now; return the checkpoint's id.

        One is taken when the session starts (the default `since` of `changes`, `reject` and
        `accept`); `begin_turn` takes one before a model turn.
        """
        return self._session.workspace.checkpoints.take(label, actor=self._actor)

    def begin_turn(self, label: str | None = None) -> int:
        """Declare that a model turn begins: an automatic checkpoint, reused when nothing changed."""
        return self._session.workspace.checkpoints.take(label, auto="turn", actor=self._actor)

    def rewind(self, checkpoint: int, *, force: bool = False, by: str | None = None) -> ToolResult:
        """Restore every file the tools changed since `checkpoint`, all or nothing.

        A file changed outside the tools since they last recorded it is refused (`stale`, with
        that change as the diff) unless `force`. With `by`, only that agent's changes are taken
        back, every other change kept; one that a later change meets is refused (`stale`). The
        result is a `changeset`; each file's `undo`, or a rewind to the checkpoint taken just
        before, takes it back.
        """
        arguments: dict[str, Any] = {"checkpoint": checkpoint, "force": force}
        if by is not None:
            arguments["by"] = by
        return self.call("rewind", arguments)

    def blame(self, path: str) -> list[BlameLine]:
        """Each line of `path` with the change that last made it what it is: one made through
        the tools (its actor, time and change id), one outside them, none, or one whose history
        is no longer kept. Raises `ToolError` for a missing or binary file."""
        return blame(self._session.workspace, path)

    def changes(
        self, since: int | None = None, *, include_accepted: bool = True, by: str | None = None
    ) -> ToolResult:
        """The net diff (a `changeset`) of every file the tools changed since checkpoint `since`.

        `since` defaults to the checkpoint taken when the session began; with `include_accepted`
        off, hunks marked with `accept` are left out; with `by`, only the files that agent changed,
        each with that agent's own changes (the hunks `reject` counts with the same `by`).
        """
        arguments: dict[str, Any] = {"since": since, "include_accepted": include_accepted}
        if by is not None:
            arguments["by"] = by
        return self.call("changes", arguments)

    def reject(
        self,
        path: str,
        hunk: int | Mapping[str, Any],
        *,
        since: int | None = None,
        by: str | None = None,
    ) -> ToolResult:
        """Revert one hunk (its index, or the hunk as `changes` gave it) of `path`'s net diff
        (with `by`, of that agent's changes alone, every other change kept).

        Refused as `stale` when the hunk no longer applies to the file as it is now.
        """
        ref = hunk if isinstance(hunk, int) else dict(hunk)
        arguments: dict[str, Any] = {"path": path, "hunk": ref, "since": since}
        if by is not None:
            arguments["by"] = by
        return self.call("reject", arguments)

    def accept(
        self,
        path: str,
        hunks: int | Mapping[str, Any] | Sequence[int | Mapping[str, Any]] | None = None,
        *,
        since: int | None = None,
    ) -> ToolResult:
        """Mark hunks (default: all) of `path`'s net diff as reviewed."""
        if isinstance(hunks, int | Mapping):
            hunks = [hunks]
        refs = None if hunks is None else [h if isinstance(h, int) else dict(h) for h in hunks]
        return self.call("accept", {"path": path, "hunks": refs, "since": since})


class Session(Caller):
    """Safe file tools over one sandbox directory; every call returns a `ToolResult`.

    `Session(root)` opens a sandbox on `root` (with `deny` patterns, and its state in `state_dir`,
    else `$EDITTOOLS_STATE_DIR`, else the user's state directory — never inside the root);
    `Session(sandbox=sb)` uses an existing one. Options (see `SessionOptions`) may be given whole or
    as keywords, e.g. `Session(root, require_read=False)`. Writes under `.git/` are refused unless
    `allow_git_writes=True`, and files the caller could not write in place are not replaced unless
    `allow_readonly_writes=True` (with `sandbox=`, the sandbox must have been opened with each).

    A session holds descriptors, the state database and any watcher it started until `close()`:
    use `with Session(root) as s:`. One dropped unclosed releases them when it is collected, with
    a `ResourceWarning`, as an unclosed file does.
    """

    def __init__(
        self,
        root: str | os.PathLike[str] | None = None,
        *,
        sandbox: Sandbox | None = None,
        deny: Iterable[str] = (),
        state_dir: str | os.PathLike[str] | None = None,
        options: SessionOptions | None = None,
        **option_overrides: Any,
    ) -> None:
        if (root is None) == (sandbox is None):
            raise ValueError("give either a root directory or a sandbox, not both or neither")
        options = replace(options or SessionOptions(), **option_overrides)
        self._owns_sandbox = sandbox is None
        if sandbox is None:
            assert root is not None  # the check above lets exactly one of them through
            sandbox = Sandbox(
                root,
                deny=deny,
                state_dir=state_dir,
                max_read_bytes=options.max_file_bytes,
                allow_git_writes=options.allow_git_writes,
                allow_readonly_writes=options.allow_readonly_writes,
            )
        elif state_dir is not None:
            raise ValueError("state_dir belongs to the sandbox: give it to Sandbox(...)")
        elif options.allow_git_writes and not sandbox.allow_git_writes:
            raise ValueError(
                "allow_git_writes=True needs a sandbox opened with allow_git_writes=True"
            )
        elif options.allow_readonly_writes and not sandbox.allow_readonly_writes:
            raise ValueError(
                "allow_readonly_writes=True needs a sandbox opened with allow_readonly_writes=True"
            )
        else:
            options = replace(
                options,
                allow_git_writes=sandbox.allow_git_writes,
                allow_readonly_writes=sandbox.allow_readonly_writes,
            )
        self._sandbox = sandbox
        # A session is its own caller, with no context but its `agent` option. It holds no
        # reference to itself, so one dropped unclosed is released as soon as it is unreachable.
        self._agent: str | None = None
        self._cancel: threading.Event | None = None
        self._progress: Progress | None = None
        self._owned = _Owned(sandbox if self._owns_sandbox else None)
        # Where the session is made, for the warning if it is dropped unclosed: the finalizer
        # runs from the collector, whose frames say nothing of the caller. One frame's file and
        # line cost next to nothing (a stack summary, as asyncio's debug mode takes, would not).
        caller = sys._getframe(1)
        made_at = (caller.f_code.co_filename, caller.f_lineno)
        del caller
        # Holds `_owned`, never the session: it runs once the session is unreachable.
        self._finalizer = weakref.finalize(self, _dropped, self._owned, str(sandbox.root), made_at)
        # At exit the process releases everything (while daemon threads may still use it).
        self._finalizer.atexit = False  # type: ignore[misc]  # typeshed gives finalize no slots
        if options.diagnostics != "off":
            # No process starts until a change of a file its project configures a checker for.
            self._owned.checkers = Checkers(sandbox.root, configured_only=True)
        try:
            self.workspace = Workspace(sandbox, options)
            if options.checkpoint_on_start:
                self.workspace.session_checkpoint = self.workspace.checkpoints.take(
                    auto="session", actor=options.agent
                )
        except BaseException:
            self.close()
            raise

    @property
    def _session(self) -> Session:
        return self

    @property
    def options(self) -> SessionOptions:
        """The session's policies and limits."""
        return self.workspace.options

    def call(
        self,
        name: str,
        arguments: Mapping[str, Any] | Any,
        *,
        dry_run: bool = False,
        agent: str | None = None,
        cancel: threading.Event | None = None,
        progress: Progress | None = None,
    ) -> ToolResult:
        """Run tool `name` with raw `arguments` (as a model sent them); never raises for bad input.

        With `dry_run` the change and its diff are computed but nothing is written. `agent`
        names who makes this call (default: the session's `agent` option). Once `cancel` is set
        (from another thread) a change not yet committed stops: nothing is written and the
        result is the error `cancelled`; a change whose commit has begun completes.
        `progress(done, total, message)` hears how far passes over large files have gone
        (bytes; at most four times a second).
        """
        return run_tool(
            self.workspace,
            name,
            arguments,
            dry_run=dry_run,
            cancel=cancel,
            agent=agent,
            progress=progress,
            checkers=self._owned.checkers,
        )

    def caller(
        self,
        *,
        agent: str | None = None,
        cancel: threading.Event | None = None,
        progress: Progress | None = None,
    ) -> Caller:
        """The tools of this session with a call context of their own (see `Caller`): one per
        client request, say, so concurrent requests never see each other's agent."""
        return Caller(self, agent=agent, cancel=cancel, progress=progress)

    def checkpoints(self) -> list[Checkpoint]:
        """Every checkpoint of the root, oldest first, with how many files changed since each."""
        return self.workspace.checkpoints.listing()

    def last_changed_checkpoint(self) -> int | None:
        """The newest checkpoint with changes since it (what `review` and `rewind` default to)."""
        return next((c.id for c in reversed(self.checkpoints()) if c.files), None)

    @staticmethod
    def tool_names() -> list[str]:
        """The names of the tools, in catalogue order."""
        return list(TOOLS)

    @staticmethod
    def tool_definitions(style: str = "openai", *, structure: bool = False) -> list[dict[str, Any]]:
        """Function-calling definitions of the tools: `openai` or `anthropic` style; with
        `structure`, also symbols, read_symbol, edit_symbol and edit_lines."""
        return definitions(style, structure=structure)

    def watch(self, **options: Any) -> ExternalWatcher:
        """Start reporting changes made outside the tools as `external` stream events.

        Returns the running watcher (stop it, or use it as a context manager; closing the session
        stops it too); `options` are `ExternalWatcher`'s, e.g. `on_event=print, journal=True,
        track_all=True`.
        """
        watcher = ExternalWatcher(self.sandbox, workspace=self.workspace, **options)
        self._owned.watchers.add(watcher)
        return watcher.start()

    def journal(self, *, agent: str | None = None) -> list[StreamEvent]:
        """Every result journaled for this root (only `agent`'s calls, when given), oldest first
        (see `iter_journal` for big ones)."""
        return list(self.workspace.journal_events(shown_window, agent))

    def iter_journal(self, *, agent: str | None = None) -> Iterator[StreamEvent]:
        """The journaled results one by one (only `agent`'s, when given), oldest first, in flat
        memory."""
        return self.workspace.journal_events(shown_window, agent)

    def close(self) -> None:
        """Stop the watchers and language servers this session started and release the sandbox
        if it opened it.

        Closing again does nothing.
        """
        self._finalizer.detach()
        self._owned.release()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class _Owned:
    """What a session must release: the sandbox it opened (None: the caller's) and the watchers
    it started. The finalizer of a dropped session holds this, so it must not refer to the
    session."""

    def __init__(self, sandbox: Sandbox | None) -> None:
        self.sandbox = sandbox
        self.checkers: Checkers | None = None
        # Weak: a watcher its owner stopped and dropped is forgotten; a running one is kept
        # alive by its threads.
        self.watchers: weakref.WeakSet[ExternalWatcher] = weakref.WeakSet()

    def release(self) -> bool:
        """Stop the watchers and the language servers, close the sandbox; whether there was
        anything to release."""
        watchers = list(self.watchers)
        self.watchers.clear()
        sandbox, self.sandbox = self.sandbox, None
        checkers, self.checkers = self.checkers, None
        held = bool(watchers) or (sandbox is not None and not sandbox.closed)
        try:
            for watcher in watchers:
                watcher.stop()
        finally:
            try:
                if checkers is not None:
                    checkers.close()
            finally:
                if sandbox is not None:
                    sandbox.close()
        return held


def _dropped(owned: _Owned, root: str, made_at: tuple[str, int]) -> None:
    """The finalizer of a session collected without `close`: release, then say so, at the
    line that made the session (`made_at`: file and line)."""
    if owned.release():
        filename, lineno = made_at
        warnings.warn_explicit(
            f"a Session over {root!r}, made at {filename}:{lineno}, was not closed; use "
            "`with Session(...) as s:` or call close()",
            ResourceWarning,
            filename,
            lineno,
        )
