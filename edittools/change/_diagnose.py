"""The project's checkers on a change (`diagnostics` policy): the problems the change introduced
and resolved in the exact text it writes, asked before the commit so that `refuse` can refuse."""

from __future__ import annotations

from edittools._errors import ToolError
from edittools.artifacts import Diagnostic as Finding
from edittools.artifacts import DiffPayload
from edittools.change._call import Call
from edittools.diagnostics import Diagnostic, DiagnosticsOutcome, describe_outcome
from edittools.state import Workspace

_SEVERITY = {"error": "error", "warning": "warning", "information": "info", "hint": "info"}


def diagnosed(
    ws: Workspace, call: Call, path: str, old: str | bytes | None, new: str | bytes | None,
    *, may_refuse: bool = True,
) -> DiagnosticsOutcome | None:  # fmt: skip
    """What the change of `path` from `old` to `new` did to the project's diagnostics; None when
    no checker is asked (policy `off`, not text, over `syntax_max_bytes`).

    Under `refuse`, a change that introduces an error raises `diagnostics_error` (call this before
    writing: the file is untouched); `may_refuse=False` (an undo) only reports.
    """
    checkers = call.checkers
    if checkers is None or ws.options.diagnostics == "off" or not isinstance(new, str):
        return None
    if len(new) > ws.options.syntax_max_bytes:
        return None
    before = old if isinstance(old, str) else None
    where = ws.sandbox.root / path
    earlier = checkers.collect(where)  # what an earlier change's check had not answered yet
    outcome = checkers.check(where, before, new, budget=ws.options.diagnostics_budget)
    if earlier is not None and (told := describe_outcome(earlier)):
        said = f"The earlier change of {path}, checked since:\n{told}"
        outcome = outcome.model_copy(update={"notes": (*outcome.notes, said)})
    if not (outcome.checked or outcome.pending or outcome.notes):
        return None
    errors = [d for d in outcome.introduced if d.severity == "error"]
    if errors and ws.options.diagnostics == "refuse" and may_refuse:
        raise ToolError(
            "diagnostics_error",
            f"The change would introduce {len(errors)} error(s) in {path}; it was not written "
            f"and {path} is unchanged. Fix them and call again.\n" + describe_outcome(outcome),
            {"path": path, "diagnostics": [d.model_dump(mode="json") for d in errors]},
        )
    return outcome


def diagnostics_note(outcome: DiagnosticsOutcome | None) -> str:
    """The lines the model reads after the change's sentence; empty when there is nothing."""
    if outcome is None:
        return ""
    text = describe_outcome(outcome)
    if not text:
        return ""
    if outcome.introduced:
        text = f"Diagnostics the change introduced ({', '.join(outcome.checkers)}):\n{text}"
    return "\n" + text


def with_diagnostics(payload: DiffPayload, outcome: DiagnosticsOutcome | None) -> DiffPayload:
    """The payload with the diagnostics the change introduced, on their lines."""
    if outcome is None or not outcome.introduced:
        return payload
    found = [*payload.diagnostics, *map(_finding, outcome.introduced)]
    return payload.model_copy(update={"diagnostics": found})


def _finding(diagnostic: Diagnostic) -> Finding:
    code = f"{diagnostic.code} " if diagnostic.code else ""
    return Finding(
        line=diagnostic.line,
        column=diagnostic.column,
        end_line=diagnostic.end_line,
        message=f"{code}{diagnostic.message}",
        severity=_SEVERITY[diagnostic.severity],  # type: ignore[arg-type]
        source=diagnostic.source,
    )
