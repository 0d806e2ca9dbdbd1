"""The model's text of a diagnostics outcome: one line per introduced problem, then the rest."""

from __future__ import annotations

from edittools.diagnostics._model import Diagnostic, DiagnosticsOutcome

DEFAULT_LIMIT = 10


def describe_diagnostic(diagnostic: Diagnostic) -> str:
    """`L12:5 F401 `os` imported but unused [ruff]`: position, code, first line of the message."""
    message = diagnostic.message.strip().splitlines()[0] if diagnostic.message.strip() else ""
    code = f" {diagnostic.code}" if diagnostic.code else ""
    return f"L{diagnostic.line}:{diagnostic.column}{code} {message} [{diagnostic.source}]"


def describe_outcome(outcome: DiagnosticsOutcome, *, limit: int = DEFAULT_LIMIT) -> str:
    """The lines the model reads about a change's diagnostics; empty when there is nothing to say.

    At most `limit` introduced diagnostics are listed, then a count of the rest; resolved ones
    take one line; a pending check says "not yet checked" and that the next read or change
    reports it. Notes follow, one line each.
    """
    lines = [describe_diagnostic(item) for item in outcome.introduced[:limit]]
    if len(outcome.introduced) > limit:
        lines.append(f"... and {len(outcome.introduced) - limit} more")
    if outcome.resolved:
        shown = ", ".join(
            f"L{item.line} {item.code or item.message.strip().splitlines()[0][:40]} [{item.source}]"
            for item in outcome.resolved[:limit]
        )
        more = len(outcome.resolved) - limit
        rest = f" and {more} more" if more > 0 else ""
        lines.append(f"Resolved {len(outcome.resolved)}: {shown}{rest}")
    if outcome.pending:
        lines.append(
            f"Not yet checked by {', '.join(outcome.waiting_for)}: the next read or change "
            f"reports its diagnostics."
        )
    lines.extend(outcome.notes)
    return "\n".join(lines)
