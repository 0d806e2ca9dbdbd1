"""Commands that run the tools from a shell: read, symbols, read-symbol, write, edit,
edit-symbol, edit-lines, edit-cell, apply-patch, undo, log, blame, serve.

Every command that takes `--root` also takes `--state-dir` (where that root's state is kept).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from edittools import (  # constants of a light module
    DIAGNOSTICS_POLICIES,
    FORMAT_POLICIES,
    STATE_DIR_HELP,
    SYNTAX_POLICIES,
)
from edittools.cli._console import console, print_json

if TYPE_CHECKING:
    from edittools import Session
    from edittools.artifacts import ToolResult

_RAW = argparse.RawDescriptionHelpFormatter
_GIT_HELP = "let the tools write under .git/ (refused by default: git runs hooks and config)"
_READONLY_HELP = "let the tools replace files you could not write in place (read-only ones)"
_SYNTAX_HELP = "a change that breaks a file's syntax: warn (default), refuse it, or off"
_DIAGNOSTICS_HELP = (
    "the problems the project's own checkers find that a change introduced: report (default), "
    "refuse a change that introduces errors, or off"
)
_FORMAT_HELP = "project: run a change through the formatter the project configures (default: off)"
_NEW_TEXT_HELP = "the new text (default: standard input)"
_CHANGE_AGENT_HELP = "who makes the change: kept with it, named to others"
_READ_AGENT_HELP = "who reads: the read is that agent's, and journaled under its name"


def register(sub: Any) -> None:
    """Add the tool commands to the parser."""
    _register_reads(sub)
    _register_changes(sub)
    _register_records(sub)


def _register_reads(sub: Any) -> None:
    """read, symbols, read-symbol."""
    p = _tool_parser(sub, "read", cmd_read, "print a file's lines numbered")
    p.add_argument("path")
    p.add_argument("--offset", type=int, default=1, help="first line to show (1-based)")
    p.add_argument("--limit", type=int, default=2000, help="number of lines to show")
    p.add_argument(
        "--anchors",
        action="store_true",
        help="tag each line with an anchor (12#a3f|text) for edit-lines",
    )

    p = _tool_parser(sub, "symbols", cmd_symbols, "list a file's definitions with their lines")
    p.add_argument("path")

    p = _tool_parser(sub, "read-symbol", cmd_read_symbol, "print one definition's lines numbered")
    p.add_argument("path")
    p.add_argument("symbol", help="its dotted name (Class.method), last part, or NAME:LINE")


def _register_changes(sub: Any) -> None:
    """write, edit, edit-symbol, edit-lines, edit-cell, apply-patch, undo."""
    p = _tool_parser(sub, "write", cmd_write, "create or replace a file", changes=True)
    p.add_argument("path")
    p.add_argument("content", nargs="?", help="the new content (default: standard input)")
    p.add_argument(
        "--allow-empty",
        action="store_true",
        help="let an empty standard input empty the file (refused without it)",
    )

    p = _tool_parser(sub, "edit", cmd_edit, "replace a string in a file", changes=True)
    p.add_argument("path")
    p.add_argument("old_string")
    p.add_argument("new_string")
    p.add_argument("--replace-all", action="store_true", help="replace every occurrence")

    p = _tool_parser(
        sub, "edit-symbol", cmd_edit_symbol, "replace a definition or add text by it", changes=True
    )
    p.add_argument("path")
    p.add_argument("symbol", help="its dotted name (Class.method), last part, or NAME:LINE")
    p.add_argument("new_text", nargs="?", help=_NEW_TEXT_HELP)
    p.add_argument(
        "--where",
        choices=("replace", "body", "before", "after"),
        default="replace",
        help="replace the definition (default) or its body, or put the text before or after it",
    )

    p = _tool_parser(
        sub, "edit-lines", cmd_edit_lines, "replace the lines between two anchors", changes=True
    )
    p.add_argument("path")
    p.add_argument("start", help="the first line's anchor, as read --anchors shows it (12#a3f)")
    p.add_argument("end", help="the last line's anchor")
    p.add_argument("new_text", nargs="?", help=_NEW_TEXT_HELP)

    p = _tool_parser(
        sub,
        "edit-cell",
        cmd_edit_cell,
        "replace, insert, delete or move a notebook cell",
        changes=True,
    )
    p.add_argument("path")
    p.add_argument("new_text", nargs="?", help="the cell's new source (default: standard input)")
    p.add_argument("--cell", help="the cell's id or 0-based index (insert: the one it follows)")
    p.add_argument(
        "--mode",
        choices=("replace", "insert", "delete", "move"),
        default="replace",
        help="replace the cell's source (default), insert a cell after it, delete or move it",
    )
    p.add_argument("--cell-type", choices=("code", "markdown"), help="the cell's type")
    p.add_argument("--to", type=int, help="move: the 0-based position the cell goes to")

    p = _tool_parser(
        sub, "apply-patch", cmd_apply_patch, "apply a unified diff or patch", changes=True
    )
    p.add_argument("patch", help="a patch file, or - for standard input")
    p.add_argument(
        "-p",
        "--strip",
        type=int,
        default=None,
        metavar="N",
        help="remove N leading components from the file names, as patch -p "
        "(default: git's a/ and b/, then leading folders of names not found)",
    )

    p = _tool_parser(sub, "undo", cmd_undo, "undo the last change to a file", undoes=True)
    p.add_argument("path")


def _register_records(sub: Any) -> None:
    """log, blame, and serve (whose own parser reads its arguments)."""
    p = sub.add_parser(
        "log",
        help="list the changes in a sandbox's journal",
        description=cmd_log.__doc__,
        formatter_class=_RAW,
    )
    p.add_argument("--root", type=Path, required=True, help="the sandbox directory (required)")
    p.add_argument("--state-dir", type=Path, default=None, help=STATE_DIR_HELP)
    p.add_argument("--jsonl", action="store_true",
                   help="export every journaled result as a stream event, one JSON line each")  # fmt: skip
    p.add_argument("--agent", help="only the calls this agent made")
    p.set_defaults(run=cmd_log)

    p = sub.add_parser(
        "blame",
        help="who last changed each line of a file",
        description=cmd_blame.__doc__,
        formatter_class=_RAW,
    )
    p.add_argument("path")
    _root_options(p)
    p.set_defaults(run=cmd_blame)

    # `serve` hands its arguments to the server's own parser (the one definition of them);
    # building that parser here would import the MCP SDK for every command. The unused prefix
    # character keeps this parser from reading `--root` and the rest as options of its own.
    p = sub.add_parser(
        "serve",
        help="serve the tools over MCP (stdio or HTTP)",
        add_help=False,
        prefix_chars="\0",
    )
    p.add_argument("arguments", nargs="*")
    p.set_defaults(run=cmd_serve)


def _root_options(p: Any) -> None:
    """`--root` (the current directory by default) and `--state-dir`."""
    p.add_argument(
        "--root",
        type=Path,
        default=Path("."),
        help="the sandbox directory (default: the current directory)",
    )
    p.add_argument("--state-dir", type=Path, default=None, help=STATE_DIR_HELP)


def _tool_parser(
    sub: Any, name: str, run: Any, summary: str, *, changes: bool = False, undoes: bool = False
) -> Any:
    """A tool command's parser: the root, --json and --agent; with `changes`, the options of a
    change (an undo is a change without them)."""
    p = sub.add_parser(name, help=summary, description=run.__doc__, formatter_class=_RAW)
    _root_options(p)
    p.add_argument("--json", action="store_true", help="print the ToolResult as JSON")
    if changes:
        p.add_argument("--dry-run", action="store_true", help="show the diff, write nothing")
        p.add_argument("--syntax-check", choices=SYNTAX_POLICIES, default="warn", help=_SYNTAX_HELP)
        p.add_argument(
            "--diagnostics", choices=DIAGNOSTICS_POLICIES, default="report", help=_DIAGNOSTICS_HELP
        )
        p.add_argument("--format", choices=FORMAT_POLICIES, default="off", help=_FORMAT_HELP)
        p.add_argument("--allow-git-writes", action="store_true", help=_GIT_HELP)
        p.add_argument("--allow-readonly-writes", action="store_true", help=_READONLY_HELP)
    p.add_argument("--agent", help=_CHANGE_AGENT_HELP if changes or undoes else _READ_AGENT_HELP)
    p.set_defaults(run=run)
    return p


def _session(args: argparse.Namespace) -> Session:
    # A person at a shell knows the file they change: no read-before-write here. Concurrent
    # writers are still caught by the compare-and-swap write.
    from edittools import Session

    policy = getattr(args, "syntax_check", "warn")
    git = getattr(args, "allow_git_writes", False)
    return Session(
        args.root,
        state_dir=args.state_dir,
        require_read=False,
        syntax_check=policy,
        allow_git_writes=git,
        allow_readonly_writes=getattr(args, "allow_readonly_writes", False),
        agent=getattr(args, "agent", None),
        diagnostics=getattr(args, "diagnostics", "report"),
        format=getattr(args, "format", "off"),
    )


def _run(args: argparse.Namespace, name: str, arguments: dict[str, Any]) -> int:
    with _session(args) as session:
        result = session.call(name, arguments, dry_run=getattr(args, "dry_run", False))
    _show(args, result)
    return 1 if result.is_error else 0


def _show(args: argparse.Namespace, result: ToolResult) -> None:
    from edittools.artifacts import ChangesetArtifact, DiffArtifact
    from edittools.render import render_result

    if args.json:
        print_json(result.model_dump(mode="json", by_alias=True))
    elif isinstance(result.artifact, DiffArtifact | ChangesetArtifact) and not result.is_error:
        # The headline (with what the tool noted, e.g. that anchored lines had moved), under
        # the dry-run marker when there is one; the rendered diff shows the rest.
        lines = result.value.splitlines()
        out = console()
        out.print("\n".join(lines[: 2 if lines[0].startswith("[dry run:") else 1]), markup=False)
        render_result(result, out)
    else:
        sys.stdout.write(result.value + "\n")


def _text(data: bytes, source: str) -> str:
    """Bytes from a file or a pipe as text: UTF-8, line endings kept (a CRLF stays a CRLF)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{source} is not UTF-8 text (byte {exc.start}); convert it to UTF-8 first."
        ) from exc


