"""Benchmark the diff engine side by side with reference engines, in one run.

Engines: edittools (in memory, and reading the files first), Python's difflib, diff-match-patch
(the pure-Python package) in line mode, ``git diff --no-index`` (default and ``--minimal``) and GNU
``diff`` (``-u`` and ``--minimal -u``) as processes. For each case it prints the median wall time,
the ratio to ``git diff --no-index``, the +N/-N each engine reports and its peak memory: the
maximum resident size for processes, and for in-process engines the peak of memory allocated by
the call (inputs already in memory; measured in a separate, untimed run with tracemalloc).

Usage: ``python benchmarks/bench_diff.py [--quick] [--cases NAME,...] [--huge [--lines N]]
[--trees] [--repeat N]``.
``--huge`` runs only the memory-mapped diff of a 10M-line pair (see ``huge_files.py``; ``--lines``
sets its size, 44 bytes a line);
``--trees`` only the diff of two releases' source trees (see ``release_trees.py``). The corpus
is generated with a fixed seed into ``benchmarks/.corpus/`` (git-ignored) on first use. ``--quick`` uses fewer
repeats and skips the slowest reference runs; it finishes in well under a minute.
"""

from __future__ import annotations

import argparse
import difflib
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import diff_corpus  # noqa: E402
import huge_files  # noqa: E402
import release_trees  # noqa: E402
from diff_match_patch import diff_match_patch  # noqa: E402

from edittools.diff import diff_span, diff_texts  # noqa: E402

MiB = 1024 * 1024
# Reference engines that take seconds to minutes on the big cases run only where they finish
# in reasonable time; elsewhere the table says "skipped (too slow)". difflib takes about 76 s on
# the 1M-line pair; diff-match-patch with its time limit off ran for minutes on it.
SLOW_LIMITS = {
    "difflib": {"200-1", "10k-10", "100k-100", "dups-moved"},
    "dmp lines": {"200-1", "10k-10", "100k-100", "dups-moved"},
    "GNU diff --minimal": None,
}
QUICK_SKIPS = {
    "difflib": {"100k-100", "dups-moved"},
    "dmp lines": {"100k-100"},
    "GNU diff --minimal": {"100k-50pct"},
}


@dataclass
class Row:
    engine: str
    seconds: float | None
    added: int | None = None
    removed: int | None = None
    peak: float | None = None
    note: str = ""


def timed(func: Callable[[], object], repeats: int) -> tuple[float, object]:
    """Median wall time of `repeats` calls (one call when the first takes over a second)."""
    times: list[float] = []
    result: object = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
        if times[0] > 1.0:
            break
    return statistics.median(times), result


def traced_peak(func: Callable[[], object]) -> float:
    """Peak bytes allocated while `func` runs, in MiB."""
    tracemalloc.start()
    try:
        func()
        return tracemalloc.get_traced_memory()[1] / MiB
    finally:
        tracemalloc.stop()


