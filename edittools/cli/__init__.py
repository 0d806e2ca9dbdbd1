"""The `edittools` command: preview diffs, run the tools from a shell, serve them over MCP.

Each subcommand parses its arguments, makes one library call and renders the result; errors are
caught in exactly one place (`main`) and become exit status 2 with a one-line message.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import Any, NoReturn

__all__ = ["main", "run"]

_HOMES = {
    "demo": "_demo",
    "diff": "_views",
    "preview": "_views",
    "report": "_views",
    "schema": "_views",
    "read": "_tools",
    "symbols": "_tools",
    "read-symbol": "_tools",
    "write": "_tools",
    "edit": "_tools",
    "edit-symbol": "_tools",
    "edit-lines": "_tools",
    "edit-cell": "_tools",
    "apply-patch": "_tools",
    "undo": "_tools",
    "log": "_tools",
    "blame": "_tools",
    "serve": "_tools",
    "checkpoints": "_review",
    "rewind": "_review",
    "review": "_review",
    "watch": "_watch",
}
"""The module that registers each command: running one command imports and builds only its
module's parsers (the whole set takes longer than a small diff)."""


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of `command`'s module alone when it is one of ours."""
    parser = argparse.ArgumentParser(
        prog="edittools",
        description="Safe file tools for coding agents, and views of the diffs they make.",
    )
    parser.add_argument(
        "--version", action=_Version, nargs=0, help="print the version of edittools and exit"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    homes = [_HOMES[command]] if command in _HOMES else dict.fromkeys(_HOMES.values())
    for home in homes:
        import_module(f"{__name__}.{home}").register(sub)
    for choice in sub.choices.values():
        # Docstrings are the descriptions: drop their indentation so paragraphs stay apart
        # and the example lines up with the text.
        choice.description = _cleandoc(choice.description or "")
    return parser


def _cleandoc(doc: str) -> str:
    """A docstring without its indentation, as ``inspect.cleandoc`` gives it (that module takes
    longer to import than a small diff takes to run)."""
    lines = doc.expandtabs().split("\n")
    margin = min((len(line) - len(line.lstrip()) for line in lines[1:] if line.strip()), default=0)
    return "\n".join([lines[0].lstrip(), *(line[margin:] for line in lines[1:])]).strip("\n")


class _Version(argparse.Action):
    """``--version``: looks the installed version up only when asked (it costs an import)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("edittools")
        except PackageNotFoundError:
            found = "unknown (not installed)"
        sys.stdout.write(f"edittools {found}\n")
        parser.exit()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args = _parser(argv[0] if argv else None).parse_args(argv)
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader stopped early (`| head`): normal for a command whose output is piped. What
        # is still buffered goes nowhere, so the interpreter's last flush raises nothing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:
        if not _trouble(exc):
            raise
        print(f"edittools: {_message(exc)}", file=sys.stderr)
        return 2


def run() -> NoReturn:
    """The `edittools` program: `main`, then the exit, without a last garbage collection.

    The process ends here, so sweeping its objects for cycles (the models, schemas and modules
    the command loaded: tens of milliseconds) would only delay the exit; frozen objects are
    left to the operating system. Exit handlers still run.
    """
    status = main()
    gc.freeze()
    sys.exit(status)


def _trouble(exc: Exception) -> bool:
    """Errors that are the input's or the system's, shown as one line rather than a traceback.

    The sandbox package is loaded only by the commands that use it, so its error can only have
    been raised when it is loaded.
    """
    if isinstance(exc, OSError | ValueError):
        return True
    sandbox = sys.modules.get("sandbox")
    return sandbox is not None and isinstance(exc, sandbox.SandboxError)


def _message(exc: BaseException) -> str:
    """One sentence for the person at the shell; an OSError names its file without `[Errno N]`."""
    if isinstance(exc, OSError) and exc.strerror and exc.filename is not None:
        return f"cannot open {exc.filename}: {exc.strerror}."
    return str(exc)


if __name__ == "__main__":  # pragma: no cover
    run()
