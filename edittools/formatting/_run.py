"""One formatter run: the text on stdin, the formatted text on stdout, within a budget.

The child leads its own process group, so a budget that runs out kills it and whatever it
started (a wrapper script's interpreter, a node process) at once: no orphan outlives the call.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

_REAP = 2.0  # seconds to collect a killed group's pipes; a child that left the group may hold them


@dataclass(frozen=True, slots=True)
class Ran:
    """What a formatter run gave: its output, or why there is none."""

    stdout: bytes
    stderr: bytes
    returncode: int | None
    """None when the run was stopped at its budget or could not start."""
    seconds: float
    error: str | None = None
    """Why the program could not be started (an `OSError`'s message)."""


def run(
    argv: Sequence[str], *, stdin: bytes, cwd: Path, env: Mapping[str, str], budget: float
) -> Ran:
    """Run `argv` in `cwd` with `stdin`, killing it (and its group) after `budget` seconds."""
    start = time.monotonic()
    try:
        child = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=dict(env),
            start_new_session=os.name == "posix",
        )
    except OSError as exc:
        return Ran(b"", b"", None, time.monotonic() - start, exc.strerror or str(exc))
    try:
        out, err = child.communicate(stdin, timeout=max(budget, 0.0))
    except subprocess.TimeoutExpired:
        _kill(child)
        return Ran(b"", b"", None, time.monotonic() - start)
    return Ran(out, err, child.returncode, time.monotonic() - start)


def _kill(child: subprocess.Popen[bytes]) -> None:
    """Kill `child`'s process group (the child alone elsewhere) and reap it."""
    if os.name == "posix":
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(child.pid, signal.SIGKILL)
    else:
        child.kill()
    try:
        child.communicate(timeout=_REAP)
    except subprocess.TimeoutExpired:
        # A descendant that left the group still holds a pipe: close ours and stop waiting.
        for pipe in (child.stdin, child.stdout, child.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        child.wait()
