"""`Checkers`: a session's language servers, and the check of one change against them.

Servers start on first use, one per (project root, server), and stay warm until `close`. A check
asks every server of the file's language for the diagnostics of the text before (from the cache
when that text was checked already) and of the text after, and splits them into introduced and
resolved through the change's line mapping. It waits at most its budget; what has not answered
by then is pending, and `collect` reports it later. Server trouble is a note, never an exception:
a server that dies is restarted once, and given up when the restarted one dies before answering.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from edittools.diagnostics._compare import split_changes
from edittools.diagnostics._convert import to_models
from edittools.diagnostics._lines import LineMap, line_map_from_texts
from edittools.diagnostics._loop import LoopThread
from edittools.diagnostics._model import Diagnostic, DiagnosticsOutcome
from edittools.diagnostics._roots import configured, workspace_root
from edittools.diagnostics._servers import (
    SERVERS,
    ServerSpec,
    find_executable,
    language_of,
    search_dirs,
    servers_for,
)

if TYPE_CHECKING:
    from edittools.diagnostics._connection import Connection

_CLOSE_TIMEOUT = 10.0


@dataclass(frozen=True)
class RunningServer:
    """A language server process a `Checkers` runs."""

    name: str
    root: Path
    pid: int


@dataclass(frozen=True)
class _Answer:
    """One server's part of a check."""

    server: str
    introduced: tuple[Diagnostic, ...] = ()
    resolved: tuple[Diagnostic, ...] = ()
    checked: bool = False
    notes: tuple[str, ...] = ()


