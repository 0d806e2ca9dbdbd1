"""The one command line of `serve`: `python -m edittools.mcp_server` and `edittools serve` parse here."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from edittools import (
    DIAGNOSTICS_POLICIES,
    FORMAT_POLICIES,
    STALE_POLICIES,
    STATE_DIR_HELP,
    SYNTAX_POLICIES,
    SessionOptions,
)
from edittools.mcp_server._http import check_auth, parse_address, read_tokens
from edittools.mcp_server._images import MAX_BYTES, MAX_SIDE, ImageLimits
from edittools.mcp_server._server import serve
from edittools.mcp_server._surfaces import SURFACES
from sandbox import SandboxError

_GIT = "let the tools write under .git/ (refused by default: git runs hooks and config)"
_SYNTAX = "what a change that breaks a file's syntax gets: warn (default), refuse, or off"
_DIAGNOSTICS = (
    "the problems the project's own checkers (language servers it configures) find that a "
    "change introduced: report (default), refuse a change that introduces errors, or off"
)
_FORMAT = "project: run each change through the formatter the project configures (default: off)"
_STALE = (
    "a change of a file that changed since it was read: made when it does not meet what "
    "changed (region, default), refused (file), or made on the file as it is (off)"
)


def serve_parser(prog: str) -> argparse.ArgumentParser:
    """The arguments of `serve`: the root, the tool surface, deny patterns, the policies and
    where state is kept."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Serve the edittools file tools to an MCP client over standard input and "
        "output (or over HTTP with --http), confined to --root.",
        epilog=f"example: {prog} --root . --surface claude-code --no-require-read",
    )
    defaults = SessionOptions()
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
    _policy_arguments(parser, defaults)
    parser.add_argument(
        "--max-file-bytes",
        type=_positive,
        default=defaults.max_file_bytes,
        metavar="N",
        help=f"largest file the tools load whole (default: {defaults.max_file_bytes})",
    )
    parser.add_argument(
        "--inline-texts",
        action="store_true",
        help="put a change's full old and new texts in every result (default: by reference, "
        "as edittools://blob/{id} resources)",
    )
    parser.add_argument(
        "--image-max-side",
        type=_positive,
        default=MAX_SIDE,
        metavar="PX",
        help=f"scale images sent to the model to this longest side (default: {MAX_SIDE})",
    )
    parser.add_argument(
        "--image-max-bytes",
        type=_positive,
        default=MAX_BYTES,
        metavar="N",
        help=f"largest image sent to the model, in bytes (default: {MAX_BYTES})",
    )
    parser.add_argument("--state-dir", default=None, metavar="DIR", help=STATE_DIR_HELP)
    parser.add_argument(
        "--structure",
        action="store_true",
        help="also offer the tools by structure and anchor (symbols, read_symbol, edit_symbol, "
        "edit_lines; our surface only)",
    )
    _http_arguments(parser)
    return parser


def _policy_arguments(parser: argparse.ArgumentParser, defaults: SessionOptions) -> None:
    """The policies of the session's changes: checks, staleness, reads, matching."""
    parser.add_argument("--syntax-check", choices=SYNTAX_POLICIES, default="warn", help=_SYNTAX)
    parser.add_argument(
        "--diagnostics", choices=DIAGNOSTICS_POLICIES, default=defaults.diagnostics,
        help=_DIAGNOSTICS,
    )  # fmt: skip
    parser.add_argument("--format", choices=FORMAT_POLICIES, default=defaults.format, help=_FORMAT)
    parser.add_argument("--allow-git-writes", action="store_true", help=_GIT)
    parser.add_argument("--stale", choices=STALE_POLICIES, default=defaults.stale, help=_STALE)
    parser.add_argument(
        "--require-read",
        action=argparse.BooleanOptionalAction,
        default=defaults.require_read,
        help="changing an existing file requires reading it first (default: on)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="edits match old_string exactly: no tolerance for whitespace, newlines or quotes",
    )


def _http_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `serve --http`: where, who may call (tokens, origins), who each caller is."""
    http = parser.add_argument_group("HTTP (instead of standard input and output)")
    http.add_argument(
        "--http",
        metavar="[HOST:]PORT",
        default=None,
        help="serve MCP over streamable HTTP at http://HOST:PORT/mcp, for any number of clients "
        "(HOST defaults to 127.0.0.1; PORT 0 picks a free port, printed on standard error)",
    )
    http.add_argument(
        "--token-file",
        metavar="FILE",
        default=None,
        help="require a token kept in FILE as 'Authorization: Bearer TOKEN' on every request "
        "(a token is required on every address, loopback too: without this option one is made "
        "and printed once on standard error). FILE holds one token a line, each optionally "
        "followed by a space and the agent its requests are: 'TOKEN reviewer' (an agent no "
        "other token can speak as)",
    )
    http.add_argument(
        "--agent-per-session",
        action="store_true",
        help="make each MCP session its own agent (the declared name and the session's id), so "
        "a read counts only in the session that made it; by default a request is the agent its "
        "token is mapped to, else the name its client declares, as over stdio",
    )
    http.add_argument(
        "--no-auth",
        action="store_true",
        help="ask no token: anyone who can reach the port, another user of this machine too, "
        "may change files as you (loopback addresses only)",
    )
    http.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a browser origin (scheme://host:port) allowed to call besides the server's own "
        "(repeatable)",
    )


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number")
    return value


def options_of(args: argparse.Namespace) -> SessionOptions:
    """The session options `serve`'s parsed arguments ask for."""
    return SessionOptions(
        require_read=args.require_read,
        tolerant=not args.strict,
        max_file_bytes=args.max_file_bytes,
        syntax_check=args.syntax_check,
        diagnostics=args.diagnostics,
        format=args.format,
        allow_git_writes=args.allow_git_writes,
        stale=args.stale,
    )


def serve_command(
    argv: Sequence[str] | None = None, *, prog: str = "python -m edittools.mcp_server"
) -> int:
    """Parse `argv` and serve until the client disconnects; a bad root exits with status 2."""
    parser = serve_parser(prog)
    args = parser.parse_args(argv)
    try:
        tokens = read_tokens(args.token_file) if args.token_file else None
        if args.http is not None:
            check_auth(parse_address(args.http), tokens=tokens, no_auth=args.no_auth)
        if args.structure and args.surface != "edittools":
            raise ValueError(f"--structure adds our own tools: not on --surface {args.surface}")
    except ValueError as exc:
        parser.error(str(exc))
    try:
        serve(
            args.root,
            surface=args.surface,
            deny=args.deny,
            options=options_of(args),
            inline_texts=args.inline_texts,
            image_limits=ImageLimits(max_side=args.image_max_side, max_bytes=args.image_max_bytes),
            state_dir=args.state_dir,
            transport="stdio" if args.http is None else "http",
            listen=args.http or "127.0.0.1:8000",
            tokens=tokens,
            no_auth=args.no_auth,
            allow_origins=args.allow_origin,
            structure=args.structure,
            agent_per_session=args.agent_per_session,
        )
    except SandboxError as exc:  # the root cannot be opened: say so, without a traceback
        parser.exit(2, f"{parser.prog}: error: {exc.message}\n")
    return 0
