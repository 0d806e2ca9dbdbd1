"""The diagnostics models: one problem a checker reported, and what a change did to them.

Models hold data only (no I/O, no wording). Lines and columns are 1-based and count characters
(code points), as the model reads the file; the language servers' 0-based UTF-16 positions are
converted where they are received.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Severity = Literal["error", "warning", "information", "hint"]


class DiagnosticsModel(BaseModel):
    """Base of the package's models: immutable, field docstrings in the JSON Schema."""

    model_config = ConfigDict(frozen=True, use_attribute_docstrings=True)


class Diagnostic(DiagnosticsModel):
    """One problem a checker found in one version of a file."""

    line: int
    """The 1-based line the problem starts on."""
    column: int
    """The 1-based column (in characters) it starts at."""
    end_line: int
    """The 1-based line it ends on."""
    end_column: int
    """The 1-based column just past its end."""
    severity: Severity
    """How bad the checker says it is."""
    code: str | None = None
    """The checker's rule or error code (`F401`, `reportUndefinedVariable`, `2322`), if it gives one."""
    message: str
    """The checker's message, as it wrote it."""
    source: str
    """The checker that reported it: the server's name (`ruff`, `basedpyright`, `clangd`)."""

    def same_problem(self, other: Diagnostic) -> bool:
        """Whether `other` says the same thing (code, message, severity, checker), wherever it is."""
        return (self.code, self.message, self.severity, self.source) == (
            other.code,
            other.message,
            other.severity,
            other.source,
        )


class DiagnosticsOutcome(DiagnosticsModel):
    """What one change did to the file's diagnostics: the ones it introduced and resolved.

    Diagnostics the file had before and still has (moved by the change or not) are in neither
    list. `pending` says some checker has not answered within the budget: a later `collect`
    reports its part. `checkers` names the servers whose answers are in the lists; empty and not
    pending means no checker covers the file (the caller keeps its own syntax check).
    """

    introduced: tuple[Diagnostic, ...] = ()
    """New in the text after the change, sorted by position."""
    resolved: tuple[Diagnostic, ...] = ()
    """Gone from the text after the change, at their lines in the text before."""
    pending: bool = False
    """Some checker has not answered within the budget; `Checkers.collect` gets its answer later."""
    checkers: tuple[str, ...] = ()
    """The servers whose answers are in `introduced` and `resolved`."""
    waiting_for: tuple[str, ...] = ()
    """The servers still checking (when `pending`)."""
    notes: tuple[str, ...] = ()
    """Trouble with the checkers (missing, crashed, hung), each a sentence; never an error."""

    @property
    def checked(self) -> bool:
        """Whether any checker answered for this change."""
        return bool(self.checkers)
