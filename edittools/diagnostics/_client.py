"""pygls' language client as the checks use it: what it announces, and how it answers a server.

The client announces pull diagnostics (a server that offers them is asked, not waited for),
versioned pushes, and positions in UTF-32 or UTF-16. It answers `workspace/configuration` with a
spec's fallback settings, and every other request a server may send with null.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.protocol import default_converter

_IGNORED = (
    types.CLIENT_REGISTER_CAPABILITY,
    types.CLIENT_UNREGISTER_CAPABILITY,
    types.WINDOW_WORK_DONE_PROGRESS_CREATE,
    types.WINDOW_SHOW_MESSAGE_REQUEST,
    types.WORKSPACE_DIAGNOSTIC_REFRESH,
    types.WORKSPACE_SEMANTIC_TOKENS_REFRESH,
    types.WORKSPACE_INLAY_HINT_REFRESH,
    types.WORKSPACE_CODE_LENS_REFRESH,
    types.WINDOW_LOG_MESSAGE,
    types.WINDOW_SHOW_MESSAGE,
    types.PROGRESS,
    types.TELEMETRY_EVENT,
    "$/typescriptVersion",
)
"""Messages servers send that the checks have no use for (pygls would log each as unknown)."""


def _converter() -> Any:
    """pygls' converter, with the notebook sync options a server announces left out.

    lsprotocol 2025.0.0 cannot read a notebook selector that names only cells (ruff announces
    one), and nothing here synchronizes notebooks.
    """
    converter = default_converter()  # type: ignore[no-untyped-call]
    for option in (
        types.NotebookDocumentSyncOptions,
        types.NotebookDocumentSyncRegistrationOptions,
    ):
        converter.register_structure_hook(option, lambda value, _type: None)
    return converter


class Client(LanguageClient):
    """pygls' language client, told of pushed diagnostics and of its server process's exit."""

    def __init__(
        self,
        *,
        on_publish: Callable[[types.PublishDiagnosticsParams], None],
        on_exit: Callable[[int | None], None],
        settings: Mapping[str, object],
    ) -> None:
        super().__init__("edittools", "1", converter_factory=_converter)
        self._on_exit = on_exit

        # pygls marks each handler function with its method: each needs a function of its own.
        def publish(params: types.PublishDiagnosticsParams) -> None:
            on_publish(params)

        def configuration(params: types.ConfigurationParams) -> list[Any]:
            # Only fallbacks: every other setting is the server's default or the project's.
            return [settings.get(item.section or "") for item in params.items]

        self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(publish)
        self.feature(types.WORKSPACE_CONFIGURATION)(configuration)
        for method in _IGNORED:
            self.feature(method)(_ignored())

    async def server_exit(self, server: asyncio.subprocess.Process) -> None:
        self._on_exit(server.returncode)

    @property
    def process(self) -> asyncio.subprocess.Process | None:
        """The server's process once started."""
        return self._server


def initialize_params(root: Path, options: Mapping[str, object]) -> types.InitializeParams:
    """The `initialize` request of a server over `root`, with its initialization `options`."""
    root_uri = root.as_uri()
    return types.InitializeParams(
        process_id=os.getpid(),
        client_info=types.ClientInfo(name="edittools"),
        root_uri=root_uri,
        root_path=str(root),
        workspace_folders=[types.WorkspaceFolder(uri=root_uri, name=root.name)],
        initialization_options=dict(options) or None,
        capabilities=types.ClientCapabilities(
            general=types.GeneralClientCapabilities(
                position_encodings=[
                    types.PositionEncodingKind.Utf32,
                    types.PositionEncodingKind.Utf16,
                ]
            ),
            workspace=types.WorkspaceClientCapabilities(configuration=True, workspace_folders=True),
            text_document=types.TextDocumentClientCapabilities(
                synchronization=types.TextDocumentSyncClientCapabilities(),
                publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                    version_support=True
                ),
                diagnostic=types.DiagnosticClientCapabilities(dynamic_registration=False),
            ),
            window=types.WindowClientCapabilities(work_done_progress=False),
        ),
    )


def _ignored() -> Any:
    """A handler that answers nothing (a request's result is null)."""

    def ignored(params: Any) -> None:
        return None

    return ignored
