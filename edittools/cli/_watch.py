"""The `watch` command: show changes made to a sandbox's files outside the tools, as they happen."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from edittools import STATE_DIR_HELP
from edittools.cli._console import console, print_json


def register(sub: Any) -> None:
    """Add the watch command to the parser."""
    p = sub.add_parser(
        "watch",
        help="show changes made outside the tools, live",
        description=cmd_watch.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--root", type=Path, required=True, help="the directory to watch (required)")
    p.add_argument("--state-dir", type=Path, default=None, help=STATE_DIR_HELP)
    p.add_argument("--json", action="store_true", help="print one stream event per line")
    p.add_argument(
        "--deny",
        action="append",
        default=[],
        metavar="PATTERN",
        help="gitignore-style pattern to leave unwatched (repeatable)",
    )
    p.add_argument(
        "--max-bytes",
        type=int,
        default=1 << 20,
        metavar="N",
        help="keep a baseline (and so a full diff) only for files up to N bytes",
    )
    p.set_defaults(run=cmd_watch)


def cmd_watch(args: argparse.Namespace) -> int:
    """Print each change made under a directory as a diff, until Ctrl-C.

    Every file is noted (size, time, inode) when watching starts, and the text files under the
    size cap are then read in the background, so a later change shows as a full diff with
    `+N -M` (a file changed before it was read shows without one). A write shows once its writer
    closes the file; bursts of writes and editors' atomic saves show as one change. With --json
    each change is one stream event (`name: external`) per line.

    example: edittools watch --root . --deny node_modules/
    """
    from edittools import ExternalWatcher
    from edittools.render import render_result
    from sandbox import Sandbox

    out = console()
    with Sandbox(args.root, deny=args.deny, state_dir=args.state_dir) as sandbox:
        watcher = ExternalWatcher(sandbox, track_all=True, max_baseline_bytes=args.max_bytes)
        with watcher:
            print(f"Watching {sandbox.root} (Ctrl-C to stop).", file=sys.stderr, flush=True)
            try:
                while True:
                    event = watcher.get(timeout=0.5)
                    if event is None:
                        continue
                    if args.json:
                        print_json(event.model_dump(mode="json", by_alias=True))
                    else:
                        render_result(event, out)
                    sys.stdout.flush()
            except KeyboardInterrupt:
                pass
    return 0
