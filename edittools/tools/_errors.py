"""The error the tools' pure logic raises; the tool layer turns it into an error ToolResult.

Every error carries a stable `code`, never renamed or reused. The matching and patch logic
raises these:

- `no_match`: `old_string` was not found; the message shows the closest lines of the file.
- `ambiguous_match`: `old_string` was found in more than one place and `replace_all` was not set.
- `no_change`: the edit would leave the text as it is.
- `invalid_patch`: the patch text is not a well-formed unified diff or Codex-style patch.
- `patch_conflict`: a hunk's context was not found in the file it updates.
- `invalid_arguments`: the call's arguments cannot be used as given.

The tool layer also reports `not_found`, `outside_root`, `denied`, `is_directory`, `binary`,
`undecodable`, `too_large`, `not_read`, `stale_read` and `io_error`; those codes are accepted too.
"""

from __future__ import annotations

from typing import Any

CODES = frozenset(
    {
        "ambiguous_match",
        "binary",
        "denied",
        "invalid_arguments",
        "invalid_patch",
        "io_error",
        "is_directory",
        "no_change",
        "no_match",
        "not_found",
        "not_read",
        "outside_root",
        "patch_conflict",
        "stale_read",
        "too_large",
        "undecodable",
    }
)


class ToolError(Exception):
    """A failure a tool reports to the agent: a stable code, a next-step message and details."""

    def __init__(self, code: str, message: str, detail: dict[str, Any] | None = None) -> None:
        if code not in CODES:
            raise ValueError(f"unknown tool error code: {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail

    def __repr__(self) -> str:
        return f"ToolError({self.code!r}, {self.message!r})"
