"""Commands that run the tools from a shell: read, write, edit, apply-patch, undo, log, serve."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from edittools import SYNTAX_POLICIES, Session
from edittools.artifacts import ChangesetArtifact, DiffArtifact, ToolResult
from edittools.cli._console import console, print_json
from edittools.render import render_result

_RAW = argparse.RawDescriptionHelpFormatter
_SYNTAX_HELP = "a change that breaks a file's syntax: warn (default), refuse it, or off"


def register(sub: Any) -> None:
    """Add the tool commands to the parser."""
    p = _tool_parser(sub, "read", cmd_read)
    p.add_argument("path")
    p.add_argument("--offset", type=int, default=1, help="first line to show (1-based)")
    p.add_argument("--limit", type=int, default=2000, help="number of lines to show")

    p = _tool_parser(sub, "write", cmd_write, changes=True)
    p.add_argument("path")
    p.add_argument("content", nargs="?", help="the new content (default: standard input)")

    p = _tool_parser(sub, "edit", cmd_edit, changes=True)
    p.add_argument("path")
    p.add_argument("old_string")
    p.add_argument("new_string")
    p.add_argument("--replace-all", action="store_true", help="replace every occurrence")

    p = _tool_parser(sub, "apply-patch", cmd_apply_patch, changes=True)
    p.add_argument("patch", help="a patch file, or - for standard input")

    p = _tool_parser(sub, "undo", cmd_undo)
    p.add_argument("path")

    p = sub.add_parser(
        "log",
        help="list the changes in a sandbox's journal",
        description=cmd_log.__doc__,
        formatter_class=_RAW,
    )
    p.add_argument("--root", type=Path, required=True, help="the sandbox directory")
    p.set_defaults(run=cmd_log)

    # `serve` hands its arguments to the server's own parser (the one definition of them);
    # building that parser here would import the MCP SDK for every command. The unused prefix
    # character keeps this parser from reading `--root` and the rest as options of its own.
    p = sub.add_parser(
        "serve",
        help="serve the tools over MCP (stdio); see `edittools serve --help`",
        add_help=False,
        prefix_chars="\0",
    )
    p.add_argument("arguments", nargs="*")
    p.set_defaults(run=cmd_serve)


def _tool_parser(sub: Any, name: str, run: Any, *, changes: bool = False) -> Any:
    p = sub.add_parser(name, help=(run.__doc__ or "").splitlines()[0], description=run.__doc__,
                       formatter_class=_RAW)  # fmt: skip
    p.add_argument("--root", type=Path, default=Path("."), help="the sandbox directory")
    p.add_argument("--json", action="store_true", help="print the ToolResult as JSON")
    if changes:
        p.add_argument("--dry-run", action="store_true", help="show the diff, write nothing")
        p.add_argument("--syntax-check", choices=SYNTAX_POLICIES, default="warn", help=_SYNTAX_HELP)
    p.set_defaults(run=run)
    return p


def _session(args: argparse.Namespace) -> Session:
    # A person at a shell knows the file they change: no read-before-write here. Concurrent
    # writers are still caught by the compare-and-swap write.
    policy = getattr(args, "syntax_check", "warn")
    return Session(args.root, require_read=False, syntax_check=policy)


def _run(args: argparse.Namespace, name: str, arguments: dict[str, Any]) -> int:
    with _session(args) as session:
        result = session.call(name, arguments, dry_run=getattr(args, "dry_run", False))
    _show(args, result)
    return 1 if result.is_error else 0


def _show(args: argparse.Namespace, result: ToolResult) -> None:
    if args.json:
        print_json(result.model_dump(mode="json", by_alias=True))
    elif isinstance(result.artifact, DiffArtifact | ChangesetArtifact) and not result.is_error:
        out = console()
        out.print(result.value.splitlines()[0], markup=False)
        render_result(result, out)
    else:
        sys.stdout.write(result.value + "\n")


def cmd_read(args: argparse.Namespace) -> int:
    """Print a file's lines numbered, as the read tool shows them to a model.

    example: edittools read --root . src/app.py --offset 100 --limit 20
    """
    return _run(args, "read", {"path": args.path, "offset": args.offset, "limit": args.limit})


def cmd_write(args: argparse.Namespace) -> int:
    """Create or replace a file (content from the argument or standard input); shows the diff.

    example: echo 'print(1)' | edittools write --root . hello.py
    """
    content = args.content if args.content is not None else sys.stdin.read()
    return _run(args, "write", {"path": args.path, "content": content})


def cmd_edit(args: argparse.Namespace) -> int:
    """Replace a string in a file, as the edit tool does; shows the diff.

    example: edittools edit --root . src/app.py 'DEBUG = True' 'DEBUG = False' --dry-run
    """
    arguments = {
        "path": args.path,
        "old_string": args.old_string,
        "new_string": args.new_string,
        "replace_all": args.replace_all,
    }
    return _run(args, "edit", arguments)


def cmd_apply_patch(args: argparse.Namespace) -> int:
    """Apply a unified diff or Codex-style patch, all files or none; shows the diffs.

    example: git diff | edittools apply-patch --root ../other-checkout -
    """
    patch = sys.stdin.read() if args.patch == "-" else Path(args.patch).read_text()
    return _run(args, "apply_patch", {"patch": patch})


def cmd_undo(args: argparse.Namespace) -> int:
    """Undo the last change the tools made to a file in this sandbox.

    example: edittools undo --root . src/app.py
    """
    return _run(args, "undo", {"path": args.path})


def cmd_log(args: argparse.Namespace) -> int:
    """List the changes journaled in a sandbox, one line per file with `+N -M`.

    example: edittools log --root .
    """
    with Session(args.root) as session:
        events = session.journal()
    out = console()
    shown = 0
    for event in events:
        artifact = event.artifact
        payloads = []
        if isinstance(artifact, DiffArtifact):
            payloads = [artifact.payload]
        elif isinstance(artifact, ChangesetArtifact):
            payloads = list(artifact.payload.files)
        for p in payloads:
            status = "error " if event.is_error else ""
            out.print(
                f"{event.id:<24} {event.name:<12} {status}{p.path}  +{p.stats.added} -{p.stats.removed}",
                markup=False,
            )
            shown += 1
    if not shown:
        out.print(f"No changes journaled in {args.root}.", markup=False)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the tools to an MCP client over standard input and output."""
    # The MCP SDK takes most of a second to import: only this command pays for it.
    from edittools.mcp_server import serve_command

    return serve_command(args.arguments, prog="edittools serve")
