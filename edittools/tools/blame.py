"""Who last changed each line of a file, from the history the tools kept (`Session.blame`).

The path's changes are walked oldest first (changes later undone are left out: their lines are
gone). Lines a change added are its actor's; lines that appeared between two changes, or since
the last one, were changed outside the tools; lines no change touched were never changed
through the tools. Where a content of the history is no longer kept, its lines are unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from edittools._errors import ToolError
from edittools.change import hunks, kept_text, line_count, text_or_bytes
from edittools.state import Workspace
from sandbox import SandboxError

Kind = Literal["tools", "outside", "never", "unknown"]


@dataclass(frozen=True)
class Origin:
    """Where a line comes from: a change made through the tools (`change`, its `actor` and
    `when`), a change outside them, no change at all, or a history no longer kept."""

    kind: Kind
    actor: str | None = None
    when: float | None = None
    change: int | None = None


@dataclass(frozen=True)
class BlameLine:
    """One line of the file as it is, numbered from 1, and its origin."""

    number: int
    text: str
    origin: Origin


_OUTSIDE = Origin("outside")
_NEVER = Origin("never")
_UNKNOWN = Origin("unknown")


def blame(ws: Workspace, path: str) -> list[BlameLine]:
    """Each line of `path` with the change that last made it what it is."""
    path = ws.sandbox.relpath(path)
    try:
        now, _ = ws.sandbox.read_bytes(path, max_bytes=ws.options.max_file_bytes)
    except SandboxError as exc:
        raise ToolError.from_sandbox(exc) from exc
    current = text_or_bytes(now)
    if isinstance(current, bytes):
        raise ToolError(
            "binary", f"{path} is not text, so it has no lines to blame.", {"path": path}
        )
    content: str | None = None
    origins: list[Origin] = []
    history = ws.history(path)
    if history and history[0].before_blob is not None:
        content = kept_text(ws, history[0].before_blob)
        origins = [_NEVER if content is not None else _UNKNOWN] * line_count(content or "")
    elif history:
        content = ""
    for change in history:
        before = "" if change.before_blob is None else kept_text(ws, change.before_blob)
        if before is None:  # not kept: what this change made of the file cannot be told
            content = None
        else:
            if content is None:
                content, origins = before, [_UNKNOWN] * line_count(before)
            content, origins = before, _carried(content, before, origins, _OUTSIDE)
        after = "" if change.after_digest is None else kept_text(ws, change.after_digest)
        if after is None or content is None:
            content = None
            continue
        made = Origin("tools", change.actor, change.when, change.id)
        content, origins = after, _carried(content, after, origins, made)
    if content is None:
        content, origins = current, [_UNKNOWN] * line_count(current)
    elif not history:
        content, origins = current, [_NEVER] * line_count(current)
    origins = _carried(content, current, origins, _OUTSIDE)
    lines = current.split("\n")
    if current.endswith("\n"):
        lines.pop()
    return [
        BlameLine(k, text, o)
        for k, (text, o) in enumerate(zip(lines, origins, strict=True), start=1)
    ]


def _carried(old: str, new: str, origins: list[Origin], made: Origin) -> list[Origin]:
    """The origins of `new`'s lines: those `old` had where the lines stayed, `made` for the
    lines the change from `old` to `new` added."""
    out: list[Origin] = []
    at = 1
    for h in hunks(old, new):
        first = h.old_start if h.old_lines else h.old_start + 1
        out += origins[at - 1 : first - 1]
        out += [made] * line_count(h.new)
        at = first + h.old_lines
    out += origins[at - 1 :]
    return out
