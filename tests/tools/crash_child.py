"""A real child process to kill in crash tests: it runs one tool action and exits."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any


def fork_running(action: Callable[[], bool], *, slow_renames: bool = False) -> int:
    """Fork a process that runs `action` (True: the tool refused) and exits; return its pid.

    Exit status 0 means done, 3 refused, 1 raised. With `slow_renames` each rename in the child
    takes 2 ms longer, so that a kill aimed at the renames lands among them even on a fast disk
    (the order of operations is unchanged).
    """
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        status = 1
        try:
            if slow_renames:
                rename = os.rename

                def slow_rename(*args: Any, **kwargs: Any) -> None:
                    time.sleep(0.002)
                    rename(*args, **kwargs)

                os.rename = slow_rename
            status = 3 if action() else 0
        finally:
            os._exit(status)
    return pid
