"""A real child process to kill in crash tests: it runs one tool action and exits."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any


def fork_running(action: Callable[[], bool], *, rename_pause: float = 0.0) -> int:
    """Fork a process that runs `action` (True: the tool refused) and exits; return its pid.

    Exit status 0 means done, 3 refused, 1 raised. With `rename_pause` (seconds) the child waits
    that long before and after each rename, so that a kill aimed at the renames lands on either
    side of them even on a fast disk and a busy machine (the order of operations is unchanged).
    """
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        status = 1
        try:
            if rename_pause:
                rename = os.rename

                def slow_rename(*args: Any, **kwargs: Any) -> None:
                    time.sleep(rename_pause)
                    rename(*args, **kwargs)
                    time.sleep(rename_pause)

                os.rename = slow_rename
            status = 3 if action() else 0
        finally:
            os._exit(status)
    return pid
