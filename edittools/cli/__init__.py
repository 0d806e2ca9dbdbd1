"""The `edittools` command: preview diffs, run the tools from a shell, serve them over MCP.

Each subcommand parses its arguments, makes one library call and renders the result; errors are
caught in exactly one place (`main`) and become exit status 2 with a one-line message.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from edittools.cli import _demo, _tools, _views, _watch
from sandbox import SandboxError

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="edittools",
        description="Safe file tools for coding agents, and views of the diffs they make.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in (_demo, _views, _tools, _watch):
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        return 130
    except (OSError, ValueError, SandboxError) as exc:
        print(f"edittools: {_message(exc)}", file=sys.stderr)
        return 2


def _message(exc: BaseException) -> str:
    """One sentence for the person at the shell; an OSError names its file without `[Errno N]`."""
    if isinstance(exc, OSError) and exc.strerror and exc.filename is not None:
        return f"cannot open {exc.filename}: {exc.strerror}."
    return str(exc)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
