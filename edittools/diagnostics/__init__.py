"""Diagnostics of a change from the project's own checkers, through the Language Server Protocol.

`Checkers` owns one session's language servers (ruff and basedpyright for Python,
typescript-language-server, clangd, gopls), started lazily per project root and kept warm until
`close`. `Checkers.check` says which diagnostics a change introduced and which it resolved,
waiting at most its budget; `Checkers.collect` gets what was still pending. `describe_outcome` is
the text the model reads. pygls is imported only when the first server starts.
"""

from edittools.diagnostics._checkers import Checkers, RunningServer
from edittools.diagnostics._compare import split_changes
from edittools.diagnostics._lines import LineMap, identity_map, line_map_from_texts
from edittools.diagnostics._model import Diagnostic, DiagnosticsOutcome, Severity
from edittools.diagnostics._roots import workspace_root
from edittools.diagnostics._servers import SERVERS, ServerSpec, language_of
from edittools.diagnostics._wording import describe_diagnostic, describe_outcome

__all__ = [
    "SERVERS",
    "Checkers",
    "Diagnostic",
    "DiagnosticsOutcome",
    "LineMap",
    "RunningServer",
    "ServerSpec",
    "Severity",
    "describe_diagnostic",
    "describe_outcome",
    "identity_map",
    "language_of",
    "line_map_from_texts",
    "split_changes",
    "workspace_root",
]
