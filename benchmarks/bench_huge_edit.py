"""A one-line edit of a file far over the size cap vs the floor of rewriting it: `cp` + fsync.

Run: python benchmarks/bench_huge_edit.py [--gib 2] [--repeat 3] [--at 0.5] [--patch]

Generates (once, under the system's temporary folder, never sparse) a file of about `--gib` GiB
of numbered rows, then alternates, `--repeat` times each:

- `cp` of the file to a new name in the same folder, then an fsync of the copy: what any tool that
  rewrites the whole file pays at least;
- `edit` of one row at `--at` of the file (a fraction of its size) through `Session` with the
  default 64 MiB cap, twice: in a running session (a process that stays up between edits, as an
  MCP server or an agent's runtime does; the session is opened before the clock starts) and as a
  new process (interpreter, imports and state included). One streamed pass finds the row (and
  that it is the only one), numbers its line and hashes the old and the new content, while a
  thread has the kernel copy each settled range into the new file (its write-back started as it
  goes); then fsync, rename, the old inode linked into the state as the undo snapshot. The new
  process turns the row back, so every edit is a real change of the same size.

`os.sync()` runs before each timed phase, so neither pays for the other's dirty pages, and the
file is then read through once, untimed, so each phase starts from a file wholly in the page
cache (the edit starts its new file's write-back early, which may leave parts of it uncached for
the `cp` that follows). The table gives median wall times, their ratios (target: at most 1.3),
the CPU seconds of each (user + system over all the process's threads; for the running session,
over the edit alone: a figure the load of a shared machine disturbs less than the wall time),
the load average around the run, the time of the new-process edit on a one-row file
(interpreter, imports and state: a fixed part of its time that `cp` does not pay) and that
process's peak resident size (`ru_maxrss`, from `wait4`), beside that of the one-row edit. The
state folder of each edit is removed after it, taking the snapshot with it (its link only: the
disk does not fill).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MiB = 1 << 20
ROW = 64  # bytes a row, newline included

_CHILD = """
import sys
from edittools import Session
root, state, old, new, tool = sys.argv[1:6]
with Session(root, state_dir=state, require_read=False) as s:
    if tool == "edit":
        result = s.edit("big.txt", old, new)
    else:
        patch = f"*** Begin Patch\\n*** Update File: big.txt\\n@@\\n-{old}\\n+{new}\\n*** End Patch\\n"
        result = s.apply_patch(patch)
if result.is_error:
    sys.exit(result.value)
print(result.value.splitlines()[0])
"""

_WORKER = """
import json, os, shutil, sys, time
from edittools import Session
root, state = sys.argv[1:3]
for line in sys.stdin:
    old, new = json.loads(line)
    with Session(root, state_dir=state, require_read=False) as s:
        began, times = time.perf_counter(), os.times()
        result = s.edit("big.txt", old, new)
        seconds, after = time.perf_counter() - began, os.times()
    shutil.rmtree(state)
    cpu = after.user + after.system - times.user - times.system
    print(json.dumps([result.is_error and result.value, seconds, cpu]), flush=True)
