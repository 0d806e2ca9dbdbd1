"""The one error type of the tools, and the stable codes every error result carries.

Tools raise `ToolError`; the tool runner turns it (and any `SandboxError`, pydantic `ValidationError` or
`OSError`) into an error `ToolResult` in exactly one place. Codes are never renamed or reused:

```
ToolError
 ├─ invalid_arguments  the call's arguments cannot be used as given (wrong types, missing fields, ...)
 ├─ not_found          the file does not exist
 ├─ outside_root       the path leads outside the workspace root
 ├─ denied             the path is covered by a deny pattern or is the project's state folder
 ├─ is_directory       a directory was given where a file is needed
 ├─ not_a_file         a FIFO, socket or device was given where a regular file is needed
 ├─ binary             the file is binary; text tools cannot show or change it
 ├─ undecodable        the bytes do not round-trip through any text encoding
 ├─ unencodable        the new text cannot be written in the file's encoding
 ├─ too_large          the file or the requested window is over a cap
 ├─ not_read           the file must be read in this session before it is changed
 ├─ stale_read         the file changed since this session last read it
 ├─ exists             a file to be created already exists
 ├─ no_match           `old_string` (or a patch's context) was not found
 ├─ ambiguous_match    `old_string` was found in several places and `replace_all` was not set
 ├─ no_change          the change would leave the file as it is
 ├─ invalid_patch      the patch text is not a well-formed unified diff or Codex-style patch
 ├─ patch_conflict     a hunk's context was not found in the file it updates
 ├─ nothing_to_undo    this session has no earlier version of the file
 ├─ permission         the operating system refused access
 └─ io_error           any other operating-system failure
```
"""

from __future__ import annotations

from typing import Any

CODES: frozenset[str] = frozenset(
    {
        "ambiguous_match",
        "binary",
        "denied",
        "exists",
        "invalid_arguments",
        "invalid_patch",
        "io_error",
        "is_directory",
        "no_change",
        "no_match",
        "not_a_file",
        "not_found",
        "not_read",
        "nothing_to_undo",
        "outside_root",
        "patch_conflict",
        "permission",
        "stale_read",
        "too_large",
        "undecodable",
        "unencodable",
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