@dataclass
class _Slot:
    """The connection of one (root, server), and whether it was restarted since it last answered."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connection: Connection | None = None
    restarted: bool = False
    given_up: bool = False


@dataclass(frozen=True)
class _Request:
    path: Path
    language: str
    before: str | None
    after: str
    line_map: LineMap | None


class Checkers:
    """The language servers of one session, found in the project's environment or on `PATH`.

    `sandbox_root` bounds the search for a file's project root. `environment` is the `bin` folder
    of the environment the project runs in (default: the one running this, `sys.prefix/bin`);
    `search_path` adds folders searched before it. With `configured_only`, a file is checked only
    by the servers its project configures (`ServerSpec.configured_by`: a `[tool.ruff]` table, a
    `tsconfig.json`, a `go.mod`, ...), never by a checker the project did not choose. Nothing
    starts until the first `check`.
    """

    def __init__(
        self,
        sandbox_root: Path,
        *,
        environment: Path | None = None,
        search_path: Sequence[Path] = (),
        servers: Sequence[ServerSpec] = SERVERS,
        start_timeout: float = 60.0,
        hang_timeout: float = 60.0,
        configured_only: bool = False,
    ) -> None:
        self._bound = sandbox_root
        self._configured_only = configured_only
        self._environment = environment
        self._search_path = tuple(search_path)
        self._servers = tuple(servers)
        self._start_timeout = start_timeout
        self._hang_timeout = hang_timeout
        self._loop = LoopThread("edittools-diagnostics")
        self._lock = threading.Lock()
        self._slots: dict[tuple[Path, str], _Slot] = {}
        self._pending: dict[Path, list[tuple[str, concurrent.futures.Future[_Answer]]]] = {}
        self._told_missing: set[str] = set()
        self._closed = False

    def __enter__(self) -> Checkers:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def available(self, path: Path) -> tuple[str, ...]:
        """The names of the servers found that would check `path` (none: no checker)."""
        language = language_of(path)
        chosen = [] if language is None else self._chosen(path, language)
        return tuple(spec.name for spec, _, _ in self._found(path, chosen))

    def check(
        self,
        path: Path,
        text_before: str | None,
        text_after: str,
        *,
        line_map: LineMap | None = None,
        budget: float = 2.0,
    ) -> DiagnosticsOutcome:
        """What the change of `path` from `text_before` to `text_after` did to its diagnostics.

        `text_before` is None for a new file. `line_map` is the change's line mapping (default:
        one computed from the two texts). Waits at most `budget` seconds; servers that have not
        answered by then leave the outcome `pending`, and `collect(path)` gets their answers.
        """
        deadline = time.monotonic() + budget
        language = language_of(path)
        if language is None or self._closed:
            return DiagnosticsOutcome()
        chosen = self._chosen(path, language)
        found = self._found(path, chosen)
        notes = self._missing_notes(chosen, {spec.name for spec, _, _ in found})
        if not found:
            return DiagnosticsOutcome(notes=notes)
        request = _Request(path, language, text_before, text_after, line_map)
        try:
            jobs = [
                (spec.name, self._loop.submit(self._answer(spec, executable, root, request)))
                for spec, executable, root in found
            ]
        except RuntimeError as exc:
            return DiagnosticsOutcome(notes=(*notes, f"Diagnostics could not run ({exc})."))
        return self._gather(path, jobs, deadline, notes)

    def collect(self, path: Path, *, budget: float = 0.0) -> DiagnosticsOutcome | None:
        """The answers still pending from earlier checks of `path`, waiting up to `budget`.

        None when nothing is pending for `path`; else an outcome that may still be `pending`.
        """
        deadline = time.monotonic() + budget
        with self._lock:
            jobs = self._pending.pop(path, None)
        if not jobs:
            return None
        return self._gather(path, jobs, deadline, ())

    def running(self) -> tuple[RunningServer, ...]:
        """The server processes running now."""
        with self._lock:
            slots = list(self._slots.items())
        return tuple(
            RunningServer(name, root, slot.connection.pid)
            for (root, name), slot in slots
            if slot.connection is not None
            and slot.connection.alive
            and slot.connection.pid is not None
        )

    def close(self) -> None:
        """Shut every server down (killing what does not stop) and stop the loop's thread."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            pending = [job for jobs in self._pending.values() for _, job in jobs]
            self._pending.clear()
        for job in pending:
            job.cancel()
        if self._loop.started:
            try:
                stopping = self._loop.submit(self._stop_all())
                stopping.result(_CLOSE_TIMEOUT)
            except (concurrent.futures.TimeoutError, RuntimeError):
                pass
            finally:
                self._kill_all()
                self._loop.stop(_CLOSE_TIMEOUT)

    def _found(
        self, path: Path, chosen: Sequence[ServerSpec]
    ) -> list[tuple[ServerSpec, Path, Path]]:
        """Each of the `chosen` servers of `path` that is installed: its spec, executable and
        root."""
        found = []
        for spec in chosen:
            root = workspace_root(path, spec.root_markers, bound=self._bound)
            dirs = search_dirs(root, self._search_path, self._environment)
            executable = find_executable(spec.command[0], dirs)
            if executable is not None:
                found.append((spec, executable, root))
        return found

    def _chosen(self, path: Path, language: str) -> list[ServerSpec]:
        """The servers of `language`; with `configured_only`, those `path`'s project configures."""
        specs = servers_for(language, self._servers)
        if not self._configured_only:
            return specs
        return [s for s in specs if configured(path, s.configured_by, bound=self._bound)]

    def _missing_notes(self, chosen: Sequence[ServerSpec], found: set[str]) -> tuple[str, ...]:
        """A note for each of the `chosen` servers not found, the first time only."""
        notes = []
        for spec in chosen:
            with self._lock:
                if spec.name in found or spec.name in self._told_missing:
                    continue
                self._told_missing.add(spec.name)
            notes.append(
                f"{spec.name} is not installed (no `{spec.command[0]}` in the project's "
                f"environment or on PATH): its diagnostics are not checked."
            )
        return tuple(notes)

    def _gather(
        self,
        path: Path,
        jobs: list[tuple[str, concurrent.futures.Future[_Answer]]],
        deadline: float,
        notes: tuple[str, ...],
    ) -> DiagnosticsOutcome:
        timeout = max(0.0, deadline - time.monotonic())
        concurrent.futures.wait([job for _, job in jobs], timeout=timeout)
        answers: list[_Answer] = []
        waiting: list[tuple[str, concurrent.futures.Future[_Answer]]] = []
        for name, job in jobs:
            if not job.done():
                waiting.append((name, job))
            elif job.cancelled():
                answers.append(_Answer(name, notes=(f"{name}'s check was cancelled.",)))
            elif (error := job.exception()) is not None:
                answers.append(_Answer(name, notes=(f"{name}'s check failed ({error!r}).",)))
            else:
                answers.append(job.result())
        if waiting:
            with self._lock:
                if not self._closed:
                    self._pending.setdefault(path, []).extend(waiting)
        introduced = sorted(
            (item for answer in answers for item in answer.introduced), key=_position
        )
        resolved = sorted((item for answer in answers for item in answer.resolved), key=_position)
        return DiagnosticsOutcome(
            introduced=tuple(introduced),
            resolved=tuple(resolved),
            pending=bool(waiting),
            checkers=tuple(answer.server for answer in answers if answer.checked),
            waiting_for=tuple(name for name, _ in waiting),
            notes=(*notes, *(note for answer in answers for note in answer.notes)),
        )

    async def _answer(
        self, spec: ServerSpec, executable: Path, root: Path, request: _Request
    ) -> _Answer:
        """One server's part of a check; its trouble becomes notes. Runs on the loop."""
        from edittools.diagnostics._connection import ServerGone

        notes: list[str] = []
        while True:
            connection = await self._connection(spec, executable, root, notes)
            if connection is None:
                return _Answer(spec.name, notes=tuple(notes))
            try:
                before, after = await asyncio.wait_for(
                    self._both(connection, request), self._hang_timeout
                )
            except ServerGone:
                # The next round notes how it ended, and restarts it or gives it up.
                continue
            except TimeoutError:
                connection.kill()
                notes.append(
                    f"{spec.name} did not answer within {self._hang_timeout:.0f} s and was "
                    f"stopped; the next check restarts it."
                )
                return _Answer(spec.name, notes=tuple(notes))
            self._slots[(root, spec.name)].restarted = False
            return self._compared(spec, connection, request, before, after, notes)

    @staticmethod
    async def _both(
        connection: Connection, request: _Request
    ) -> tuple[tuple[object, ...], tuple[object, ...]]:
        """The server's diagnostics of the text before (none for a new file), then after."""
        before: tuple[object, ...] = ()
        if request.before is not None:
            before = await connection.diagnostics(request.path, request.language, request.before)
        after = await connection.diagnostics(request.path, request.language, request.after)
        return before, after

    def _compared(
        self,
        spec: ServerSpec,
        connection: Connection,
        request: _Request,
        before_found: Sequence[object],
        after_found: Sequence[object],
        notes: list[str],
    ) -> _Answer:
        from lsprotocol import types

        def models(found: Sequence[object], text: str) -> list[Diagnostic]:
            items = [item for item in found if isinstance(item, types.Diagnostic)]
            return to_models(items, text, server=spec.name, utf16=connection.utf16)

        before = models(before_found, request.before or "")
        after = models(after_found, request.after)
        line_map = request.line_map
        if line_map is None:
            line_map = line_map_from_texts(request.before or "", request.after)
        before_lines = len((request.before or "").splitlines())
        introduced, resolved = split_changes(before, after, line_map, before_lines=before_lines)
        return _Answer(spec.name, introduced, resolved, checked=True, notes=tuple(notes))

    async def _connection(
        self, spec: ServerSpec, executable: Path, root: Path, notes: list[str]
    ) -> Connection | None:
        """The live connection of (root, server), started or restarted as the policy allows."""
        from edittools.diagnostics._connection import Connection, ServerGone

        with self._lock:
            slot = self._slots.setdefault((root, spec.name), _Slot())
        async with slot.lock:
            while True:
                current = slot.connection
                if current is not None and current.alive:
                    return current
                if slot.given_up:
                    return None
                if current is not None:
                    await current.stop()
                    if slot.restarted:
                        slot.given_up = True
                        notes.append(
                            f"{spec.name} {current.gone or 'stopped'} again after a restart: its diagnostics "
                            f"are not checked for the rest of the session."
                        )
                        return None
                    slot.restarted = True
                    notes.append(f"{spec.name} {current.gone or 'stopped'}; it was restarted.")
                connection = Connection(spec, executable, root)
                slot.connection = connection
                with contextlib.suppress(ServerGone):
                    await connection.start(self._start_timeout)
                # Started, or dead: the next round says how it ended.

    async def _stop_all(self) -> None:
        connections = [slot.connection for slot in self._slots.values() if slot.connection]
        await asyncio.gather(*(connection.stop() for connection in connections))

    def _kill_all(self) -> None:
        for slot in list(self._slots.values()):
            if slot.connection is not None:
                slot.connection.kill_group()


def _position(diagnostic: Diagnostic) -> tuple[int, int, str]:
    return (diagnostic.line, diagnostic.column, diagnostic.source)
