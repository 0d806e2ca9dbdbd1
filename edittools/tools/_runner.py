"""The one place where tool failures become error results, and every result is journaled."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from edittools._errors import ToolError
from edittools._workspace import Workspace
from edittools.artifacts import StreamEvent, ToolResult
from edittools.artifacts._build import error_result
from edittools.tools._catalog import TOOLS
from sandbox import SandboxError

# Sandbox codes that read differently at the tool level; the rest pass through unchanged.
_SANDBOX_CODES = {
    "stale": "stale_read",
    "loop": "invalid_arguments",
    "invalid_path": "invalid_arguments",
    "blob_missing": "io_error",
    "blob_corrupt": "io_error",
}


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
    spec = TOOLS.get(name)
    if spec is None:
        known = ", ".join(TOOLS)
        return error_result("invalid_arguments", f"There is no tool {name!r}. Tools: {known}.")
    try:
        params = spec.params.model_validate(arguments)
    except ValidationError as exc:
        return error_result(
            "invalid_arguments",
            f"The arguments of {name} are not valid: {_explain(exc)}. Fix them and call again.",
            {"errors": exc.errors(include_url=False, include_context=False, include_input=False)},
        )
    try:
        return spec.function(ws, params)
    except ToolError as exc:
        return error_result(exc.code, exc.message, exc.detail)
    except SandboxError as exc:
        code = _SANDBOX_CODES.get(exc.code, exc.code)
        return error_result(code, exc.message, {"path": exc.path})
    except PermissionError as exc:
        return error_result("permission", f"The operating system refused access: {exc}.")
    except OSError as exc:
        return error_result("io_error", f"The operation failed: {exc}. The file is unchanged.")


def _explain(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors(include_url=False):
        where = ".".join(str(part) for part in error["loc"]) or "arguments"
        parts.append(f"{where}: {error['msg']}")
    return "; ".join(parts)
