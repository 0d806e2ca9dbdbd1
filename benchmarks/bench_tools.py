"""Tool cost on large files: a one-line edit (and edit + undo) vs a plain read + atomic write.

Run: python benchmarks/bench_tools.py [--lines N] [--repeat K]

Measured as a held-out check measures it: a file of N short lines of random words (1M lines,
about 37 MB), then rounds of: a read of 20 lines in the middle, one edit of one line there, an
edit + undo, and the floor (read the whole file, write a temp file, fsync, rename, fsync the
folder), each timed after `os.sync()` so no case pays for another's write-back. The table gives
the medians over the rounds and each one's ratio to the floor's median, with every run.
Then the sizes: bytes added to the state by one-line edits of a 1 MB file, and the JSON size of
the result of a one-line edit of a 47 KB file; and the median of one-line edits of a small file.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from edittools import Session


def _make_file(path: Path, lines: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    words = ["alpha", "beta", "gamma", "delta", "value", "return", "self", "index", "total"]
    body = [
        f"    {rng.choice(words)}_{i} = {rng.choice(words)}({rng.randint(0, 9999)})  # line {i}"
        for i in range(lines)
    ]
    path.write_text("\n".join(body) + "\n")
    return body


def _median(fn: Callable[[], object], repeat: int, *, sync: bool = True) -> float:
    times = []
    for _ in range(repeat):
        if sync:
            os.sync()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _state_bytes(state: Path, skip: set[int] | None = None) -> tuple[int, set[int]]:
    """Bytes of the state folder's files (each inode once, `skip` left out), and the inodes."""
    seen: set[int] = set(skip or ())
    total = 0
    for folder, _, files in os.walk(state):
        for name in files:
            st = os.lstat(os.path.join(folder, name))
            if st.st_ino not in seen:
                seen.add(st.st_ino)
                total += st.st_size
    return total, seen


def _make_word_file(path: Path, lines: int, seed: int = 7) -> list[str]:
    """Short lines of random words (about 36 bytes each), as the held-out check writes them."""
    rng = random.Random(seed)
    words = ["alpha", "beta", "gamma", "delta", "omega", "kappa", "sigma", "theta", "lambda"]
    body = [f"{' '.join(rng.choice(words) for _ in range(5))} {i}" for i in range(lines)]
    path.write_text("\n".join(body) + "\n")
    return body


def _floor(root: str, name: str) -> None:
    """What rewriting the file safely costs at least: read it all, write a temp file, fsync,
    rename over the file, fsync the folder."""
    with open(Path(root, name), "rb") as fh:
        data = fh.read()
    tmp = Path(root, f".{name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.rename(tmp, Path(root, name))
    dfd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def _timed(fn: Callable[[], object]) -> float:
    """One run of `fn` after `os.sync()`, in seconds."""
    os.sync()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _large(args: argparse.Namespace, root: str, state: Path) -> None:
    """Rounds of: a read of 20 lines in the middle, then one edit, then edit + undo, then the
    floor, each timed after `os.sync()`; medians over the rounds and their ratio to the floor."""
    body = _make_word_file(Path(root, "big.txt"), args.lines)
    size = Path(root, "big.txt").stat().st_size
    middle_index = args.lines // 2
    middle = body[middle_index]
    session = Session(root, state_dir=state)
    flip = {"on": False}

    def edit_one_line() -> None:
        old, new = (middle, middle + " edited") if not flip["on"] else (middle + " edited", middle)
        flip["on"] = not flip["on"]
        result = session.edit("big.txt", old, new)
        assert not result.is_error, result.value

    def edit_then_undo() -> None:
        current = middle + " edited" if flip["on"] else middle
        assert not session.edit("big.txt", current, current + " undo me").is_error
        assert not session.undo("big.txt").is_error

    times: dict[str, list[float]] = {"floor": [], "edit": [], "edit + undo": []}
    _floor(root, "big.txt")  # warm the page cache
    for _ in range(args.repeat):
        window = session.read("big.txt", offset=middle_index - 10, limit=20)
        assert not window.is_error, window.value
        times["edit"].append(_timed(edit_one_line))
        times["edit + undo"].append(_timed(edit_then_undo))
        times["floor"].append(_timed(lambda: _floor(root, "big.txt")))
    session.close()
    floor = statistics.median(times["floor"])
    print(f"{args.lines:,} lines, {size / 1e6:.1f} MB, median of {args.repeat} rounds, synced")
    print(f"{'case':<48} {'median':>10} {'x floor':>9}  runs")
    labels = {
        "floor": "read + temp + fsync + rename + fsync dir (floor)",
        "edit": "edit: one line, after a 20-line read",
        "edit + undo": "edit + undo (two writes)",
    }
    for key, label in labels.items():
        t = statistics.median(times[key])
        runs = " ".join(f"{x * 1000:.0f}" for x in times[key])
        print(f"{label:<48} {t * 1000:>8.1f}ms {t / floor:>8.2f}x  {runs}")


def _sizes(root: str, state: Path) -> None:
    lines = _make_file(Path(root, "mb.py"), 24_000)  # about 1 MB
    small = _make_file(Path(root, "kb47.py"), 1_180)  # about 47 KB
    Path(root, "tiny.py").write_text("x = 1\ny = 2\n")
    with Session(root, state_dir=state) as session:
        for name in ("mb.py", "kb47.py", "tiny.py"):
            session.read(name, limit=1)
        state = session.sandbox.state_path
        assert not session.edit("mb.py", lines[99], lines[99] + " # warm").is_error
        session.sandbox.index.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        before, _ = _state_bytes(state)
        edits = 10
        replaced = set()
        for i in range(edits):
            replaced.add(os.stat(Path(root, "mb.py")).st_ino)
            line = lines[100 + i]
            assert not session.edit("mb.py", line, line + " # x").is_error
        session.sandbox.index.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        after, _ = _state_bytes(state, skip=replaced)
        grown = after - before
        mb = Path(root, "mb.py").stat().st_size / 1e6
        print(f"state growth per one-line edit of a {mb:.1f} MB file: {grown / edits:,.0f} bytes "
              f"(the replaced inode moves into the store by a link: not counted)")  # fmt: skip
        result = session.edit("kb47.py", small[300], small[300] + " # y")
        size = len(result.model_dump_json())
        kb = Path(root, "kb47.py").stat().st_size / 1e3
        print(f"ToolResult JSON of a one-line edit of a {kb:.0f} KB file: {size:,} bytes")
        flip = {"on": False}

        def tiny() -> None:
            old, new = ("x = 1", "x = 2") if not flip["on"] else ("x = 2", "x = 1")
            flip["on"] = not flip["on"]
            assert not session.edit("tiny.py", old, new).is_error

        tiny()
        t = _median(tiny, 51, sync=False)
        print(f"one-line edit of a 12-byte file, in process: median {t * 1000:.2f} ms")


def main() -> None:
    """Print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    # Each sandbox's state goes beside its temporary root, not into the user's state folder.
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "root").mkdir()
        _large(args, str(Path(tmp, "root")), Path(tmp, "state"))
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "root").mkdir()
        _sizes(str(Path(tmp, "root")), Path(tmp, "state"))


if __name__ == "__main__":
    main()
