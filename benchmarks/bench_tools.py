"""Tool latency on large files: an edit of one line vs a plain read + atomic write of the file.

Run: python benchmarks/bench_tools.py [--lines N] [--repeat K]

Each case runs in this one process on the same file in a temporary sandbox, and the table reports
median wall times and the ratio of each tool call to the baseline (the sandbox's own read_bytes +
atomic write_bytes of the same bytes, the least any safe edit can cost). A second baseline adds the
durable copy of the old bytes that makes the edit undoable.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from edittools import Session
from sandbox import Sandbox


def _make_file(path: Path, lines: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    words = ["alpha", "beta", "gamma", "delta", "value", "return", "self", "index", "total"]
    body = [
        f"    {rng.choice(words)}_{i} = {rng.choice(words)}({rng.randint(0, 9999)})  # line {i}"
        for i in range(lines)
    ]
    path.write_text("\n".join(body) + "\n")
    return body


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
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp, "root")  # the state goes beside it, not into the user's state folder
        root.mkdir()
        body = _make_file(root / "big.py", args.lines)
        size = Path(root, "big.py").stat().st_size
        sb = Sandbox(root, state_dir=Path(tmp, "state"))

        def baseline() -> None:
            data, version = sb.read_bytes("big.py")
            sb.write_bytes("big.py", data, expect=version)

        def undoable_baseline() -> None:
            data, version = sb.read_bytes("big.py")
            sb.store.put(data + b"#")  # a fresh blob each run, as an edit's undo snapshot is
            sb.write_bytes("big.py", data, expect=version)

        session = Session(sandbox=sb, journal=False)
        session.read("big.py", limit=10)
        middle = body[len(body) // 2]
        state = {"flip": False}

        def edit_one_line() -> None:
            old, new = (middle, middle + "  # edited") if not state["flip"] else (
                middle + "  # edited", middle)  # fmt: skip
            state["flip"] = not state["flip"]
            result = session.edit("big.py", old, new)
            assert not result.is_error, result.value

        def read_window() -> None:
            assert not session.read("big.py", offset=len(body) // 2, limit=2000).is_error

        def undo_last() -> None:
            session.edit("big.py", middle, middle + "  # undo me")
            assert not session.undo("big.py").is_error

        cases = [
            ("read_bytes + atomic write_bytes (baseline)", baseline),
            ("baseline + undo snapshot in the blob store", undoable_baseline),
            ("edit: one line, unique match", edit_one_line),
            ("read: 2000-line window in the middle", read_window),
            ("edit + undo", undo_last),
        ]
        base = None
        print(f"{args.lines:,} lines, {size / 1e6:.1f} MB, median of {args.repeat} runs")
        print(f"{'case':<45} {'median':>10} {'x baseline':>11}")
        for name, fn in cases:
            fn()  # warm the page cache and the blob store
            t = _median(fn, args.repeat)
            base = base or t
            print(f"{name:<45} {t * 1000:>8.1f}ms {t / base:>10.2f}x")
        session.close()


if __name__ == "__main__":
    main()
