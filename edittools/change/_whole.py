"""Changes given as whole new contents (write, undo, rewind, reject): checked, committed together,
and diffed, in one place.

A tool plans each file's new bytes under its locks (`Whole`); `execute_all` owns the rest: the
syntax check (a refusal before anything is written), the commit of every file or none, the diff
of each with its refs and its diagnostics.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from edittools.artifacts import DiffPayload, ToolResult
from edittools.artifacts.builders import diff_result
from edittools.change._call import Call
from edittools.change._commit import (
    commit_all,
    digest,
    syntax_note,
    text_or_bytes,
    vet,
    wants_texts,
    with_refs,
    with_syntax,
)
from edittools.change._diagnose import diagnosed, diagnostics_note, with_diagnostics
from edittools.change._format import Formatting, formatted
from edittools.change._sentence import summary
from edittools.diagnostics import DiagnosticsOutcome
from edittools.diff import diff_texts
from edittools.state import Change, Workspace
from edittools.syntax import SyntaxCheck
from sandbox import ABSENT, FileWrite, SandboxError, Version, decode


@dataclass(frozen=True)
class Whole:
    """One file's new content in full, planned under its lock over what the file holds now."""

    path: str
    before: bytes | None
    """What the file holds now (None: it does not exist)."""
    version: Version | None
    """The version `before` was read at (None with `before`)."""
    after: bytes | None
    """The new content (None removes the file)."""
    restores: bool = False
    """The change puts back what the file held before: a broken syntax is noted, never refused,
    and the formatter does not run."""


@dataclass(frozen=True)
class Done:
    """One file's change as committed: its diff (refs and diagnostics on it) and its check."""

    payload: DiffPayload
    check: SyntaxCheck | None
    version: Version | None
    """The new version (None for a removal, or in a dry run)."""
    formatting: Formatting | None = None
    diagnostics: DiagnosticsOutcome | None = None

    @property
    def note(self) -> str:
        """What the model's text gains after the change's sentence: what the formatter did, a
        syntax warning, the diagnostics the change introduced and resolved."""
        shown = "" if self.formatting is None else self.formatting.describe()
        return shown + syntax_note(self.check) + diagnostics_note(self.diagnostics)

    def said(self, headline: str) -> str:
        """The change's sentence (`headline` names what was done; the payload's path follows,
        then its counts), then its note."""
        return summary(headline, self.payload) + self.note

    def result(self, headline: str) -> ToolResult:
        """A one-file change's result: its sentence (`said`) over its diff."""
        return diff_result(self.said(headline), self.payload)


def execute_all(
    ws: Workspace, call: Call, planned: Sequence[Whole], *, undoes: Change | None = None
) -> list[Done]:
    """Check every planned change, commit them all or none, and diff each.

    The caller holds the files' locks. `undoes` is the change an undo takes back.
    """
    formatting = [_formatted(ws, p) for p in planned]
    planned = [p for p, _ in formatting]
    texts = [(text_or_bytes(p.before), text_or_bytes(p.after)) for p in planned]
    checks = [
        vet(ws, p.path, old, new, may_refuse=not p.restores)
        for p, (old, new) in zip(planned, texts, strict=True)
    ]
    found = [
        diagnosed(ws, call, p.path, old, new, may_refuse=not p.restores)
        for p, (old, new) in zip(planned, texts, strict=True)
    ]
    writes = [FileWrite(p.path, p.after, p.version or ABSENT, base=p.before) for p in planned]
    versions = commit_all(ws, call, writes, undoes=undoes)
    done = []
    for p, (old, new), check, version, (_, shown), outcome in zip(
        planned, texts, checks, versions, formatting, found, strict=True
    ):
        include = wants_texts(ws, len(p.before or b""), len(p.after or b""))
        payload = diff_texts(old, new, path=p.path, include_texts=include)
        payload = with_refs(ws, payload, digest(p.version), digest(version))
        payload = with_diagnostics(with_syntax(payload, check), outcome)
        done.append(Done(payload, check, version, shown, outcome))
    return done


def _formatted(ws: Workspace, planned: Whole) -> tuple[Whole, Formatting | None]:
    """The planned change with its new text run through the project's formatter (`formatted`)."""
    if planned.restores or planned.after is None or ws.options.format == "off":
        return planned, None
    try:
        document = decode(planned.after)
    except SandboxError:
        return planned, None  # not text: no formatter reads it
    changed, shown = formatted(ws, planned.path, document)
    if changed is document:
        return planned, shown
    return replace(planned, after=changed.encode()), shown
