"""Commands over checkpoints: list them, rewind to one, review the net changes since one.

`review --interactive` walks the hunks like `git add -p`: keep (accept) or reject each one.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from edittools import STATE_DIR_HELP
from edittools.cli._console import console, print_json

if TYPE_CHECKING:
    from rich.console import Console

    from edittools import Session
    from edittools.artifacts import DiffPayload, Hunk, ToolResult

_RAW = argparse.RawDescriptionHelpFormatter
_HELP = """\
y - keep this hunk (mark it reviewed)
n - reject this hunk (put the lines back as they were at the checkpoint)
q - quit; the hunks not answered stay for the next review
? - print this help
"""


def register(sub: Any) -> None:
    """Add the checkpoint commands to the parser."""
    p = _parser(sub, "checkpoints", cmd_checkpoints, "list the checkpoints of a sandbox")

    p = _parser(sub, "rewind", cmd_rewind, "put the files back as they were at a checkpoint")
    p.add_argument("checkpoint", type=int, nargs="?", metavar="ID",
                   help="the checkpoint (default: the newest with changes since it)")  # fmt: skip
    p.add_argument("--force", action="store_true",
                   help="overwrite files changed outside the tools since")  # fmt: skip

    p = _parser(sub, "review", cmd_review, "show the net changes since a checkpoint")
    p.add_argument("--since", type=int, metavar="ID",
                   help="the checkpoint (default: the newest with changes since it)")  # fmt: skip
    p.add_argument("--interactive", "-i", action="store_true",
                   help="keep or reject hunk by hunk, like git add -p")  # fmt: skip
    p.add_argument("--all", action="store_true",
                   help="show hunks already kept in an earlier review too")  # fmt: skip


def _parser(sub: Any, name: str, run: Any, summary: str) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        name, help=summary, description=run.__doc__, formatter_class=_RAW
    )
    p.add_argument("--root", type=Path, default=Path("."),
                   help="the sandbox directory (default: the current directory)")  # fmt: skip
    p.add_argument("--state-dir", type=Path, default=None, help=STATE_DIR_HELP)
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=run)
    return p


def _session(args: argparse.Namespace) -> Session:
    from edittools import Session

    # These commands look at checkpoints: they take none of their own, so the defaults below
    # find the one the work under review began at.
    return Session(
        args.root, state_dir=args.state_dir, require_read=False, checkpoint_on_start=False
    )


def cmd_checkpoints(args: argparse.Namespace) -> int:
    """List the checkpoints of a sandbox, oldest first, with how many files changed since each.

    One is taken whenever a session of the tools (an agent's, or a tool command's) opens the
    sandbox after something changed.

    example: edittools checkpoints --root .
    """
    with _session(args) as session:
        listing = session.checkpoints()
    if args.json:
        print_json([vars(c) for c in listing])
        return 0
    out = console()
    for c in listing:
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(c.created))
        what = c.label or f"({c.auto or 'asked for'})"
        out.print(f"{c.id:>5}  {when}  {c.files:>4} file(s) changed since  {what}", markup=False)
    return 0


def cmd_rewind(args: argparse.Namespace) -> int:
    """Put every file the tools changed since a checkpoint back as it was, all or none.

    A file changed outside the tools since is not overwritten unless --force. The rewind is a
    change too: rewinding to the checkpoint taken just before it brings the work back.

    example: edittools rewind --root . 12
    """
    with _session(args) as session:
        checkpoint = args.checkpoint or session.last_changed_checkpoint()
        if checkpoint is None:
            raise ValueError("No checkpoint has changes since it; there is nothing to rewind.")
        result = session.rewind(checkpoint, force=args.force)
    return _show(args, result)


def cmd_review(args: argparse.Namespace) -> int:
    """Show the net diff of every file the tools changed since a checkpoint.

    Intermediate steps are collapsed; files also changed outside the tools are marked. With
    --interactive each hunk is offered in turn: y keeps it, n rejects it, q quits, ? helps.

    example: edittools review --root .
    example: edittools review --root . --since 3 --interactive
    """
    with _session(args) as session:
        since = args.since or session.last_changed_checkpoint()
        if since is None:
            sys.stdout.write("No changes since any checkpoint.\n")
            return 0
        result = session.changes(since, include_accepted=args.all or not args.interactive)
        if not args.interactive or result.is_error or args.json:
            return _show(args, result)
        return _walk(session, since, result)


def _show(args: argparse.Namespace, result: ToolResult) -> int:
    from edittools.render import render_result

    if args.json:
        print_json(result.model_dump(mode="json", by_alias=True))
    else:
        render_result(result, console())
    return 1 if result.is_error else 0


def _walk(session: Session, since: int, result: ToolResult) -> int:
    """Offer each hunk of the net diff in turn; returns 1 when a reject failed."""
    from edittools.artifacts import ChangesetPayload

    out = console()
    assert result.artifact is not None and isinstance(result.artifact.payload, ChangesetPayload)
    files = result.artifact.payload.files
    total = sum(len(f.hunks) for f in files)
    if not total:
        out.print(f"Nothing left to review since checkpoint {since}.", markup=False)
        return 0
    seen = failed = 0
    for payload in files:
        for hunk in payload.hunks:
            seen += 1
            answer = _ask(out, payload, hunk, seen, total)
            if answer == "q":
                return failed
            if answer == "y":
                done = session.accept(payload.path, hunk.model_dump(), since=since)
            else:
                done = session.reject(payload.path, hunk.model_dump(), since=since)
            if done.is_error:
                failed = 1
                out.print(done.value.splitlines()[0], markup=False)
            else:  # counted as the prompt counts (the tool's own index is of the diff left)
                verb = "Kept" if answer == "y" else "Rejected"
                out.print(f"{verb} hunk {seen}/{total} of {payload.path}.", markup=False)
    return failed


def _ask(out: Console, payload: DiffPayload, hunk: Hunk, number: int, total: int) -> str:
    from edittools.diff import hunks_payload
    from edittools.render import DiffView

    one = hunks_payload([hunk], path=payload.path)
    out.print(DiffView(one.model_copy(update={"operation": payload.operation})))
    while True:
        out.print(f"({number}/{total}) Keep this hunk [y,n,q,?]? ", end="", markup=False)
        try:
            answer = input().strip().lower()[:1]
        except EOFError:
            out.print("")
            return "q"
        if answer in ("y", "n", "q"):
            return answer
        out.print(_HELP, end="", markup=False)
