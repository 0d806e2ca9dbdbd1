"""Commands that show things: diff, preview, report, schema."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from edittools import STATE_DIR_HELP
from edittools.cli._console import busy, console, print_json

if TYPE_CHECKING:
    from pathlib import Path

    from edittools.cli._inputs import Result
    from edittools.diff import LineDiff

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
    p.add_argument(
        "files",
        nargs="+",
        metavar="OLD NEW",
        help="the two files; or the seven arguments git passes an external diff",
    )
    p.add_argument("--json", action="store_true", help="print the diff payload as JSON")
    p.add_argument("--stat", action="store_true", help="print only the per-file counts")
    p.add_argument(
        "--numstat",
        action="store_true",
        help="print added and removed lines per file, tab-separated, as git --numstat",
    )
    p.add_argument(
        "-M",
        "--find-renames",
        type=int,
        default=50,
        metavar="PERCENT",
        help="least similarity of a rename between folders (default: 50, as git)",
    )
    p.add_argument("--context", type=int, default=3, metavar="N", help="lines of context")
    p.set_defaults(run=cmd_diff)

    p = sub.add_parser(
        "preview",
        help="show tool results, journals, transcripts",
        description=cmd_preview.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_source(p)
    p.add_argument("--json", action="store_true", help="one adapted ToolResult per line")
    p.set_defaults(run=cmd_preview)

    p = sub.add_parser(
        "report",
        help="write a static HTML report",
        description=cmd_report.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_source(p)
    p.add_argument("-o", "--output", type=_path, required=True, help="the HTML file to write")
    p.add_argument("--title", default=None, help="the page title")
    p.add_argument("--net", type=int, nargs="?", const=0, default=None, metavar="ID",
                   help="with --root: add a view of the net changes since checkpoint ID "
                   "(default: the newest with changes since it)")  # fmt: skip
    p.set_defaults(run=cmd_report)

    p = sub.add_parser(
        "schema",
        help="print the artifact protocol's JSON Schema",
        description=cmd_schema.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.set_defaults(run=cmd_schema)


def _add_source(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", nargs="?", help="a JSON/JSONL file, or - for standard input")
    p.add_argument("--root", type=_path, default=None,
                   help="the sandbox: its journal when no FILE is given (instead of FILE), and the "
                   "stored images a report shows")  # fmt: skip
    p.add_argument("--state-dir", type=_path, default=None, help=STATE_DIR_HELP)


def _path(name: str) -> Path:
    """A path argument (pathlib is imported only by the commands that take one: ``diff`` of
    two folders starts sooner without it)."""
    from pathlib import Path

    return Path(name)


def _load(args: argparse.Namespace) -> tuple[list[Result], str]:
    """The results to show and a name for where they came from."""
    if args.file is None and args.root is None:
        raise ValueError("give a file (or -) or --root DIR.")
    if args.file is None:
        from edittools import Session

        with Session(args.root, state_dir=args.state_dir) as session:
            return list(session.iter_journal()), f"the journal of {args.root}"
    return _load_file(args.file), str(args.file)


def cmd_diff(args: argparse.Namespace) -> int:
    """Show the difference between two files, or two folders, as a coloured unified diff.

    Exit status: 0 when the files are the same, 1 when they differ, 2 on trouble (like diff).
    The `---` and `+++` lines name each file by its own path. Files of any size are diffed
    through memory maps.

    Between two folders: every added, deleted, modified and renamed file (a rename is a
    deleted and an added file at least -M percent alike, as git's -M); binary files are
    reported, not diffed. --json prints the changeset payload; exit status as diff -r.

    As git's external diff (`GIT_EXTERNAL_DIFF=edittools diff git diff`, or `diff.external`),
    it takes git's seven arguments (path, old file, hash, mode, new file, hash, mode), labels
    both sides with the path in the repository and exits 0, as git requires. As a difftool:
    `git difftool -y -x 'edittools diff'`.

    example: edittools diff old.py new.py --context 5
    example: edittools diff project-1.0/ project-1.1/ --numstat
    """
    if args.context < 0:
        raise ValueError("--context must be 0 or more lines.")
    if len(args.files) == 2 and all(os.path.isdir(name) for name in args.files):
        return _diff_dirs(args)
    sides = _Sides.of(args.files)
    long = _size(sides.old) + _size(sides.new) > _BIG_DIFF_BYTES
    if args.json or args.stat:
        return _diff_payload(args, sides, long=long)
    if args.numstat:
        from edittools.diff import line_diff_files

        result = line_diff_files(sides.old, sides.new, context=args.context, path=sides.new_label)
        if result.differ:
            sys.stdout.write(_numstat(result, sides.new_label, None))
        return 0 if sides.external or not result.differ else 1
    from edittools.diff import line_diff_files
    from edittools.render import wants_colour, write_line_diff

    with busy(console() if long and sys.stdout.isatty() else None, "Diffing", long=long):
        result = line_diff_files(sides.old, sides.new, context=args.context, path=sides.new_label)
    if result.differ:
        colour = wants_colour(sys.stdout) or (sides.external and _git_pager())
        write_line_diff(
            result, sys.stdout, path=sides.new_label, old_path=sides.old_label, colour=colour
        )
    return 0 if sides.external or not result.differ else 1


def _diff_dirs(args: argparse.Namespace) -> int:
    """Two folders: every file that differs, renames found by similarity (exit 0, 1 or 2)."""
    old, new = args.files
    if not 0 <= args.find_renames <= 100:
        raise ValueError("-M takes a percentage from 0 to 100.")
    threshold = args.find_renames / 100
    from edittools.cli._forked import in_parallel  # the diffs shared with a forked child

    if args.json or args.stat:
        from edittools.diff import diff_dirs
        from edittools.render import render_stat

        changeset = diff_dirs(
            old, new, context=args.context, rename_threshold=threshold, run=in_parallel
        )
        if args.json:
            print_json(changeset.model_dump(mode="json", by_alias=True))
        else:
            render_stat(changeset.files, console())
        return 1 if changeset.files else 0
    from edittools.diff import line_diff_dirs

    entries = line_diff_dirs(
        old,
        new,
        context=args.context,
        rename_threshold=threshold,
        hunks=not args.numstat,
        run=in_parallel,
    )
    if args.numstat:
        sys.stdout.write("".join(_numstat(e.result, e.path, e.old_path) for e in entries))
        return 1 if entries else 0
    from edittools.render import wants_colour, write_line_diff

    colour = wants_colour(sys.stdout)
    for index, entry in enumerate(entries):
        if index:
            sys.stdout.write("\n")
        write_line_diff(
            entry.result,
            sys.stdout,
            path=entry.path,
            old_path=entry.old_path,
            colour=colour,
            similarity=entry.similarity,
        )
    return 1 if entries else 0


def _numstat(result: LineDiff, path: str, old_path: str | None) -> str:
    """One line of git's ``--numstat``: added, removed (``-`` for binary) and the name."""
    name = path if old_path in (None, path) else f"{old_path} => {path}"
    if result.binary:
        return f"-\t-\t{name}\n"
    added, removed = result.counts()
    return f"{added}\t{removed}\t{name}\n"


def _diff_payload(args: argparse.Namespace, sides: _Sides, *, long: bool) -> int:
    """``--json`` and ``--stat``: the diff payload the API returns, and its counts."""
    from edittools.diff import diff_files
    from edittools.render import render_stat

    out = console()
    with busy(out, "Diffing", long=long):
        payload = diff_files(sides.old, sides.new, path=sides.new_label, context=args.context)
    if args.json:
        print_json(payload.model_dump(mode="json", by_alias=True))
    else:
        render_stat([payload], out)
    differ = bool(payload.hunks) or (payload.binary and bool(payload.unified))
    return 0 if sides.external or not differ else 1


class _Sides:
    """The files a diff compares and the names its headers give them."""

    def __init__(
        self, old: str | None, new: str | None, old_label: str, new_label: str, external: bool
    ) -> None:
        self.old, self.new = old, new
        self.old_label, self.new_label = old_label, new_label
        self.external = external

    @classmethod
    def of(cls, files: list[str]) -> _Sides:
        if len(files) == 2:
            return cls(files[0], files[1], files[0], files[1], external=False)
        if len(files) in (7, 9):
            # git's external diff: path old-file old-hex old-mode new-file new-hex new-mode,
            # plus new-path and a similarity line for a rename. A missing side is /dev/null.
            path, old, new = files[0], files[1], files[4]
            new_label = files[7] if len(files) == 9 else path
            return cls(_side(old), _side(new), path, new_label, external=True)
        raise ValueError(
            f"diff takes two files (or git's seven external-diff arguments), not {len(files)}."
        )


def _side(name: str) -> str | None:
    return None if name == os.devnull else name


def _git_pager() -> bool:
    """Whether git runs us with its pager on a terminal (git's own colour test for children)."""
    return os.environ.get("GIT_PAGER_IN_USE", "").lower() in ("1", "true") and not os.environ.get(
        "NO_COLOR"
    )


def _size(path: str | None) -> int:
    try:
        return 0 if path is None else os.stat(path).st_size
    except OSError:
        return 0  # the diff reports the trouble


def cmd_preview(args: argparse.Namespace) -> int:
    """Render tool results in the terminal: diffs (with granularity and +N -M), code, text, errors.

    Reads ToolResults, stream events, exported journals, Claude Code transcripts (JSONL) and Zeus
    results — anything `adapt` understands — or, with --root, a sandbox's journal.

    example: edittools preview --root .
    example: edittools preview transcript.jsonl
    """
    from rich.progress import track

    from edittools.render import render_result

    results, source = _load(args)
    if not results:
        print(f"edittools: no tool results in {source}.", file=sys.stderr)
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

    With --root and no file, the results are that root's journal. Images the tools read under
    `--root` are shown, loaded from that root's blob store; an image it does not hold shows its
    text alone.

    With --net the page also has a view of the net change of each file under --root since a
    checkpoint, beside the step-by-step cards.

    example: edittools report --root . -o report.html
    example: edittools report --root . --net -o report.html
    example: edittools report transcript.jsonl -o report.html --root .
    """
    from edittools.render import report_page

    results, _ = _load(args)
    net = None
    if args.net is not None:
        if args.root is None:
            raise ValueError("--net needs --root: net changes are those of a sandbox.")
        from edittools import Session

        with Session(args.root, state_dir=args.state_dir, checkpoint_on_start=False) as session:
            since = args.net or session.last_changed_checkpoint()
            net = None if since is None else session.changes(since)
    title = args.title or f"edittools report: {args.file or args.root}"
    with _blob_loader(args.root, args.state_dir) as load_image:
        html, counts = report_page(results, title=title, load_image=load_image, net=net)
    args.output.write_text(html, encoding="utf-8")
    print(f"Wrote {args.output}: {counts.sentence()}.")
    return 0


@contextmanager
def _blob_loader(
    root: Path | None, state_dir: Path | None
) -> Iterator[Callable[[str], bytes | None]]:
    """Bytes of a stored blob by its id (`Session.blob`); None when the root does not hold it.

    The session is opened on the first image, so a report without images touches no state, and
    closed when the block ends.
    """
    from edittools import Session, ToolError
    from sandbox import SandboxError

    sessions: list[Session] = []

    def load(blob_id: str) -> bytes | None:
        try:
            if not sessions:
                sessions.append(Session(root or _path("."), state_dir=state_dir))
            return sessions[0].blob(blob_id)
        except (ToolError, SandboxError, OSError):  # no such root, or no such blob in it
            return None

    try:
        yield load
    finally:
        for session in sessions:
            session.close()


def cmd_schema(args: argparse.Namespace) -> int:
    """Print the JSON Schema of ToolResult, artifacts, payloads and stream events.

    example: edittools schema > tool-artifact.schema.json
    """
    from edittools.artifacts import export_schema

    print_json(export_schema())
    return 0


def _load_file(name: str) -> list[Any]:
    """The results in file `name` (or `-`), with a warning line for what could not be read."""
    from edittools.cli._inputs import load_results

    not_understood: list[str] = []
    try:
        results = load_results(_read_input(name), not_understood=not_understood)
    except ValueError as exc:
        raise ValueError(f"{'standard input' if name == '-' else name}: {exc}") from exc
    if not_understood:
        shown = "; ".join(not_understood[:5]) + ("; ..." if len(not_understood) > 5 else "")
        print(
            f"edittools: warning: {len(not_understood)} part(s) of {name} not understood: {shown}",
            file=sys.stderr,
        )
    return results


def _read_input(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    with open(name, encoding="utf-8", errors="replace") as file:
        return file.read()
