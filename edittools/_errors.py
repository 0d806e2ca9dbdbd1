"""The tools' error type, and the stable codes every error result carries.

Tools raise `ToolError`; the diff engine raises `DiffError` and the sandbox `SandboxError` from
below. The tool runner turns all three, pydantic `ValidationError` and `OSError` into an error
`ToolResult` in exactly one place, through the translations here (`ToolError.from_sandbox`,
`ToolError.from_validation`, `ToolError.result`); a failure nothing foresaw is `internal_error`
(the runner's last resort, and the MCP server's). Codes are never renamed or reused:

```
ToolError
 ├─ invalid_arguments  the call's arguments cannot be used as given (wrong types, missing fields, ...)
 ├─ not_found          the file does not exist
 ├─ outside_root       the path leads outside the workspace root
 ├─ denied             the path is covered by a deny pattern or is the project's state folder
 ├─ protected          a write in a repository's own folder (unless git writes are allowed)
 ├─ is_directory       a directory was given where a file is needed
 ├─ not_a_directory    a file was given where a directory is needed
 ├─ not_empty          a directory still has entries, so it was not removed
 ├─ not_a_file         a FIFO, socket or device was given where a regular file is needed
 ├─ binary             the file is binary; text tools cannot show or change it
 ├─ undecodable        the bytes do not round-trip through any text encoding
 ├─ unencodable        the new text cannot be written in the file's encoding
 ├─ too_large          the file or the requested window is over a cap
 ├─ not_read           the file must be read in this session before it is changed
 ├─ stale_read         the file changed since this session last read it
 ├─ stale              a rewind or a reject no longer fits: the file changed outside the tools
 ├─ exists             a file to be created already exists
 ├─ busy               another process holds the file (or the state) past the wait; retry later
 ├─ no_match           `old_string` (or a patch's context) was not found
 ├─ ambiguous_match    `old_string` was found in several places and `replace_all` was not set
 ├─ no_change          the change would leave the file as it is
 ├─ invalid_patch      the patch text is not a well-formed unified diff or Codex-style patch
 ├─ patch_conflict     a hunk's context was not found in the file it updates
 ├─ syntax_error       the change would break the file's syntax (policy `syntax_check: refuse`)
 ├─ diagnostics_error  the change would introduce errors the project's checkers report (`diagnostics: refuse`)
 ├─ nothing_to_undo    this session has no earlier version of the file
 ├─ cancelled          the call was cancelled before its change was committed; nothing changed
 ├─ unknown_ref        a blob id (`old_ref`, `new_ref`, an attachment) names no stored content
 ├─ permission         the operating system refused access
 ├─ state_unavailable  the state folder (outside the root) cannot be created; choose another
 ├─ state_corrupt      the state folder holds a damaged database or blob, a link or a special file
 ├─ io_error           any other operating-system failure (and a journal that cannot be written)
 └─ internal_error     a failure the tools did not foresee (a bug, not bad input)
```
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from edittools.artifacts import ToolResult
from edittools.artifacts.builders import error_result
from sandbox import SandboxError

CODES: frozenset[str] = frozenset(
    {
        "ambiguous_match",
        "binary",
        "busy",
        "cancelled",
        "denied",
        "diagnostics_error",
        "exists",
        "invalid_arguments",
        "internal_error",
        "invalid_patch",
        "io_error",
        "is_directory",
        "no_change",
        "no_match",
        "not_a_directory",
        "not_a_file",
        "not_empty",
        "not_found",
        "not_read",
        "nothing_to_undo",
        "outside_root",
        "patch_conflict",
        "permission",
        "protected",
        "stale",
        "stale_read",
        "syntax_error",
        "state_corrupt",
        "state_unavailable",
        "too_large",
        "undecodable",
        "unencodable",
        "unknown_ref",
    }
)

SANDBOX_CODES: Mapping[str, str] = {
    "outside_root": "outside_root",
    "denied": "denied",
    "protected": "protected",
    "permission": "permission",
    "not_found": "not_found",
    "not_a_file": "not_a_file",
    "is_directory": "is_directory",
    "not_a_directory": "not_a_directory",
    "not_empty": "not_empty",
    "too_large": "too_large",
    "stale": "stale_read",
    "exists": "exists",
    "busy": "busy",
    "loop": "invalid_arguments",
    "invalid_path": "invalid_arguments",
    "binary": "binary",
    "undecodable": "undecodable",
    "unencodable": "unencodable",
    "io_error": "io_error",
    "blob_missing": "io_error",
    "blob_corrupt": "state_corrupt",
    "state_unavailable": "state_unavailable",
    "state_corrupt": "state_corrupt",
}
"""The tool code each sandbox code reads as (a lost compare-and-swap is a stale read, a
malformed or looping path is a bad argument, a missing blob is an I/O failure, a damaged one is
damaged state)."""


class ToolError(Exception):
    """A failure a tool reports to the agent: a stable code, a next-step message and details."""

    def __init__(self, code: str, message: str, detail: dict[str, Any] | None = None) -> None:
        if code not in CODES:
            raise ValueError(f"unknown tool error code: {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail

    @classmethod
    def from_sandbox(cls, exc: SandboxError) -> ToolError:
        """The sandbox's refusal, under the code the tools report for it."""
        code = SANDBOX_CODES.get(exc.code, "io_error")
        return cls(code, exc.message, {"path": exc.path})

    @classmethod
    def from_validation(cls, tool: str, exc: ValidationError) -> ToolError:
        """Arguments that do not fit `tool`'s input model, each misfit named by where it is."""
        parts = []
        for error in exc.errors(include_url=False):
            where = ".".join(str(part) for part in error["loc"]) or "arguments"
            parts.append(f"{where}: {error['msg']}")
        return cls(
            "invalid_arguments",
            f"The arguments of {tool} are not valid: {'; '.join(parts)}. Fix them and call again.",
            {"errors": exc.errors(include_url=False, include_context=False, include_input=False)},
        )

    def result(self) -> ToolResult:
        """This error as the error result an agent receives."""
        return error_result(self.code, self.message, self.detail)

    def __repr__(self) -> str:
        return f"ToolError({self.code!r}, {self.message!r})"
