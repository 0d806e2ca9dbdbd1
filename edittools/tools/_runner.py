"""The one place where tool failures become error results, and every result is journaled."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from edittools._errors import ToolError
from edittools._workspace import Workspace
from edittools.artifacts import StreamEvent, ToolResult
from edittools.diff import DiffError
from edittools.tools._catalog import OPERATIONS
from sandbox import SandboxError


def run_tool(
    ws: Workspace, name: str, arguments: Mapping[str, Any] | Any, *, dry_run: bool = False
) -> ToolResult:
    """Validate `arguments`, run tool `name`, and turn any failure into an error result.

    Never raises for bad input: unknown tools, wrong argument types, refused paths and
    operating-system failures all come back as results with `is_error` and a stable code.
    A dry run computes the change and its diff, writes nothing and is not journaled.
    """
    ws.dry_run = dry_run
    try:
        result = _run(ws, name, arguments)
    finally:
        ws.dry_run = False
    if dry_run:
        if not result.is_error:
            value = f"[dry run: nothing was written]\n{result.value}"
            result = result.model_copy(update={"value": value})
        return result
    ws.journal(
        StreamEvent(
            id=ws.next_event_id(name),
            name=name,
            display=result.display,
            value=result.value,
            is_error=result.is_error,
            artifact=result.artifact,
        )
    )
    return result


def _run(ws: Workspace, name: str, arguments: Mapping[str, Any] | Any) -> ToolResult:
    try:
        return _call(ws, name, arguments)
    except ToolError as exc:
        return exc.result()


def _call(ws: Workspace, name: str, arguments: Mapping[str, Any] | Any) -> ToolResult:
    """Run the tool, raising every failure as a `ToolError`."""
    spec = OPERATIONS.get(name)
    if spec is None:
        known = ", ".join(OPERATIONS)
        raise ToolError("invalid_arguments", f"There is no tool {name!r}. Tools: {known}.")
    try:
        params = spec.params.model_validate(arguments)
    except ValidationError as exc:
        raise ToolError.from_validation(name, exc) from exc
    try:
        return spec.function(ws, params)
    except SandboxError as exc:
        raise ToolError.from_sandbox(exc) from exc
    except DiffError as exc:  # the tools diff texts they hold: a failure here is a bug
        raise ToolError(
            "internal_error",
            f"The change could not be diffed ({exc.message}). Read the file to see its state "
            "before trying again.",
            {"diff_code": exc.code},
        ) from exc
    except PermissionError as exc:
        raise ToolError("permission", f"The operating system refused access: {exc}.") from exc
    except OSError as exc:
        raise ToolError("io_error", f"The operation failed: {exc}. The file is unchanged.") from exc