"""


def _row(k: int) -> bytes:
    return b"%012d %-49s\n" % (k, b"payload-%d" % (k * 2654435761 % 1000003))


def generate(folder: Path, size: int) -> Path:
    """The test file of `size` bytes (rounded to whole rows), written once and reused."""
    path = folder / "root" / "big.txt"
    rows = size // ROW
    if path.exists() and path.stat().st_size == rows * ROW:
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    block = 1 << 16
    with path.open("wb") as f:
        for first in range(0, rows, block):
            f.write(b"".join(_row(k) for k in range(first, min(first + block, rows))))
        f.flush()
        os.fsync(f.fileno())
    return path


def warm(path: Path) -> None:
    """Read `path` through once, so that the timed phase finds it all in the page cache."""
    buffer = bytearray(8 * MiB)
    with path.open("rb", buffering=0) as f:
        while f.readinto(buffer):
            pass


def time_copy(path: Path) -> tuple[float, float]:
    """Seconds of `cp` + fsync of the copy, and the CPU seconds `cp` used (user + system)."""
    target = path.with_name("copy.txt")
    os.sync()
    warm(path)
    began = time.perf_counter()
    child = subprocess.Popen(["cp", str(path), str(target)])
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"cp failed ({child.returncode})")
    fd = os.open(target, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    seconds = time.perf_counter() - began
    target.unlink()
    return seconds, usage.ru_utime + usage.ru_stime


def time_edit(
    path: Path, state: Path, old: str, new: str, tool: str = "edit"
) -> tuple[float, float, int]:
    """Seconds of one edit (or `apply_patch` of the same line) in a child process, its CPU
    seconds (user + system, every thread) and its peak resident size in bytes."""
    os.sync()
    warm(path)
    began = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(path.parent), str(state), old, new, tool],
        stdout=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - began
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"the edit failed ({child.returncode})")
    shutil.rmtree(state)
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


class SessionWorker:
    """A process that stays up and edits in a session when asked: the edit without the start."""

    def __init__(self, path: Path, state: Path) -> None:
        self._child = subprocess.Popen(
            [sys.executable, "-c", _WORKER, str(path.parent), str(state)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self._path = path

    def edit(self, old: str, new: str) -> tuple[float, float]:
        """Seconds of one edit in the running session, and the CPU seconds it used."""
        assert self._child.stdin is not None and self._child.stdout is not None
        os.sync()
        warm(self._path)
        self._child.stdin.write(json.dumps([old, new]) + "\n")
        self._child.stdin.flush()
        error, seconds, cpu = json.loads(self._child.stdout.readline())
        if error:
            raise SystemExit(f"the edit failed: {error}")
        return seconds, cpu

    def close(self) -> None:
        """End the process (its standard input closes)."""
        assert self._child.stdin is not None
        self._child.stdin.close()
        self._child.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gib", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--at", type=float, default=0.5, help="where the edited row is (0-1)")
    parser.add_argument(
        "--patch", action="store_true", help="also time apply_patch of the same line each run"
    )
    args = parser.parse_args()
    folder = Path(tempfile.gettempdir()) / "edittools-bench-huge-edit"
    path = generate(folder, int(args.gib * 1024 * MiB))
    before = f"{os.getloadavg()[0]:.2f}"
    k = int(path.stat().st_size // ROW * args.at)
    row = _row(k).decode().rstrip("\n")
    changed = row.replace("payload", "PAYLOAD")
    copies, edits, peaks, cpu_copy, cpu_edit = [], [], [], [], []
    in_session: list[float] = []
    cpu_session: list[float] = []
    patches: list[float] = []
    cpu_patch: list[float] = []
    worker = SessionWorker(path, folder / "state")
    for n in range(args.repeat):
        seconds, cpu = time_copy(path)
        copies.append(seconds)
        cpu_copy.append(cpu)
        # Each run changes the row and turns it back; the two ways take turns going first (an
        # edit that follows another reads a file the kernel has just written, which can cost
        # more than reading one cached by a read).
        first, second = (row, changed), (changed, row)
        session_pair, process_pair = (first, second) if n % 2 == 0 else (second, first)
        if n % 2:
            seconds, cpu, peak = time_edit(path, folder / "state", *process_pair)
        seconds_session, cpu_session_edit = worker.edit(*session_pair)
        if n % 2 == 0:
            seconds, cpu, peak = time_edit(path, folder / "state", *process_pair)
        in_session.append(seconds_session)
        cpu_session.append(cpu_session_edit)
        edits.append(seconds)
        cpu_edit.append(cpu)
        peaks.append(peak)
        if args.patch:  # the row changed by a one-hunk patch, then turned back
            seconds, cpu, _ = time_edit(path, folder / "state", row, changed, "apply_patch")
            patches.append(seconds)
            cpu_patch.append(cpu)
            time_edit(path, folder / "state", changed, row)
    worker.close()
    small = folder / "small"  # the same child on a one-row file: the interpreter and imports
    small.mkdir(exist_ok=True)
    (small / "big.txt").write_text(row + "\n")
    start, _, floor = time_edit(small / "big.txt", folder / "state", row, changed)
    size = path.stat().st_size
    copy, edit = statistics.median(copies), statistics.median(edits)
    running = statistics.median(in_session)
    print(f"file: {size / (1024 * MiB):.2f} GiB ({size} bytes), row {k + 1}, {args.repeat} runs")
    print(f"load average before / after: {before} / {os.getloadavg()[0]:.2f} (2 cores shared)")
    print(f"{'phase':<28}{'median s':>10}{'CPU s':>8}{'runs':>30}")
    phases = [
        ("cp + fsync", copies, cpu_copy),
        ("edit, running session", in_session, cpu_session),
        ("edit, new process", edits, cpu_edit),
    ]
    if patches:
        phases.append(("apply_patch (streamed)", patches, cpu_patch))
    for name, times, cpus in phases:
        runs = " ".join(f"{x:.2f}" for x in times)
        print(
            f"{name:<28}{statistics.median(times):>10.2f}{statistics.median(cpus):>8.2f}{runs:>30}"
        )
    print(f"ratio edit in a running session / (cp + fsync): {running / copy:.2f}  (target <= 1.3)")
    print(f"ratio edit as a new process / (cp + fsync): {edit / copy:.2f}")
    ratios = " ".join(f"{e / c:.2f}" for e, c in zip(in_session, copies, strict=True))
    print(f"per run, running session / the cp before it: {ratios}")
    print(f"the same edit process on a one-row file (interpreter, imports, state): {start:.2f} s")
    print(
        f"edit peak RSS: {max(peaks) / MiB:.1f} MiB "
        f"(the same process editing a one-row file: {floor / MiB:.1f} MiB)"
    )


if __name__ == "__main__":
    main()
