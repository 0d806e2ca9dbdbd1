"""Errors of the diff engine.

DiffError (code)
├── bad input: ``no_content`` (neither side given), ``bad_span`` (a span outside the text or
│   spans that overlap), ``mixed_types`` (str and bytes mixed in one call)
├── ``invalid_patch``: unified diff text that cannot be parsed (``line`` names where)
└── paths given to `diff_files`/`diff_dirs`: ``not_a_file`` (a folder, FIFO, device or socket
    where a file is needed), ``not_a_directory`` (a file where a folder is needed)
"""

from __future__ import annotations

CODES: frozenset[str] = frozenset(
    {"no_content", "bad_span", "mixed_types", "invalid_patch", "not_a_file", "not_a_directory"}
)


class DiffError(ValueError):
    """A diff request that cannot be served; `code` is stable, the message says what to do."""

    def __init__(self, code: str, message: str, *, line: int | None = None) -> None:
        if code not in CODES:
            raise ValueError(f"unknown diff error code: {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line
