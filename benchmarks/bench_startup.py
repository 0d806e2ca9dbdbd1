"""Start-up of ``edittools diff`` on two small files, beside Python itself, git and GNU diff.

Also ``edittools edit --dry-run`` of one line of the same small file: the start of a command that
opens a session (the tools, the models, the state) and makes a change.

Each command runs many times in turn (interleaved, so a busy machine slows them alike); the table
gives the minimum and the median wall time of each and its ratio to the bare interpreter. Then
``python -X importtime`` lists the modules the command loads that take longest, so a regression
names its culprit.

Usage: ``python benchmarks/bench_startup.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _time(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def _import_times(argv: list[str], cwd: Path, env: dict[str, str], top: int) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", *argv[1:]],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    rows = []
    for line in proc.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    rows.sort(reverse=True)
    return [f"{micros / 1000:8.1f} ms {name}" for micros, name in rows[:top]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="runs of each command")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(HERE.parent))
    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as state:
        cwd = Path(folder)
        (cwd / "old.py").write_text("".join(f"line {i}\n" for i in range(200)))
        (cwd / "new.py").write_text(
            "".join(f"line {i}\n" for i in range(200)).replace("7\n", "7!\n")
        )
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "edittools diff": [sys.executable, "-m", "edittools", "diff", "old.py", "new.py"],
            "edittools diff --json": [
                sys.executable, "-m", "edittools", "diff", "old.py", "new.py", "--json"
            ],
            "edittools edit --dry-run": [
                sys.executable, "-m", "edittools", "edit", "--root", ".", "--state-dir", state,
                "--dry-run", "old.py", "line 199", "line 199!",
            ],
            "git diff --no-index": ["git", "diff", "--no-index", "old.py", "new.py"],
            "GNU diff -u": ["diff", "-u", "old.py", "new.py"],
        }  # fmt: skip
        times: dict[str, list[float]] = {name: [] for name in commands}
        for argv in commands.values():
            _time(argv, cwd, env)  # warm the caches once
        for _ in range(args.runs):
            for name, argv in commands.items():
                times[name].append(_time(argv, cwd, env))
        base = statistics.median(times["python -c pass"])
        print(f"# start-up, {args.runs} interleaved runs each, python {sys.version.split()[0]}")
        print(f"{'command':<24} {'min':>9} {'median':>9} {'x python':>9}")
        for name, values in times.items():
            median = statistics.median(values)
            print(
                f"{name:<24} {min(values) * 1000:>7.1f}ms {median * 1000:>7.1f}ms "
                f"{median / base:>9.2f}"
            )
        print("\nslowest imports of `edittools diff` (cumulative):")
        for row in _import_times(commands["edittools diff"], cwd, env, top=8):
            print(row)


if __name__ == "__main__":
    main()
