"""Opening a root with a big history: the state index vs reading a JSONL history whole.

Run: python benchmarks/bench_state.py [--events N] [--repeat K]

Builds, in temporary folders, a root whose state index holds N journaled results and N undo
entries (about 450 bytes of event JSON each, so 100,000 events make a 45 MB journal), and the same
events as a JSONL file. It then times `Session(root)` on that state and on an empty one, and, as the
reference, the way history used to be loaded: reading the JSONL file and parsing every line. The
table reports median wall times, the Python memory peak (tracemalloc) of each, and ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
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


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        roots = {}
        for name in ("empty", "big"):
            roots[name] = base / name
            roots[name].mkdir()
            with Session(roots[name], state_dir=base / "state") as s:
                db_path = s.sandbox.index.path
            if name == "big":
                _fill(db_path, args.events)
                db_size = db_path.stat().st_size
        jsonl = base / "journal.jsonl"
        with jsonl.open("w") as out:
            for n in range(args.events):
                out.write(json.dumps(_event(n)) + "\n")

        def open_root(name: str) -> Callable[[], None]:
            def run() -> None:
                Session(roots[name], state_dir=base / "state").close()

            return run

        def read_jsonl() -> None:
            with jsonl.open() as fh:
                entries = [json.loads(line) for line in fh]
            assert len(entries) == args.events

        os.sync()
        rows = [
            ("Session(root), empty state", *_measure(open_root("empty"), args.repeat)),
            (f"Session(root), {args.events:,} events", *_measure(open_root("big"), args.repeat)),
            ("reference: read + parse the JSONL history", *_measure(read_jsonl, args.repeat)),
        ]
    print(f"state index {db_size / 1e6:.1f} MB, JSONL {jsonl_size(args.events) / 1e6:.1f} MB")
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
