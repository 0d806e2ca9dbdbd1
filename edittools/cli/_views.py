"""Commands that show things: diff, preview, report, schema."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rich.progress import track

from edittools.artifacts import ChangesetArtifact, DiffArtifact, export_schema
from edittools.artifacts.builders import diff_result
from edittools.cli._console import busy, console, print_json
from edittools.cli._inputs import load_results
from edittools.diff import diff_texts
from edittools.render import render_report, render_result, render_stat

# Below these sizes the work is over before a progress display could help; above them a
# terminal gets one (transient, so the output reads the same as when piped).
_BIG_DIFF_BYTES = 8 * 1024 * 1024
_MANY_RESULTS = 200


def register(sub: Any) -> None:
    """Add the view commands to the parser."""
    p = sub.add_parser(
        "diff",
        help="diff two files",
        description=cmd_diff.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("old", type=Path)
    p.add_argument("new", type=Path)
    p.add_argument("--json", action="store_true", help="print the diff payload as JSON")
    p.add_argument("--stat", action="store_true", help="print only the per-file counts")
    p.add_argument("--context", type=int, default=3, metavar="N", help="lines of context")
    p.set_defaults(run=cmd_diff)

    p = sub.add_parser(
        "preview",
        help="show tool results, journals, transcripts",
        description=cmd_preview.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", help="a JSON/JSONL file, or - for standard input")
    p.add_argument("--json", action="store_true", help="one adapted ToolResult per line")
    p.set_defaults(run=cmd_preview)

    p = sub.add_parser(
        "report",
        help="write a static HTML report",
        description=cmd_report.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", help="a JSON/JSONL file, or - for standard input")
    p.add_argument("-o", "--output", type=Path, required=True, help="the HTML file to write")
    p.add_argument("--title", default=None, help="the page title")
    p.set_defaults(run=cmd_report)

    p = sub.add_parser(
        "schema",
        help="print the artifact protocol's JSON Schema",
        description=cmd_schema.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.set_defaults(run=cmd_schema)


def cmd_diff(args: argparse.Namespace) -> int:
    """Show the difference between two files as a coloured unified diff with `+N -M`.

    Exit status: 0 when the files are the same, 1 when they differ, 2 on trouble (like diff).

    example: edittools diff old.py new.py --context 5
    """
    if args.context < 0:
        raise ValueError("--context must be 0 or more lines.")
    out = console()
    old, new = args.old.read_bytes(), args.new.read_bytes()
    with busy(out, "Diffing", long=len(old) + len(new) > _BIG_DIFF_BYTES):
        payload = diff_texts(
            old, new, path=str(args.new), context=args.context, include_texts=False
        )
    if args.json:
        print_json(payload.model_dump(mode="json", by_alias=True))
    elif args.stat:
        render_stat([payload], out)
    elif old != new:
        render_result(diff_result("", payload), out)
    return 0 if old == new else 1


def cmd_preview(args: argparse.Namespace) -> int:
    """Render tool results in the terminal: diffs (with granularity and +N -M), code, text, errors.

    Reads ToolResults, stream events, session journals, Claude Code transcripts (JSONL) and Zeus
    results — anything `adapt` understands.

    example: edittools preview .edittools/journal.jsonl
    """
    results = load_results(_read_input(args.file))
    if not results:
        print(f"edittools: no tool results in {args.file}.", file=sys.stderr)
    if args.json:
        for result in results:
            print_json(result.model_dump(mode="json", by_alias=True))
        return 0
    out = console()
    quiet = not out.is_terminal or len(results) < _MANY_RESULTS
    for result in track(
        results, description="Rendering", disable=quiet, transient=True, console=out
    ):
        render_result(result, out)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """Write a self-contained HTML page with one diff card per change.

    example: edittools report .edittools/journal.jsonl -o report.html
    """
    results = load_results(_read_input(args.file))
    title = args.title or f"edittools report: {args.file}"
    args.output.write_text(render_report(results, title=title), encoding="utf-8")
    changes = sum(isinstance(r.artifact, DiffArtifact | ChangesetArtifact) for r in results)
    print(f"Wrote {args.output} ({len(results)} results, {changes} changes).")
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    """Print the JSON Schema of ToolResult, artifacts, payloads and stream events.

    example: edittools schema > tool-artifact.schema.json
    """
    print_json(export_schema())
    return 0


def _read_input(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    return Path(name).read_text(encoding="utf-8", errors="replace")
