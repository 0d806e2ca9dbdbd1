"""`python -m edittools.mcp_server --root DIR [--dialect NAME] [--deny PATTERN ...]`: serve over stdio."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from edittools.mcp_server._server import serve
from edittools.mcp_server._surfaces import DIALECTS
from sandbox import SandboxError


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line and serve until the client disconnects."""
    parser = argparse.ArgumentParser(
        prog="python -m edittools.mcp_server",
        description="Serve the edittools file tools over MCP (stdio), confined to --root.",
    )
    parser.add_argument("--root", required=True, help="the workspace directory the tools may touch")
    parser.add_argument(
        "--dialect",
        default="edittools",
        choices=list(DIALECTS),
        help="tool names and parameters to show (default: edittools)",
    )
    parser.add_argument(
        "--deny",
        action="append",
        default=[],
        metavar="PATTERN",
        help="gitignore-style pattern the tools may not touch (repeatable)",
    )
    args = parser.parse_args(argv)
    try:
        serve(args.root, dialect=args.dialect, deny=args.deny)
    except SandboxError as exc:  # the root cannot be opened: say so, without a traceback
        parser.exit(2, f"{parser.prog}: error: {exc.message}\n")


if __name__ == "__main__":
    main()
