"""Tool cost on large files: a one-line edit (and edit + undo) vs a plain read + atomic write.

Run: python benchmarks/bench_tools.py [--lines N] [--repeat K]

Each case runs in this one process on the same file in a temporary sandbox, and the table reports
median wall times and the ratio of each case to the floor: a plain read of the file and an
atomic, durable write of the same bytes (temp file, fsync, rename, fsync of the folder), the least
any safe change can cost. Dirty pages are flushed
(`os.sync()`) before every timed run, so no case pays for the write-back another left behind.
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


def _large(args: argparse.Namespace, root: str, state: Path) -> None:
    body = _make_file(Path(root, "big.py"), args.lines)
    size = Path(root, "big.py").stat().st_size
    sb = Sandbox(root, state_dir=state)

    def floor() -> None:
        # What rewriting the file safely costs at least: one read, temp + fsync + rename + fsync.
        with open(Path(root, "big.py"), "rb") as fh:
            data = fh.read()
        tmp = Path(root, ".big.py.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.rename(tmp, Path(root, "big.py"))
        dfd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)

    def sandbox_primitives() -> None:
        data, version = sb.read_bytes("big.py")
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

    def edit_then_undo() -> None:
        assert not session.edit("big.py", middle, middle + "  # undo me").is_error
        assert not session.undo("big.py").is_error

    def read_window() -> None:
        assert not session.read("big.py", offset=len(body) // 2, limit=2000).is_error

    cases = [
        ("read + atomic write, plain os calls (floor)", floor),
        ("sandbox read_bytes + write_bytes(expect=)", sandbox_primitives),
        ("edit: one line, undo snapshot included", edit_one_line),
        ("edit + undo (two writes)", edit_then_undo),
        ("read: 2000-line window in the middle", read_window),
    ]
    base = None
    print(f"{args.lines:,} lines, {size / 1e6:.1f} MB, median of {args.repeat} runs, synced")
    print(f"{'case':<45} {'median':>10} {'x floor':>11}")
    for name, fn in cases:
        fn()  # warm the page cache
        t = _median(fn, args.repeat)
        base = base or t
        print(f"{name:<45} {t * 1000:>8.1f}ms {t / base:>10.2f}x")
    session.close()
    sb.close()


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
    parser.add_argument("--repeat", type=int, default=7)
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
