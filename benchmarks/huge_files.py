"""The huge-file case of ``bench_diff.py --huge``: a 10M-line pair with 100 scattered edits.

Each engine runs as its own process on the same two files: the installed ``edittools diff``
(memory-mapped), ``git diff --no-index`` and GNU ``diff``, in turn, `repeats` rounds (a shared
machine drifts: each round's runs see about the same load). Wall time, +N/-N and two memory
figures are measured for each run: the peak resident size (``ru_maxrss``; for edittools it
includes the file pages the kernel maps from its cache, which are shared and reclaimable) and the
peak *anonymous* resident memory (``RssAnon``, the memory the process itself allocated), sampled
from ``/proc`` every millisecond while the process runs. The table gives the minimum and median
wall time, the ratio of the medians to git's, the median of each run's ratio to git's run of the
same round ("paired"), and the load average before and after. The package's bytecode is compiled
first, as an installed package's is. Files over git's ``core.bigFileThreshold`` (512 MiB) are
binary to ``git diff``; then git runs a second time with the threshold raised, a line diff. The
files are generated once, with a fixed seed, under the system's temporary folder (never in the
repository), and reused by later runs.
"""

from __future__ import annotations

import compileall
import os
import random
import statistics
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from release_trees import program

MiB = 1024 * 1024
LINES = 10_000_000
EDITS = 100
GIT_BIG_FILE = 512 * MiB
"""git's default ``core.bigFileThreshold``: larger files are binary to ``git diff``."""
_WORDS = [b"alpha", b"beta", b"gamma", b"delta", b"epsilon", b"zeta", b"eta", b"theta"]


@dataclass
class HugeRow:
    engine: str
    seconds: float
    added: int
    removed: int
    peak_rss: float
    peak_anon: float


def _line(i: int) -> bytes:
    return b"%09d %-7s %-7s value=%07d ok;\n" % (
        i,
        _WORDS[i % 8],
        _WORDS[(i * 7) % 8],
        (i * 2654435761) % 1000003,
    )


def generate(folder: Path, lines: int = LINES, edits: int = EDITS) -> tuple[Path, Path]:
    """Write (once) a pair of files: `lines` lines, `edits` changed, inserted or deleted lines."""
    folder.mkdir(parents=True, exist_ok=True)
    old, new = folder / f"old-{lines}.txt", folder / f"new-{lines}.txt"
    if old.exists() and new.exists():
        return old, new
    rng = random.Random(17)
    targets = sorted(rng.sample(range(lines), edits))
    at = 0
    with open(f"{old}.part", "wb") as fa, open(f"{new}.part", "wb") as fb:
        for start in range(0, lines, 100_000):
            a: list[bytes] = []
            b: list[bytes] = []
            for i in range(start, min(start + 100_000, lines)):
                line = _line(i)
                a.append(line)
                if at < len(targets) and targets[at] == i:
                    kind = at % 3
                    if kind == 0:
                        b.append(line.replace(b"value", b"VALUE"))
                    elif kind == 1:
                        b.append(line)
                        b.append(b"inserted after %d\n" % i)
                    at += 1  # kind 2 drops the line
                else:
                    b.append(line)
            fa.write(b"".join(a))
            fb.write(b"".join(b))
    os.replace(f"{old}.part", old)
    os.replace(f"{new}.part", new)
    return old, new


def _anon_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith(b"RssAnon:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def run(engine: str, argv: list[str]) -> HugeRow:
    """Run one engine; its unified output goes to a temporary file and is counted after."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL)
        peak = [0]
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                peak[0] = max(peak[0], _anon_kib(process.pid))
                done.wait(0.001)

        sampler = threading.Thread(target=sample)
        sampler.start()
        _, _, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        done.set()
        sampler.join()
        process.returncode = 0  # reaped by wait4 above
        out.seek(0)
        added, removed = count_unified(out.read())
    return HugeRow(engine, seconds, added, removed, usage.ru_maxrss / 1024, peak[0] / 1024)


def count_unified(text: bytes) -> tuple[int, int]:
    """+N/-N of a unified diff: marker lines inside hunks only (headers are not counted)."""
    added = removed = 0
    in_hunk = False
    for line in text.split(b"\n"):
        if line.startswith(b"@@"):
            in_hunk = True
        elif line.startswith(b"diff ") or (line.startswith(b"--- ") and not in_hunk):
            in_hunk = False
        elif in_hunk and line.startswith(b"+"):
            added += 1
        elif in_hunk and line.startswith(b"-"):
            removed += 1
    return added, removed


def bench(lines: int = LINES, repeats: int = 3) -> None:
    """Generate (or reuse) the pair and print one table of the three engines, run in turn."""
    folder = Path(tempfile.gettempdir()) / "edittools-bench-huge"
    old, new = generate(folder, lines)
    size = old.stat().st_size + new.stat().st_size
    compileall.compile_dir(Path(__file__).resolve().parent.parent / "edittools", quiet=1)
    # Warm the page cache for every engine alike.
    for path in (old, new):
        with open(path, "rb") as handle:
            while handle.read(16 * MiB):
                pass
    pair = [str(old), str(new)]
    commands = {
        "edittools diff (mmap)": [*program(), "diff", "--context", "3", *pair],
        "git diff --no-index": ["git", "diff", "--no-index", *pair],
        "GNU diff -u": ["diff", "-u", *pair],
    }
    if max(old.stat().st_size, new.stat().st_size) > GIT_BIG_FILE:
        # Past core.bigFileThreshold git hashes both files and says "Binary files differ":
        # its row is no line diff. This one is, with the threshold raised over the files.
        commands["git, threshold raised"] = [
            "git", "-c", f"core.bigFileThreshold={size}", "diff", "--no-index", *pair,
        ]  # fmt: skip
    load_before = os.getloadavg()[0]
    runs: dict[str, list[HugeRow]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name, argv in commands.items():
            runs[name].append(run(name, argv))
    load_after = os.getloadavg()[0]
    git_times = [row.seconds for row in runs["git diff --no-index"]]
    git = statistics.median(git_times)
    print(
        f"\n## huge pair: {lines:,} lines, {EDITS} scattered edits ({size / MiB:.0f} MiB of input)"
    )
    print(
        f"{repeats} interleaved runs each; load average (1 min) {load_before:.2f} before, "
        f"{load_after:.2f} after, on {os.cpu_count()} CPUs"
    )
    print(
        f"{'engine':<24} {'min':>8} {'median':>8} {'x git':>7} {'paired':>7} {'+N/-N':>11} "
        f"{'peak RSS':>10} {'peak anon':>10}"
    )
    for name, rows in runs.items():
        times = [row.seconds for row in rows]
        median = statistics.median(times)
        paired = statistics.median(t / beside for t, beside in zip(times, git_times, strict=True))
        counts = {(row.added, row.removed) for row in rows}
        added, removed = counts.pop() if len(counts) == 1 else (-1, -1)  # -1: runs disagree
        print(
            f"{name:<24} {min(times):>7.2f}s {median:>7.2f}s {median / git:>7.3f} {paired:>7.3f} "
            f"{f'+{added}/-{removed}':>11} {max(row.peak_rss for row in rows):>8.1f}Mi "
            f"{max(row.peak_anon for row in rows):>8.1f}Mi"
        )
