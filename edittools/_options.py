"""Session options: policies and limits, in one immutable record."""

from __future__ import annotations

from dataclasses import dataclass

from edittools._choices import (
    DIAGNOSTICS_POLICIES,
    FORMAT_POLICIES,
    STALE_POLICIES,
    DiagnosticsPolicy,
    FormatPolicy,
    StalePolicy,
    SyntaxPolicy,
)

MiB = 1024 * 1024
SCAN_CHUNK = 2 * MiB
"""Bytes a streamed pass over a file larger than the cap reads at a time (three buffers of this
are the most one pass holds). Small enough that a buffer is still in the processor's cache when
the search, the line count and the hash go over it after the read (8 MiB buffers cost a quarter
more CPU time a pass)."""


@dataclass(frozen=True)
class SessionOptions:
    """Policies and limits of a session.

    `require_read` makes write/edit/undo of an existing file require an earlier read in the session;
    `tolerant` allows the tolerant matching tiers of `edit` when the exact match fails.
    `syntax_check` says what a change that breaks the file's syntax gets: a warning in its result
    (`warn`), a `syntax_error` refusal that writes nothing (`refuse`), or no check (`off`); files
    over `syntax_max_bytes` are not checked, and a check stops after `syntax_budget` seconds of
    parsing (the change is still made; its result says it was not checked). `allow_git_writes`
    lifts the rule that refuses writes under `.git/` (git runs hooks and reads its config as code,
    so a tool writing there can make git run code); `allow_readonly_writes` lifts the rule that
    refuses to replace or remove a file the caller could not write in place (a read-only file, or
    another user's). A diff artifact carries its full old and new texts inline only when both together
    are at most `inline_text_bytes`; it refers to them by id anyway.
    `checkpoint_on_start` takes a checkpoint when the session opens (reused when nothing changed
    since the newest one); tools that only look at checkpoints turn it off.
    A file over `max_file_bytes` is edited by a streamed scan that reads `scan_chunk_bytes` at a
    time. A call waits at most `lock_timeout` seconds for a file another process is changing,
    then fails with `busy` (a stopped or hung holder cannot hang every other caller).
    `stale` judges a change of a file that changed since the session read it: `region` makes an
    edit, insert or patch whose lines do not meet what changed (the read content kept, up to
    `baseline_bytes`) on the file as it is now and says what else changed; `file` refuses it
    (`stale_read`); `off` changes the file as it is. `write` replaces the whole file: stale under
    `region` and `file` alike. `agent` names who makes the session's calls: it is kept with each
    change, and a refusal or note about a change made by another session names it.
    `refuse_placeholders` refuses a change whose new text holds an omission placeholder the old
    text does not (`# ... existing code ...`): written literally, it deletes the code it stands
    for. `format` runs a changed file through the formatter its project configures (`project`),
    for at most `format_budget` seconds, as part of the same change. `diagnostics` reports the
    problems the project's checkers (language servers) find that a change introduced or
    resolved (`report`), refuses a change that introduces errors (`refuse`), or asks none
    (`off`); a change waits at most `diagnostics_budget` seconds for them.
    """

    require_read: bool = True
    tolerant: bool = True
    allow_git_writes: bool = False
    allow_readonly_writes: bool = False
    max_file_bytes: int = 64 * MiB
    read_line_limit: int = 2000
    read_line_chars: int = 2000
    read_output_chars: int = 200_000
    inline_text_bytes: int = 64 * 1024
    baseline_bytes: int = 16 * MiB
    journal: bool = True
    syntax_check: SyntaxPolicy = "warn"
    syntax_max_bytes: int = 1 * MiB
    syntax_budget: float = 0.25
    checkpoint_on_start: bool = True
    scan_chunk_bytes: int = SCAN_CHUNK
    lock_timeout: float = 5.0
    stale: StalePolicy = "region"
    agent: str | None = None
    refuse_placeholders: bool = True
    format: FormatPolicy = "off"
    format_budget: float = 5.0
    diagnostics: DiagnosticsPolicy = "report"
    diagnostics_budget: float = 2.0

    def __post_init__(self) -> None:
        if self.stale not in STALE_POLICIES:
            raise ValueError(
                f"unknown stale policy {self.stale!r}; choose one of: region, file, off"
            )
        if self.format not in FORMAT_POLICIES:
            raise ValueError(f"unknown format policy {self.format!r}; choose one of: off, project")
        if self.diagnostics not in DIAGNOSTICS_POLICIES:
            raise ValueError(
                f"unknown diagnostics policy {self.diagnostics!r}; choose one of: report, refuse, off"
            )
