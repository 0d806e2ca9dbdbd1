"""The one command line of `serve`: `python -m edittools.mcp_server` and `edittools serve` parse here."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from edittools import SYNTAX_POLICIES
from edittools.mcp_server._server import serve
from edittools.mcp_server._surfaces import SURFACES
from sandbox import SandboxError

_GIT = "let the tools write under .git/ (refused by default: git runs hooks and config)"
_SYNTAX = "what a change that breaks a file's syntax gets: warn (default), refuse, or off"


def serve_parser(prog: str) -> argparse.ArgumentParser:
    """The arguments of `serve`: the root, the tool surface, deny patterns, the syntax policy."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Serve the edittools file tools to an MCP client over standard input and "
        "output, confined to --root.",
        epilog=f"example: {prog} --root . --surface claude-code",
    )
    parser.add_argument(
        "--root", required=True, help="the workspace directory the tools may touch (required)"
    )
    parser.add_argument(
        "--surface",
        "--dialect",
        dest="surface",
        default="edittools",
        choices=list(SURFACES),
        metavar="NAME",
        help=f"the tool names and parameters to show: {', '.join(SURFACES)} (default: "
        "edittools); --dialect is an older spelling",
    )
    parser.add_argument(
        "--deny",
        action="append",
        default=[],
        metavar="PATTERN",
        help="gitignore-style pattern the tools may not touch (repeatable)",
    )
    parser.add_argument("--syntax-check", choices=SYNTAX_POLICIES, default="warn", help=_SYNTAX)
    parser.add_argument("--allow-git-writes", action="store_true", help=_GIT)
    return parser


def serve_command(
    argv: Sequence[str] | None = None, *, prog: str = "python -m edittools.mcp_server"
) -> int:
    """Parse `argv` and serve until the client disconnects; a bad root exits with status 2."""
    parser = serve_parser(prog)
    args = parser.parse_args(argv)
    try:
        serve(
            args.root,
            surface=args.surface,
            deny=args.deny,
            syntax_check=args.syntax_check,
            allow_git_writes=args.allow_git_writes,
        )
    except SandboxError as exc:  # the root cannot be opened: say so, without a traceback
        parser.exit(2, f"{parser.prog}: error: {exc.message}\n")
    return 0