# A small launcher measures a command's max RSS: a child forked from this (large) benchmark
# process would be charged the benchmark's own pages until it execs.
_LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.execvp(sys.argv[1], sys.argv[1:])
print(os.wait4(pid, 0)[2].ru_maxrss)
"""


def max_rss(argv: list[str]) -> float:
    """Maximum resident size of one run of a command, in MiB."""
    out = subprocess.run(
        [sys.executable, "-S", "-c", _LAUNCHER, *argv], capture_output=True, check=True
    )
    return int(out.stdout) / 1024


def run_process(argv: list[str], repeats: int) -> Row:
    """Median wall time, counts and max RSS of an external diff command."""
    times: list[float] = []
    output = b""
    for _ in range(repeats):
        with tempfile.TemporaryFile() as out:
            start = time.perf_counter()
            subprocess.run(argv, stdout=out, stderr=subprocess.DEVNULL, check=False)
            times.append(time.perf_counter() - start)
            out.seek(0)
            output = out.read()
        if times[0] > 1.0:
            break
    added, removed = huge_files.count_unified(output)
    return Row(" ".join(argv[:3]), statistics.median(times), added, removed, max_rss(argv))


def ours(case: diff_corpus.Case, old: bytes, new: bytes, repeats: int) -> list[Row]:
    rows: list[Row] = []

    def in_memory() -> object:
        return diff_texts(old, new, path=case.name, include_texts=False)

    seconds, payload = timed(in_memory, repeats)
    stats = payload.stats  # type: ignore[attr-defined]
    peak = traced_peak(in_memory)
    note = "" if payload.minimal else "minimal: false"  # type: ignore[attr-defined]
    rows.append(Row("edittools (in memory)", seconds, stats.added, stats.removed, peak, note))
    if case.name == "100k-50pct":

        def tight() -> object:
            return diff_texts(old, new, path=case.name, include_texts=False, budget=0.1)

        seconds, payload = timed(tight, repeats)
        stats = payload.stats  # type: ignore[attr-defined]
        note = "" if payload.minimal else "minimal: false"  # type: ignore[attr-defined]
        rows.append(
            Row("edittools (budget 0.1 s)", seconds, stats.added, stats.removed, None, note)
        )

    def from_disk() -> object:
        return diff_texts(
            case.old.read_bytes(), case.new.read_bytes(), path=case.name, include_texts=False
        )

    seconds, payload = timed(from_disk, repeats)
    stats = payload.stats  # type: ignore[attr-defined]
    script = (
        "import sys; from pathlib import Path; from edittools.diff import diff_texts; "
        "diff_texts(Path(sys.argv[1]).read_bytes(), Path(sys.argv[2]).read_bytes(), "
        "path='f', include_texts=False)"
    )
    os.environ["PYTHONPATH"] = str(HERE.parent)
    peak = max_rss([sys.executable, "-c", script, str(case.old), str(case.new)])
    rows.append(Row("edittools (read + diff)", seconds, stats.added, stats.removed, peak))
    if case.span is not None:
        start, end, replacement = case.span
        line = old.count(b"\n", 0, start) + 1  # what the edit tool already knows

        def known_span() -> object:
            return diff_span(
                old,
                start,
                end,
                replacement,
                path=case.name,
                include_texts=False,
                first_line=line,
                binary=False,
            )

        seconds, payload = timed(known_span, max(repeats, 20))
        stats = payload.stats  # type: ignore[attr-defined]
        peak = traced_peak(known_span)
        rows.append(Row("edittools (span known)", seconds, stats.added, stats.removed, peak))
    return rows


def reference_in_process(engine: str, old: bytes, new: bytes, repeats: int) -> Row:
    if engine == "difflib":

        def run() -> object:
            a = old.splitlines(keepends=True)
            b = new.splitlines(keepends=True)
            return b"".join(difflib.diff_bytes(difflib.unified_diff, a, b, b"a", b"b"))

    else:

        def run() -> object:
            dmp = diff_match_patch()
            dmp.Diff_Timeout = 0  # exact; the default 1 s limit gives run-to-run differences
            a, b = old.decode(), new.decode()
            chars_a, chars_b, lines = dmp.diff_linesToChars(a, b)
            diffs = dmp.diff_main(chars_a, chars_b, False)
            dmp.diff_charsToLines(diffs, lines)
            return diffs

    seconds, result = timed(run, repeats)
    if engine == "difflib":
        added, removed = huge_files.count_unified(result)  # type: ignore[arg-type]
    else:
        added = sum(text.count("\n") for op, text in result if op == 1)  # type: ignore[attr-defined]
        removed = sum(text.count("\n") for op, text in result if op == -1)  # type: ignore[attr-defined]
    peak = traced_peak(run) if seconds < 5 else None
    return Row(engine, seconds, added, removed, peak)


def bench_case(case: diff_corpus.Case, quick: bool) -> list[Row]:
    old, new = case.old.read_bytes(), case.new.read_bytes()
    fast_repeats = 5 if quick else 11
    slow_repeats = 3 if quick else 5
    rows = ours(case, old, new, fast_repeats)
    a, b = str(case.old), str(case.new)
    git = ["git", "diff", "--no-index", "--no-color", "--no-ext-diff"]
    rows.append(_named("git diff --no-index", run_process([*git, a, b], slow_repeats)))
    rows.append(_named("git diff --minimal", run_process([*git, "--minimal", a, b], slow_repeats)))
    rows.append(_named("GNU diff -u", run_process(["diff", "-u", a, b], slow_repeats)))
    if _allowed("GNU diff --minimal", case.name, quick):
        rows.append(
            _named(
                "GNU diff --minimal",
                run_process(["diff", "--minimal", "-u", a, b], slow_repeats),
            )
        )
    else:
        rows.append(Row("GNU diff --minimal", None, note="skipped (too slow for --quick)"))
    for engine in ("difflib", "dmp lines"):
        if _allowed(engine, case.name, quick):
            rows.append(reference_in_process(engine, old, new, slow_repeats))
        else:
            rows.append(Row(engine, None, note="skipped (too slow)"))
    return rows


def _named(name: str, row: Row) -> Row:
    row.engine = name
    return row


def _allowed(engine: str, case: str, quick: bool) -> bool:
    limit = SLOW_LIMITS.get(engine)
    if limit is not None and case not in limit:
        return False
    return not (quick and case in QUICK_SKIPS.get(engine, set()))


def print_table(case: diff_corpus.Case, rows: list[Row], size: int) -> None:
    git = next(r.seconds for r in rows if r.engine == "git diff --no-index")
    print(f"\n## {case.title}  ({case.name}: {size / MiB:.1f} MiB of input)")
    print(f"{'engine':<26} {'median':>11} {'x git':>8} {'+N/-N':>17} {'peak MiB':>9}  note")
    for row in rows:
        if row.seconds is None:
            print(f"{row.engine:<26} {'-':>11} {'-':>8} {'-':>17} {'-':>9}  {row.note}")
            continue
        ms = row.seconds * 1000
        median = f"{ms:.3f} ms" if ms < 1 else f"{ms:.1f} ms"
        ratio = f"{row.seconds / git:.3f}" if git else "-"
        counts = f"+{row.added}/-{row.removed}"
        peak = f"{row.peak:.1f}" if row.peak is not None else "-"
        print(f"{row.engine:<26} {median:>11} {ratio:>8} {counts:>17} {peak:>9}  {row.note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, skip slow runs")
    parser.add_argument("--cases", help="comma-separated case names (default: all)")
    parser.add_argument(
        "--huge", action="store_true", help="only the 10M-line pair, against git and GNU diff"
    )
    parser.add_argument(
        "--trees", action="store_true", help="only two releases' source trees (downloads them)"
    )
    parser.add_argument(
        "--lines",
        type=int,
        default=huge_files.LINES,
        help="with --huge: lines of each file of the pair (default: 10,000,000; 44 bytes a line)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=None,
        help="with --trees or --huge: runs of each command (default: 9 and 3; more give a "
        "steadier median on a busy machine)",
    )
    args = parser.parse_args()
    if args.huge:
        huge_files.bench(args.lines, args.repeat or 3)
        return
    if args.trees:
        release_trees.bench(args.repeat or 9)
        return
    names = set(args.cases.split(",")) if args.cases else None
    started = time.perf_counter()
    cases = diff_corpus.build(names)
    print(
        f"# diff benchmark ({'quick' if args.quick else 'full'}), python {sys.version.split()[0]}"
    )
    print(
        "peak MiB: max RSS of a process (edittools read + diff: a whole Python process that"
        " reads both files and diffs them); for in-process rows, memory allocated by the call"
    )
    for case in cases:
        size = case.old.stat().st_size + case.new.stat().st_size
        print_table(case, bench_case(case, args.quick), size)
        sys.stdout.flush()
    print(f"\ntotal {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
