"""Run the `edittools` command as a real child process: piped, or on a pseudo-terminal."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]

# Variables that change how rich decides on colour, width or terminal-ness: the tests set the
# ones they mean and inherit none.
_TERMINAL_VARS = (
    "FORCE_COLOR",
    "NO_COLOR",
    "TERM",
    "COLUMNS",
    "LINES",
    "TTY_COMPATIBLE",
    "TTY_INTERACTIVE",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "JUPYTER_COLUMNS",
)
ESC = "\x1b"


def child_env(**extra: str) -> dict[str, str]:
    """The environment of a child run: the project on the path, no inherited terminal hints."""
    env = {k: v for k, v in os.environ.items() if k not in _TERMINAL_VARS}
    env["PYTHONPATH"] = str(PROJECT)
    env.update(extra)
    return env


def run(
    *args: str | os.PathLike[str],
    stdin: str | None = None,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """`python -m edittools.cli ARGS` with standard input, output and error piped."""
    return subprocess.run(
        [sys.executable, "-m", "edittools.cli", *map(str, args)],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        cwd=cwd,
        env=child_env(**(env or {})),
        timeout=120,
    )


def run_python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python -c CODE` in `cwd` with the project on the path, output and error captured."""
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=child_env(),
        timeout=120,
        check=False,
    )


def run_tty(
    *args: str | os.PathLike[str], env: dict[str, str] | None = None, columns: int = 100
) -> tuple[int, str]:
    """`python -m edittools.cli ARGS` with its output on a pseudo-terminal; (status, output)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "edittools.cli", *map(str, args)],
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=slave,
        env=child_env(TERM="xterm-256color", **(env or {})),
    )
    os.close(slave)
    chunks: list[bytes] = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    status = proc.wait(timeout=120)
    return status, b"".join(chunks).decode("utf-8", errors="replace")
