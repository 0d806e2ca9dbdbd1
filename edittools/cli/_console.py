"""The consoles the commands print to: colour only on a terminal, never with NO_COLOR."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console


def console() -> Console:
    """A console on standard output; rich turns colour off when piped or with NO_COLOR.

    A reader that stops early (`| head`) reaches the command line's one catch place as the
    BrokenPipeError it is, which ends quietly with 0: rich's own handling exits with 1.
    """
    from rich.console import Console  # rich takes a tenth of a second to load: only when used

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True  # nothing more is written to the closed pipe
            raise BrokenPipeError

    return _Console(highlight=False, soft_wrap=True)


def print_json(data: Any) -> None:
    """One JSON document on one line of standard output.

    Text that has no UTF-8 form (a lone surrogate: raw arguments echoed back, a file name of
    undecodable bytes) comes out as JSON escapes, so the line is still valid JSON.
    """
    import json

    line = json.dumps(data, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(data)
    sys.stdout.write(line + "\n")


@contextmanager
def busy(out: Console | None, message: str, *, long: bool) -> Iterator[None]:
    """A transient spinner on a terminal while `long` work runs; nothing at all when piped."""
    if not (long and out is not None and out.is_terminal):
        yield
        return
    with out.status(message):
        yield
