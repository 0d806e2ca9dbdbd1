"""What the faces show of the session options: the syntax-check policies and the state folder's help.

Kept apart from `SessionOptions` (a dataclass, whose module takes longer to import than a small
diff takes to run) so that a command line builds its parsers without loading it.
"""

from __future__ import annotations

from typing import Literal, get_args

SyntaxPolicy = Literal["warn", "refuse", "off"]
SYNTAX_POLICIES: tuple[str, ...] = get_args(SyntaxPolicy)
"""What a change that breaks its file's syntax gets: a warning, a refusal, or no check."""

StalePolicy = Literal["region", "file", "off"]
STALE_POLICIES: tuple[str, ...] = get_args(StalePolicy)
"""How a change of a file that changed since the session read it is judged: by the lines it
touches (`region`), by the whole file (`file`), or not at all (`off`)."""

FormatPolicy = Literal["off", "project"]
FORMAT_POLICIES: tuple[str, ...] = get_args(FormatPolicy)
"""Whether a change is run through the formatter the project configures (`project`) or not."""

DiagnosticsPolicy = Literal["report", "refuse", "off"]
DIAGNOSTICS_POLICIES: tuple[str, ...] = get_args(DiagnosticsPolicy)
"""What the diagnostics a change introduced get: reported, a refusal (errors), or no check."""

STATE_DIR_HELP = (
    "where to keep the tools' state (read records, journal, undo history), outside the root "
    "(default: $EDITTOOLS_STATE_DIR, else $XDG_STATE_HOME/edittools, else "
    "~/.local/state/edittools)"
)
"""The help text of every command's `--state-dir` (a `Session(state_dir=...)` in the library)."""
