"""Watch start-up on a large tree: `Watcher(track_all=True).start()` vs a plain walk + stat of it.

Run: python benchmarks/bench_watch.py [--files N] [--per-folder K] [--repeat R] [--warm]

One temporary tree of N small text files (K per folder) is made once; each case runs in this one
process on that tree, and the table reports median wall times and the ratio to the baseline, an
`os.walk` with one `lstat` per file (the least a watcher that notices changes to untouched files
can do). Starting the watcher also registers an inotify watch per folder and returns before the
background pass that reads file contents; with --warm that pass is timed too (it reads, hashes and
stores every file, as start() itself did before, so it takes minutes on 100,000 files).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sandbox import Sandbox, Watcher


def _make_tree(root: Path, files: int, per_folder: int) -> None:
    for i in range(files):
        folder = root / f"d{i // per_folder // 100:03}" / f"s{i // per_folder % 100:02}"
        if i % per_folder == 0:
            folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{i}.py").write_text(f"value = {i}\n")


def _walk_and_stat(root: str) -> int:
    count = 0
    for folder, _, names in os.walk(root):
        for name in names:
            os.lstat(os.path.join(folder, name))
            count += 1
    return count


def _median(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--per-folder", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--warm", action="store_true", help="also time the background pass")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _make_tree(root, args.files, args.per_folder)
        with Sandbox(root) as sb:

            def start_and_stop() -> None:
                watcher = Watcher(sb, track_all=True)
                start = time.perf_counter()
                watcher.start()
                started.append(time.perf_counter() - start)
                watcher.stop()  # not timed: stopping waits for nothing but the threads

            def warm() -> None:
                with Watcher(sb, track_all=True) as watcher:
                    assert watcher.warmed()

            started: list[float] = []
            base = _median(lambda: _walk_and_stat(tmp), args.repeat)
            _median(start_and_stop, args.repeat)
            start_time = statistics.median(started)
            print(f"{args.files:,} files, {args.per_folder} per folder, median of {args.repeat}")
            print(f"{'case':<52} {'median':>10} {'x baseline':>11}")
            rows = [
                ("os.walk + lstat of every file (baseline)", base),
                ("Watcher(track_all=True).start()", start_time),
            ]
            if args.warm:
                rows.append(("start() until the background pass read every file", _median(warm, 1)))
            for name, t in rows:
                print(f"{name:<52} {t * 1000:>8.0f}ms {t / base:>10.2f}x")


if __name__ == "__main__":
    main()
