"""`format_file`: a file's text through the project's formatter, or the same text and a note."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from edittools.formatting._detect import Formatter, find_formatter
from edittools.formatting._programs import find_program
from edittools.formatting._run import Ran, run

_BOM = "\ufeff"


@dataclass(frozen=True, slots=True)
class Formatted:
    """A file's text after the project's formatter, and what happened on the way."""

    text: str
    """The formatted text; the text as given when nothing formatted it."""
    formatter: str | None
    """The formatter the project configures for the file (`ruff`, `prettier`, ...); None when
    it configures none, and then nothing ran."""
    changed: bool = False
    """Whether the formatter's output differs from the text given."""
    note: str | None = None
    """Why the formatter's output was not taken (missing, failed, out of time), as a sentence."""
    seconds: float = 0.0
    """How long the formatter ran."""


def format_file(
    root: Path, path: Path, text: str, *, budget: float, env: Mapping[str, str] | None = None
) -> Formatted:
    """`text`, the content of `path` under `root`, as the project's formatter writes it.

    The formatter reads `text` on stdin and the file on disk is never touched, so it may hold
    another version or not exist. It runs for at most `budget` seconds; when it is missing,
    fails (a syntax error it cannot parse, a bad config) or runs out of time, the text comes
    back as given with a note: formatting never raises. `env` is the formatter's environment
    (this process's by default); its `PATH` is searched after this interpreter's scripts and
    the project's `node_modules/.bin`. CRLF text and a byte-order mark are kept: the formatter
    sees LF text without the mark, and its output gets both back.
    """
    root = root.resolve()
    path = path if path.is_absolute() else root / path
    formatter = find_formatter(root, path)
    if formatter is None:
        return Formatted(text, None)
    env = dict(os.environ if env is None else env)
    folder = _existing(path.parent, root)
    program = find_program(formatter.program, root=root, folder=folder, env=env)
    if program is None:
        return Formatted(text, formatter.name, note=_missing(formatter, root))
    crlf = _is_crlf(text)
    bom = text.startswith(_BOM)
    plain = text.removeprefix(_BOM).replace("\r\n", "\n")
    env.setdefault("NO_COLOR", "1")  # notes quote stderr; escape codes would be noise there
    ran = run(
        [program, *formatter.args],
        stdin=plain.encode("utf-8"),
        cwd=folder,
        env=env,
        budget=budget,
    )
    failure = _failure(formatter, ran, budget)
    if failure is None:
        try:
            output = ran.stdout.decode("utf-8")
        except UnicodeDecodeError:
            failure = f"{formatter.name} wrote text that is not UTF-8"
    if failure is not None:
        return Formatted(text, formatter.name, note=f"{failure}: {_KEPT}", seconds=ran.seconds)
    if not output.strip() and plain.strip():
        note = f"{formatter.name} wrote nothing for a file that is not empty: {_KEPT}"
        return Formatted(text, formatter.name, note=note, seconds=ran.seconds)
    if crlf:
        output = output.replace("\r\n", "\n").replace("\n", "\r\n")
    if bom and not output.startswith(_BOM):
        output = _BOM + output
    return Formatted(output, formatter.name, changed=output != text, seconds=ran.seconds)


_KEPT = "the text is kept as it was, unformatted."


def _failure(formatter: Formatter, ran: Ran, budget: float) -> str | None:
    """Why a run gave no usable output, or None when it did."""
    if ran.error is not None:
        return f"{formatter.name} could not be started ({ran.error})"
    if ran.returncode is None:
        return f"{formatter.name} ran over its budget of {budget:g} s and was stopped"
    if ran.returncode != 0:
        said = _first_line(ran.stderr.decode("utf-8", errors="replace"))
        return f"{formatter.name} failed (exit {ran.returncode}{': ' + said if said else ''})"
    return None


def _missing(formatter: Formatter, root: Path) -> str:
    try:
        config = formatter.config.relative_to(root).as_posix()
    except ValueError:
        config = formatter.config.name
    return (
        f"{formatter.name} is configured ({config}) but `{formatter.program}` is not installed "
        "where the project runs or on PATH: the text is kept as it was, unformatted."
    )


def _first_line(stderr: str) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return lines[0][:200] if lines else ""


def _is_crlf(text: str) -> bool:
    """Whether most of `text`'s line ends are CRLF."""
    crlf = text.count("\r\n")
    return crlf > 0 and crlf * 2 >= text.count("\n")


def _existing(folder: Path, root: Path) -> Path:
    """`folder`, or its nearest ancestor that exists (a new file's folder may not yet)."""
    while not folder.is_dir() and folder != root and root in folder.parents:
        folder = folder.parent
    return folder if folder.is_dir() else root