def cmd_read(args: argparse.Namespace) -> int:
    """Print a file's lines numbered, as the read tool shows them to a model.

    example: edittools read --root . src/app.py --offset 100 --limit 20
    """
    arguments: dict[str, Any] = {"path": args.path, "offset": args.offset, "limit": args.limit}
    if args.anchors:
        arguments["anchors"] = True
    return _run(args, "read", arguments)


def cmd_symbols(args: argparse.Namespace) -> int:
    """Print the definitions of a source file: the lines, kind and dotted name of each.

    example: edittools symbols --root . src/app.py
    """
    return _run(args, "symbols", {"path": args.path})


def cmd_read_symbol(args: argparse.Namespace) -> int:
    """Print one definition of a source file as numbered lines, named as symbols lists it.

    example: edittools read-symbol --root . src/app.py Greeter.greet
    """
    return _run(args, "read_symbol", {"path": args.path, "symbol": args.symbol})


def cmd_write(args: argparse.Namespace) -> int:
    """Create or replace a file (content from the argument or standard input); shows the diff.

    An empty standard input is refused unless --allow-empty: an accidental `< /dev/null` must
    not empty a file.

    example: echo 'print(1)' | edittools write --root . hello.py
    """
    if args.content is not None:
        content = args.content
    else:
        content = _text(sys.stdin.buffer.read(), "standard input")
        if not content and not args.allow_empty:
            raise ValueError(
                "Standard input was empty, which would empty the file; "
                "pass --allow-empty if that is what you want."
            )
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


