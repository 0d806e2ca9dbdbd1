"""The one place where tool failures become error results, and every result is journaled.

Nothing escapes a call: a failure of the journal itself, or an exception no tool expected (a bug),
also comes back as an error result, so an agent always gets a `ToolResult`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from edittools._errors import SANDBOX_CODES, ToolError
from edittools.artifacts import StreamEvent, ToolResult
from edittools.artifacts.builders import by_reference, error_result
from edittools.change import Call, Progress
from edittools.diagnostics import Checkers
from edittools.diff import DEFAULT_BUDGET, DiffError, shared_budget
from edittools.state import Workspace
from edittools.tools._catalog import OPERATIONS
from sandbox import SandboxError

_log = logging.getLogger(__name__)


def run_tool(
    ws: Workspace,
    name: str,
    arguments: Mapping[str, Any] | Any,
    *,
    dry_run: bool = False,
    cancel: threading.Event | None = None,
    agent: str | None = None,
    progress: Progress | None = None,
    checkers: Checkers | None = None,
) -> ToolResult:
    """Validate `arguments`, run tool `name`, and turn any failure into an error result.

    Never raises: unknown tools, wrong argument types, refused paths, operating-system failures,
    a journal that cannot be written and exceptions no tool expected all come back as results
    with `is_error` and a stable code. A dry run computes the change and its diff, writes nothing
    and is not journaled. Once `cancel` is set, a change not yet committed stops (`cancelled`).
    `agent` names who makes the call (default: the session's `agent` option). `progress` is told
    how far a pass over a large file has gone (`Call.pass_over`). `checkers` are the session's
    language servers, asked for a change's diagnostics.
    """
    actor = agent or ws.options.agent
    call = Call(dry_run=dry_run, cancel=cancel, actor=actor, progress=progress, checkers=checkers)
    result = _run(ws, name, arguments, call)
    if call.unkept and not result.is_error:
        note = "; ".join(call.unkept)
        value = f"{result.value}\nNote: the change was made, but could not keep {note}."
        result = result.model_copy(update={"value": value})
    if dry_run:
        if not result.is_error:
            value = f"[dry run: nothing was written]\n{result.value}"
            result = result.model_copy(update={"value": value})
        return result
    kept = by_reference(result)  # the texts are in the blob store already: journal their ids
    event = StreamEvent(
        id=ws.next_event_id(name),
        name=name,
        display=kept.display,
        value=kept.value,
        is_error=kept.is_error,
        artifact=kept.artifact,
    )
    try:
        ws.journal(
            event, call.shown, call.actor
        )  # a read's window by reference to the content it showed
    except (SandboxError, OSError) as exc:
        spec = OPERATIONS.get(name)
        return _unjournaled(result, exc, read_only=spec is not None and spec.read_only)
    return result


def _unjournaled(result: ToolResult, exc: SandboxError | OSError, *, read_only: bool) -> ToolResult:
    """The error result for a call whose result could not be journaled; the result is kept.

    It says what the call did (a read changed nothing) and carries the journal's own failure as
    its code: `busy` (retry) and `state_corrupt` (move the state aside) ask for different acts.
    """
    reason = exc.message if isinstance(exc, SandboxError) else str(exc)
    if result.is_error:
        outcome = "failed"
    elif read_only:
        outcome = "succeeded and changed nothing"
    else:
        outcome = "succeeded and its change was made"
    cause = exc.code if isinstance(exc, SandboxError) else "io_error"
    code = SANDBOX_CODES.get(cause, "io_error")
    advice = "" if code in ("busy", "state_corrupt") else " Fix or move the state folder."
    message = (
        f"The call {outcome}, but its result could not be written to the journal: {reason}"
        f"{advice} The result follows."
    )
    detail = {"cause": cause, "result": result.model_dump(mode="json", by_alias=True)}
    return error_result(code, message, detail, value=f"Error ({code}): {message}\n{result.value}")


def _run(ws: Workspace, name: str, arguments: Mapping[str, Any] | Any, call: Call) -> ToolResult:
    try:
        return _call(ws, name, arguments, call)
    except ToolError as exc:
        return exc.result()


def _call(ws: Workspace, name: str, arguments: Mapping[str, Any] | Any, call: Call) -> ToolResult:
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
        with shared_budget(DEFAULT_BUDGET):  # one diff budget per call, however many files
            return spec.function(ws, params, call)
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
    except ToolError:
        raise
    except Exception as exc:  # a bug: still a result, never a traceback at the agent
        _log.exception("edittools: tool %s failed unexpectedly", name)
        raise ToolError(
            "internal_error",
            f"{name} failed unexpectedly ({type(exc).__name__}: {exc}). This is a fault in the "
            "tool, not in the call; read the file to see its state before trying another way.",
            {"exception": type(exc).__name__},
        ) from exc
