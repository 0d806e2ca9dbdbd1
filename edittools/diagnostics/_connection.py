"""One language server child process and the LSP session with it, through pygls' client.

Everything here runs on the event loop of `Checkers`' thread. The server runs in its own process
group, so whatever it starts (basedpyright's entry point starts node) goes down with it. Its
stderr is drained into a short tail, shown in the note when it dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import signal
from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from edittools.diagnostics import _tsserver
from edittools.diagnostics._client import Client, initialize_params
from edittools.diagnostics._servers import ServerSpec

_CACHED_VERSIONS = 64
_OPEN_DOCUMENTS = 32
_STDERR_LINES = 5
_STOP_TIMEOUT = 2.0
_RETRY_CODES = frozenset(
    {types.LSPErrorCodes.ServerCancelled.value, types.LSPErrorCodes.ContentModified.value}
)


class ServerGone(Exception):
    """The server exited (or never started); `reason` says how, as a sentence's end."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class _Published:
    version: int | None
    diagnostics: Sequence[types.Diagnostic]
    serial: int


@dataclass
class _Open:
    version: int
    digest: bytes


def digest_of(text: str) -> bytes:
    """The key of a text's diagnostics: its content, never the time it was checked."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class Connection:
    """A started language server for one root: documents kept open, diagnostics on request."""

    def __init__(self, spec: ServerSpec, executable: Path, root: Path) -> None:
        self.spec = spec
        self.root = root
        self._executable = executable
        self._client = Client(
            on_publish=self._on_publish, on_exit=self._exited, settings=spec.settings
        )
        self._pull_identifier: str | None = None
        self._pull = False
        self._utf16 = True
        self._lock = asyncio.Lock()
        self._published: dict[str, _Published] = {}
        self._serial = 0
        self._news = asyncio.Event()
        self._died = asyncio.Event()
        self._open: OrderedDict[str, _Open] = OrderedDict()
        self._cache: OrderedDict[tuple[str, bytes], tuple[types.Diagnostic, ...]] = OrderedDict()
        self._stderr: deque[str] = deque(maxlen=_STDERR_LINES)
        self._drain: asyncio.Task[None] | None = None
        self._gone: str | None = None
        self._next_version = 0

    @property
    def pid(self) -> int | None:
        """The server process's id once started."""
        process = self._client.process
        return process.pid if process is not None else None

    @property
    def alive(self) -> bool:
        """Whether the server is running and has not failed."""
        return self._gone is None and self._client.process is not None

    @property
    def gone(self) -> str | None:
        """How the server ended, if it did."""
        return self._gone

    async def start(self, timeout: float) -> None:
        """Start the server process and initialize it within `timeout` seconds."""
        try:
            await self._client.start_io(
                str(self._executable),
                *self.spec.command[1:],
                cwd=str(self.root),
                start_new_session=True,
            )
        except OSError as exc:
            self._gone = f"could not be started ({exc.strerror or exc})"
            raise ServerGone(self._gone) from exc
        process = self._client.process
        if process is not None and process.stderr is not None:
            self._drain = asyncio.create_task(self._drain_stderr(process.stderr))
        try:
            result = await asyncio.wait_for(
                self._client.initialize_async(
                    initialize_params(self.root, self.spec.initialization_options)
                ),
                timeout,
            )
        except TimeoutError as exc:
            self._fail(f"did not answer `initialize` within {timeout:.0f} s")
            raise ServerGone(self._gone or "hung") from exc
        except (RuntimeError, JsonRpcException) as exc:
            self._fail(f"refused to start ({exc})")
            raise ServerGone(self._gone or "failed") from exc
        capabilities = result.capabilities
        provider = capabilities.diagnostic_provider
        if provider is not None:
            self._pull = True
            self._pull_identifier = getattr(provider, "identifier", None)
        self._utf16 = capabilities.position_encoding not in (
            types.PositionEncodingKind.Utf32,
            types.PositionEncodingKind.Utf32.value,
        )
        self._client.initialized(types.InitializedParams())

    @property
    def utf16(self) -> bool:
        """Whether the server's columns count UTF-16 code units (else code points)."""
        return self._utf16

    async def diagnostics(
        self, path: Path, language_id: str, text: str
    ) -> tuple[types.Diagnostic, ...]:
        """The server's diagnostics of `path` holding `text`, cached by the text's digest."""
        uri = path.as_uri()
        key = (uri, digest_of(text))
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        async with self._lock:
            if key in self._cache:
                return self._cache[key]
            self._ensure_alive()
            serial = self._serial
            version = self._sync(uri, language_id, text, key[1])
            if self.spec.diagnostics_via == "tsserver":
                found = await self._from_tsserver(uri)
            elif self._pull:
                found = await self._pulled(uri)
            else:
                found = await self._pushed(uri, version, serial)
            self._cache[key] = found
            while len(self._cache) > _CACHED_VERSIONS:
                self._cache.popitem(last=False)
            return found

    async def stop(self) -> None:
        """Shut the server down politely, then kill its process group; never raises."""
        process = self._client.process
        if process is None:
            return
        if self._gone is None and process.returncode is None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._client.shutdown_async(None), _STOP_TIMEOUT)
                self._client.exit(None)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), _STOP_TIMEOUT)
        self._gone = self._gone or "was shut down"
        self.kill_group()
        await process.wait()
        # The client's reader ends when the killed group's pipes close; never wait past that.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._client.stop(), _STOP_TIMEOUT)  # type: ignore[no-untyped-call]
        if process.stdin is not None:
            process.stdin.close()
        if self._drain is not None:
            self._drain.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._drain

    def kill(self) -> None:
        """Kill the server's process group at once (a hung server)."""
        self._fail("stopped answering and was killed")
        self.kill_group()

    def _fail(self, reason: str) -> None:
        if self._gone is None:
            self._gone = reason
        self._died.set()

    def _ensure_alive(self) -> None:
        if self._gone is not None:
            raise ServerGone(self._gone)

    def _exited(self, code: int | None) -> None:
        tail = " | ".join(line for line in self._stderr if line)
        how = f"exited with code {code}" if code is not None and code >= 0 else "was killed"
        if code is not None and code < 0:
            with contextlib.suppress(ValueError):
                how = f"was killed by {signal.Signals(-code).name}"
        self._fail(how + (f" (stderr: {tail})" if tail else ""))
        # Whatever the server started shares its group: none of it outlives the server.
        self.kill_group()

    def kill_group(self) -> None:
        """Kill the server's process group (it and whatever it started); safe from any thread."""
        pid = self.pid
        if pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)

    async def _drain_stderr(self, stream: asyncio.StreamReader) -> None:
        while line := await stream.readline():
            self._stderr.append(line.decode("utf-8", "replace").strip()[:200])

    def _sync(self, uri: str, language_id: str, text: str, digest: bytes) -> int:
        """Send `text` as the document's next version; returns that version."""
        self._next_version += 1
        version = self._next_version
        if uri in self._open:
            self._open.move_to_end(uri)
            self._open[uri] = _Open(version, digest)
            self._client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
                )
            )
        else:
            self._open[uri] = _Open(version, digest)
            self._client.text_document_did_open(
                types.DidOpenTextDocumentParams(
                    text_document=types.TextDocumentItem(
                        uri=uri, language_id=language_id, version=version, text=text
                    )
                )
            )
            while len(self._open) > _OPEN_DOCUMENTS:
                oldest, _ = self._open.popitem(last=False)
                self._client.text_document_did_close(
                    types.DidCloseTextDocumentParams(
                        text_document=types.TextDocumentIdentifier(uri=oldest)
                    )
                )
        return version

    async def _pulled(self, uri: str) -> tuple[types.Diagnostic, ...]:
        params = types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            identifier=self._pull_identifier,
        )
        while True:
            try:
                report = await self._guarded(self._client.text_document_diagnostic_async(params))
            except JsonRpcException as exc:
                if getattr(exc, "code", None) in _RETRY_CODES:
                    await asyncio.sleep(0.05)
                    continue
                raise
            if isinstance(report, types.RelatedFullDocumentDiagnosticReport):
                return tuple(report.items)
            # An "unchanged" report can only answer a request that named a previous result.
            return ()

    async def _from_tsserver(self, uri: str) -> tuple[types.Diagnostic, ...]:
        found: list[types.Diagnostic] = []
        for request in _tsserver.REQUESTS:
            params = _tsserver.request_params(request, uri)
            answer = await self._guarded(self._client.workspace_execute_command_async(params))
            found.extend(_tsserver.diagnostics_of(answer))
        return tuple(found)

    async def _pushed(self, uri: str, version: int, serial: int) -> tuple[types.Diagnostic, ...]:
        """The push for `version` of `uri` (from a server that sends no version: the first push
        for `uri` after `serial`)."""
        while True:
            current = self._published.get(uri)
            if current is not None and self._answers(current, version, serial):
                return tuple(current.diagnostics)
            await self._next_push()

    @staticmethod
    def _answers(published: _Published, version: int, serial: int) -> bool:
        if published.version is not None:
            return published.version == version
        return published.serial > serial

    async def _next_push(self) -> None:
        """Wait for the server's next push; ServerGone if it dies first."""
        self._ensure_alive()
        self._news.clear()
        news = asyncio.ensure_future(self._news.wait())
        died = asyncio.ensure_future(self._died.wait())
        try:
            await asyncio.wait({news, died}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            news.cancel()
            died.cancel()
        self._ensure_alive()

    async def _guarded(self, request: Any) -> Any:
        """Await a request, failing with ServerGone if the server dies first."""
        self._ensure_alive()
        answer = asyncio.ensure_future(request)
        died = asyncio.ensure_future(self._died.wait())
        try:
            done, _ = await asyncio.wait({answer, died}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            died.cancel()
            if not answer.done():
                answer.cancel()
        if answer not in done:
            raise ServerGone(self._gone or "exited")
        try:
            return answer.result()
        except RuntimeError as exc:
            # pygls fails the requests of a server that exited with RuntimeError.
            raise ServerGone(self._gone or str(exc)) from exc

    def _on_publish(self, params: types.PublishDiagnosticsParams) -> None:
        self._serial += 1
        self._published[params.uri] = _Published(params.version, params.diagnostics, self._serial)
        self._news.set()
