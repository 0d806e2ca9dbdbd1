"""Diagnostics asked of typescript-language-server's tsserver, as LSP diagnostics.

typescript-language-server pushes nothing when a file stays clean and pushes a file's
diagnostics in up to three parts, so a push cannot say a version is checked. Its
`typescript.tsserverRequest` command reaches tsserver's synchronous diagnostics requests, which
answer for the document as it is now: a pull.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

COMMAND = "typescript.tsserverRequest"
REQUESTS = ("syntacticDiagnosticsSync", "semanticDiagnosticsSync")
"""tsserver's requests for a file's syntax and type errors (suggestions are hints, left out)."""

_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "suggestion": types.DiagnosticSeverity.Hint,
    "message": types.DiagnosticSeverity.Information,
}


def request_params(request: str, uri: str) -> types.ExecuteCommandParams:
    """The `workspace/executeCommand` that sends tsserver `request` for the document `uri`."""
    return types.ExecuteCommandParams(command=COMMAND, arguments=[request, {"file": uri}])


def diagnostics_of(answer: object) -> list[types.Diagnostic]:
    """The diagnostics in tsserver's answer (its `body`), as LSP diagnostics."""
    body = answer.get("body") if isinstance(answer, dict) else None
    if not isinstance(body, list):
        return []
    return [_diagnostic(item) for item in body if isinstance(item, dict)]


def _diagnostic(item: dict[str, Any]) -> types.Diagnostic:
    """A tsserver diagnostic (1-based line and offset) as an LSP one."""

    def position(place: Any) -> types.Position:
        place = place if isinstance(place, dict) else {}
        line, offset = int(place.get("line", 1)), int(place.get("offset", 1))
        return types.Position(line=max(line - 1, 0), character=max(offset - 1, 0))

    code = item.get("code")
    return types.Diagnostic(
        range=types.Range(start=position(item.get("start")), end=position(item.get("end"))),
        message=str(item.get("text", "")),
        severity=_SEVERITY.get(str(item.get("category")), types.DiagnosticSeverity.Error),
        code=code if isinstance(code, (int, str)) else None,
        source="typescript",
    )