def cmd_edit_symbol(args: argparse.Namespace) -> int:
    """Replace a definition (or with --where body, its body), or put text before or after it
    (text from the argument or standard input); shows the diff. The text takes the
    definition's indentation.

    example: edittools edit-symbol --root . src/app.py Greeter.greet < greet.py
    example: edittools edit-symbol --root . src/app.py main 'def helper(): ...' --where before
    """
    arguments = {
        "path": args.path,
        "symbol": args.symbol,
        "new_text": _new_text(args),
        "where": args.where,
    }
    return _run(args, "edit_symbol", arguments)


def cmd_edit_lines(args: argparse.Namespace) -> int:
    """Replace the lines from anchor START to anchor END, both as `read --anchors` shows them
    (text from the argument or standard input); shows the diff. Lines that changed since they
    were read are refused.

    example: edittools edit-lines --root . src/app.py 12#a3f 14#0c1 '    return 0'
    """
    arguments = {
        "path": args.path,
        "start": args.start,
        "end": args.end,
        "new_text": _new_text(args),
    }
    return _run(args, "edit_lines", arguments)


def cmd_edit_cell(args: argparse.Namespace) -> int:
    """Replace the source of a notebook's cell (a code cell's outputs and execution count are
    kept), insert a new cell after it (--mode insert; without --cell, at the top), or delete
    it (--mode delete), or move it (--mode move --to N); the source from the argument or
    standard input. Shows the diff.

    example: edittools edit-cell --root . analysis.ipynb 'df.describe()' --cell 3
    example: edittools edit-cell --root . analysis.ipynb --mode delete --cell a1b2c3d4
    example: edittools edit-cell --root . analysis.ipynb '# Setup' --mode insert --cell-type markdown
    example: edittools edit-cell --root . analysis.ipynb --mode move --cell a1b2c3d4 --to 0
    """
    arguments: dict[str, Any] = {"path": args.path, "cell": args.cell, "mode": args.mode}
    if args.mode not in ("delete", "move"):
        arguments["new_text"] = _new_text(args)
    if args.cell_type is not None:
        arguments["cell_type"] = args.cell_type
    if args.to is not None:
        arguments["to"] = args.to
    return _run(args, "edit_cell", arguments)


