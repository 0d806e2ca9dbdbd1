"""One tool call's own settings and findings, handed to the tool as a value.

The workspace is shared by every call of a session; what belongs to one call (whether it may
write, whether it was cancelled, what a read showed, what a change could not keep) travels in a
`Call` instead, so no call can leave a mode set for the next.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from edittools._errors import ToolError
from edittools.diagnostics import Checkers
from edittools.state import Shown

Progress = Callable[[int, int, str], None]
"""Told `(done, total, message)`: bytes passed, bytes to pass as far as known, and what."""

PROGRESS_EVERY = 0.25
"""Least seconds between two reports of one call's progress."""


@dataclass
class Call:
    """The settings of one call (`dry_run`, `actor`, `cancel`) and what it found (`shown`,
    `unkept`)."""

    dry_run: bool = False
    """Compute the change and its diff, write nothing (`_executor` is the one reader)."""
    actor: str | None = None
    """Who makes the call (an agent's name), kept with its changes; None: not named."""
    cancel: threading.Event | None = None
    """Once set (from another thread), the change stops before its commit (`stop_if_cancelled`);
    a change already committed stands."""
    shown: Shown | None = None
    """What a read showed, as lines of a stored content (the runner journals it by reference)."""
    unkept: list[str] = field(default_factory=list)
    """What the changes could not keep of the replaced files' metadata, as "path: what (why)"."""
    progress: Progress | None = None
    """Told how far the call's passes over large files have gone (`pass_over`); None: nobody."""
    checkers: Checkers | None = None
    """The session's language servers, asked for a change's diagnostics; None: none asked."""
    _passed: int = 0  # bytes of the passes already made, so what is reported only grows
    _told: float = 0.0  # when progress was last told (monotonic seconds)

    @property
    def reader(self) -> str:
        """Whose read records the call uses: its actor's, or the unnamed sessions' ('')."""
        return self.actor or ""

    def pass_over(self, path: str, size: int) -> Callable[[int], None]:
        """The checkpoint of one pass over `size` bytes of `path`: called with the offset the
        pass has reached before each chunk, it stops a cancelled call (`stop_if_cancelled`) and
        tells `progress` the bytes passed so far in this call, at most every `PROGRESS_EVERY`
        seconds."""
        start = self._passed
        self._passed += size

        def checkpoint(offset: int) -> None:
            self.stop_if_cancelled()
            if self.progress is None:
                return
            now = time.monotonic()
            if now - self._told >= PROGRESS_EVERY:
                self._told = now
                self.progress(start + offset, self._passed, f"{path}: {offset:,} of {size:,} bytes")

        return checkpoint

    def stop_if_cancelled(self) -> None:
        """Raise `cancelled` when the call was cancelled."""
        if self.cancel is not None and self.cancel.is_set():
            raise ToolError(
                "cancelled",
                "The call was cancelled before its change was committed: nothing was written.",
            )
