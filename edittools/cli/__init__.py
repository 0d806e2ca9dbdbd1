"""The `edittools` command: preview diffs, run the tools from a shell, serve them over MCP.

Each subcommand parses its arguments, makes one library call and renders the result; errors are
caught in exactly one place (`main`) and become exit status 2 with a one-line message.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from collections.abc import Sequence
from typing import Any

from edittools.cli import _demo, _review, _tools, _views, _watch

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="edittools",
        description="Safe file tools for coding agents, and views of the diffs they make.",
    )
    parser.add_argument(
        "--version", action=_Version, nargs=0, help="print the version of edittools and exit"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in (_demo, _views, _tools, _review, _watch):
        module.register(sub)
    for command in sub.choices.values():
        # Docstrings are the descriptions: drop their indentation so paragraphs stay apart
        # and the example lines up with the text.
        command.description = inspect.cleandoc(command.description or "")
    return parser


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
    args = _parser().parse_args(argv)
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        if not _trouble(exc):
            raise
        print(f"edittools: {_message(exc)}", file=sys.stderr)
        return 2


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
    sys.exit(main())