def _new_text(args: argparse.Namespace) -> str:
    """The new_text argument, else standard input; an empty input is refused (an
    accidental `< /dev/null` must not remove lines), an empty argument is a choice."""
    if args.new_text is not None:
        return str(args.new_text)
    text = _text(sys.stdin.buffer.read(), "standard input")
    if not text:
        raise ValueError(
            "Standard input was empty, which would remove the lines; "
            "pass '' as the new_text argument if that is what you want."
        )
    return text


def cmd_apply_patch(args: argparse.Namespace) -> int:
    """Apply a unified diff or Codex-style patch, all files or none; shows the diffs.

    Patch files are read as bytes and decoded as UTF-8, so CRLF line ends stay in the patch.

    example: git diff | edittools apply-patch --root ../other-checkout -
    example: edittools apply-patch --root . -p 2 fix.patch
    """
    data = sys.stdin.buffer.read() if args.patch == "-" else Path(args.patch).read_bytes()
    patch = _text(data, "standard input" if args.patch == "-" else args.patch)
    arguments: dict[str, Any] = {"patch": patch}
    if args.strip is not None:
        arguments["strip"] = args.strip
    return _run(args, "apply_patch", arguments)


def cmd_undo(args: argparse.Namespace) -> int:
    """Undo the last change the tools made to a file in this sandbox.

    example: edittools undo --root . src/app.py
    """
    return _run(args, "undo", {"path": args.path})


def cmd_log(args: argparse.Namespace) -> int:
    """List the changes journaled in a sandbox, one line per file with `+N -M`.

    With --jsonl every journaled result is printed instead, as a stream event (fields in protocol
    order: id, name, display, value, is_error, artifact), one per line.

    example: edittools log --root .
    example: edittools log --root . --jsonl > journal.jsonl
    example: edittools log --root . --agent reviewer
    """
    from edittools import Session

    with Session(args.root, state_dir=args.state_dir) as session:
        if args.jsonl:
            for event in session.iter_journal(agent=args.agent):
                print_json(event.model_dump(mode="json", by_alias=True))
            return 0
        return _list_changes(args, session)


def _list_changes(args: argparse.Namespace, session: Session) -> int:
    from edittools.artifacts import ChangesetArtifact, DiffArtifact

    out = console()
    shown = 0
    for event in session.iter_journal(agent=args.agent):
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
        by = "" if args.agent is None else f" by agent {args.agent!r}"
        out.print(f"No changes{by} journaled in {args.root}.", markup=False)
    return 0


def cmd_blame(args: argparse.Namespace) -> int:
    """Print each line of a file with who last changed it through the tools (an agent's name,
    or "tools" for an unnamed session, when, and the change's id), "outside the tools" for lines
    changed outside them, "unchanged" for lines no change touched, "history not kept" where the
    contents that would say are no longer kept.

    example: edittools blame src/app.py --root .
    """
    import time

    from edittools import Session

    with Session(args.root, state_dir=args.state_dir, checkpoint_on_start=False) as session:
        lines = session.blame(str(args.path))
    for line in lines:
        origin = line.origin
        if origin.kind == "tools":
            stamp = None if origin.when is None else time.localtime(origin.when)
            when = "" if stamp is None else time.strftime("%Y-%m-%d %H:%M", stamp)
            who = f"{origin.actor or 'tools'} #{origin.change} {when}"
        else:
            who = _ORIGIN_WORDS[origin.kind]
        sys.stdout.write(f"{who:<34} {line.number:>5}| {line.text}\n")
    return 0


_ORIGIN_WORDS = {
    "outside": "outside the tools",
    "never": "unchanged",
    "unknown": "history not kept",
}
"""What `blame` says of a line that no change through the tools made what it is."""


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the tools to an MCP client over standard input and output."""
    # The MCP SDK takes most of a second to import: only this command pays for it.
    from edittools.mcp_server import serve_command

    return serve_command(args.arguments, prog="edittools serve")
