"""Opening a root with a big history: the state index vs reading a JSONL history whole; and the
state a read and one-line edits of a 1 MB file add when each runs in a process of its own.

Run: python benchmarks/bench_state.py [--events N] [--repeat K] [--only open|growth]

Builds, in temporary folders, a root whose state index holds N journaled results and N undo
entries (about 450 bytes of event JSON each, so 100,000 events make a 45 MB journal), and the same
events as a JSONL file. It then times `Session(root)` on that state and on an empty one, and, as the
reference, the way history used to be loaded: reading the JSONL file and parsing every line. The
table reports median wall times, the Python memory peak (tracemalloc) of each, and ratios.

The growth table runs `edittools read` and then `edittools edit` (a one-line change) three times
and `undo` once on a 1 MB file, each a new process of the command line, and prints what the state
folder holds after each: apparent bytes and allocated bytes (each inode once; the lock table's
sparse apparent size left out), the bytes of undo snapshots that are the replaced file's own inode
(a hard link: no data was written for them), and the step's growth without those.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from edittools import Session


def _event(n: int) -> dict[str, object]:
    hunk = {"old_start": n % 500 + 1, "old_lines": 1, "new_start": n % 500 + 1, "new_lines": 1,
            "lines": [f"-value_{n} = compute({n})", f"+value_{n} = compute({n + 1})"]}  # fmt: skip
    payload = {"path": f"pkg/module_{n % 300}.py", "operation": "modify", "granularity": "file",
               "old": None, "new": None, "hunks": [hunk], "stats": {"added": 1, "removed": 1}}  # fmt: skip
    artifact = {"schema": "edittools.tool-artifact", "version": 1, "kind": "diff",
                "status": "success", "title": f"pkg/module_{n % 300}.py +1 -1", "payload": payload}  # fmt: skip
    return {"id": f"edit-bench-{n}", "name": "edit", "display": None,
            "value": f"Edited pkg/module_{n % 300}.py (+1 -1).", "is_error": False,
            "artifact": artifact}  # fmt: skip


def _fill(db_path: Path, events: int) -> None:
    db = sqlite3.connect(db_path)
    with db:
        db.execute("INSERT INTO intents (id, state, created) VALUES (1, 'done', 0)")
        db.executemany("INSERT INTO journal (event) VALUES (?)",
                       ((json.dumps(_event(n)),) for n in range(events)))  # fmt: skip
        db.executemany(
            "INSERT INTO changes (path, before_blob, after_digest, intent) VALUES (?, ?, ?, 1)",
            ((f"pkg/module_{n % 300}.py", f"{n:064x}", f"{n + 1:064x}") for n in range(events)),
        )
    db.close()


def _measure(fn: Callable[[], object], repeat: int) -> tuple[float, int]:
    """Median seconds and the largest tracemalloc peak over `repeat` runs."""
    times, peaks = [], []
    for _ in range(repeat):
        tracemalloc.start()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return statistics.median(times), max(peaks)


def _usage(state: Path, linked: set[int]) -> tuple[int, int, int]:
    """Apparent and allocated bytes of the state folder (each inode once), and the bytes of the
    inodes in `linked` found there."""
    seen: set[int] = set()
    size = blocks = kept = 0
    for folder, _, files in os.walk(state):
        for name in files:
            st = os.lstat(os.path.join(folder, name))
            if st.st_ino in seen:
                continue
            seen.add(st.st_ino)
            if st.st_ino in linked:
                kept += st.st_size
                continue
            size += 0 if Path(folder).name == "locks" else st.st_size  # sparse lock table
            blocks += st.st_blocks * 512
    return size, blocks, kept


def growth() -> None:
    """Print the state after each call, every call in a new process."""
    with tempfile.TemporaryDirectory() as tmp:
        root, state = Path(tmp) / "root", Path(tmp) / "state"
        root.mkdir()
        lines = [f"    value_{i} = compute({i}, {i * 7 % 13})  # line {i}" for i in range(22_000)]
        (root / "big.py").write_text("\n".join(lines) + "\n")
        (root / "small.txt").write_text("warm\n")

        def cli(*args: str) -> None:
            command = [sys.executable, "-m", "edittools", args[0], "--root", str(root),
                       "--state-dir", str(state), *args[1:]]  # fmt: skip
            subprocess.run(command, check=True, capture_output=True)

        cli("read", "small.txt")  # makes the state index
        linked: set[int] = set()
        steps: list[tuple[str, tuple[str, ...]]] = [("read big.py", ("read", "big.py"))]
        for i in range(3):
            edit = ("edit", "big.py", lines[100 + i], lines[100 + i] + " # x")
            steps.append((f"edit {i + 1}: one line", edit))
        steps += [("undo", ("undo", "big.py"))]
        size = (root / "big.py").stat().st_size
        print(f"\nstate per call, a new process each, file {size:,} bytes")
        print(f"{'call':<22} {'apparent':>10} {'allocated':>10} {'linked':>10} "
              f"{'+apparent':>10} {'+allocated':>10}")  # fmt: skip
        last = _usage(state, linked)
        print(f"{'(after a first read)':<22} {last[0]:>10,} {last[1]:>10,} {last[2]:>10,}")
        for label, args in steps:
            linked.add((root / "big.py").stat().st_ino)  # moves into the store if linked
            cli(*args)
            now = _usage(state, linked)
            print(f"{label:<22} {now[0]:>10,} {now[1]:>10,} {now[2]:>10,} "
                  f"{now[0] - last[0]:>+10,} {now[1] - last[1]:>+10,}")  # fmt: skip
            last = now


def main() -> None:
    """Print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", choices=["open", "growth"], default=None)
    args = parser.parse_args()
    if args.only != "growth":
        history(args.events, args.repeat)
    if args.only != "open":
        growth()


def history(events: int, repeat: int) -> None:
    """Print the table of opening a root with `events` journaled results."""
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        roots = {}
        for name in ("empty", "big"):
            roots[name] = base / name
            roots[name].mkdir()
            with Session(roots[name], state_dir=base / "state") as s:
                db_path = s.sandbox.index.path
            if name == "big":
                _fill(db_path, events)
                db_size = db_path.stat().st_size
        jsonl = base / "journal.jsonl"
        with jsonl.open("w") as out:
            for n in range(events):
                out.write(json.dumps(_event(n)) + "\n")

        def open_root(name: str) -> Callable[[], None]:
            def run() -> None:
                Session(roots[name], state_dir=base / "state").close()

            return run

        def read_jsonl() -> None:
            with jsonl.open() as fh:
                entries = [json.loads(line) for line in fh]
            assert len(entries) == events

        os.sync()
        rows = [
            ("Session(root), empty state", *_measure(open_root("empty"), repeat)),
            (f"Session(root), {events:,} events", *_measure(open_root("big"), repeat)),
            ("reference: read + parse the JSONL history", *_measure(read_jsonl, repeat)),
        ]
    print(f"state index {db_size / 1e6:.1f} MB, JSONL {jsonl_size(events) / 1e6:.1f} MB")
    print(f"{'case':<44} {'median':>10} {'peak memory':>12} {'vs empty':>9}")
    empty_time = rows[0][1]
    for label, seconds, peak in rows:
        print(f"{label:<44} {seconds * 1000:>8.1f}ms {peak / 1e3:>10.0f}kB "
              f"{seconds / empty_time:>8.1f}x")  # fmt: skip


def jsonl_size(events: int) -> int:
    """The size of the JSONL history of `events` events."""
    return sum(len(json.dumps(_event(n))) + 1 for n in range(events))


if __name__ == "__main__":
    main()
