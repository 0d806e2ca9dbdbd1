"""The tree case of ``bench_diff.py --trees``: two releases of a package's source tree.

Setup downloads the two source distributions with ``pip download --no-deps --no-binary :all:``
(once, cached under the system's temporary folder) and unpacks them. Then, in one run, each
engine diffs the two trees as a process: ``edittools diff --numstat`` (the installed command),
``git diff --no-index --stat`` and ``--numstat``, and ``diff -r``, in turn (interleaved, so a
busy machine slows them alike); the table gives the minimum and median wall time, the ratio of
the medians to ``git diff --no-index --stat``, the median of the ratios of each run to git's run
of the same round ("paired", which follows less of a drift in the machine's speed), and the load
average around the runs. The package's bytecode is compiled first, as an installed package's
is (with ``PYTHONDONTWRITEBYTECODE`` set, every run would otherwise compile the modules it
imports). The numstats are compared file by file: names, rename
pairs and counts. Where the counts differ, GNU ``diff --minimal`` on that file says which side
is minimal (git's default diff is not always minimal, and the engine's is).
"""

from __future__ import annotations

import compileall
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

PACKAGE = "Django"
RELEASES = ("4.2", "5.0")


def fetch(folder: Path, package: str = PACKAGE, releases: tuple[str, str] = RELEASES) -> list[Path]:
    """The two unpacked source trees, downloaded and unpacked on first use."""
    folder.mkdir(parents=True, exist_ok=True)
    trees = []
    for release in releases:
        tree = folder / f"{package}-{release}"
        if not tree.is_dir():
            archives = list(
                folder.glob(f"[{package[0].lower()}{package[0]}]{package[1:]}-{release}.tar.gz")
            )
            if not archives:
                subprocess.run(
                    [sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                     "--no-binary", ":all:", f"{package}=={release}", "-d", str(folder)],
                    check=True,
                )  # fmt: skip
                archives = list(folder.glob(f"*-{release}.tar.gz"))
            with tarfile.open(archives[0]) as archive:
                archive.extractall(folder, filter="data")
        trees.append(tree)
    return trees


def _timed(
    commands: dict[str, list[str]], cwd: Path, repeats: int
) -> dict[str, tuple[list[float], str]]:
    """Wall times of each command, run in turn `repeats` times, and its last output."""
    results: dict[str, tuple[list[float], str]] = {name: ([], "") for name in commands}
    for _ in range(repeats):
        for name, argv in commands.items():
            start = time.perf_counter()
            proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
            results[name] = ([*results[name][0], time.perf_counter() - start], proc.stdout)
    return results


def _git_rows(out: str, old: str, new: str) -> dict[str, tuple[str, str]]:
    rows = {}
    for line in out.splitlines():
        added, removed, name = line.split("\t")
        match = re.fullmatch(r"(.*)\{(.*) => (.*)\}(.*)", name)
        pair = (
            [f"{match[1]}{match[2]}{match[4]}", f"{match[1]}{match[3]}{match[4]}"]
            if match
            else name.split(" => ")
        )
        names = [
            p.replace("//", "/").removeprefix(f"{old}/").removeprefix(f"{new}/")
            for p in pair
            if p != "/dev/null"
        ]
        rows[names[0] if len(set(names)) == 1 else " => ".join(names)] = (added, removed)
    return rows


def _our_rows(out: str) -> dict[str, tuple[str, str]]:
    return {
        name: (added, removed)
        for added, removed, name in (line.split("\t") for line in out.splitlines())
    }


def _minimal(cwd: Path, old: str, new: str, name: str) -> tuple[str, str]:
    source, _, target = name.partition(" => ")
    out = subprocess.run(
        ["diff", "--minimal", f"{old}/{source}", f"{new}/{target or source}"],
        cwd=cwd,
        capture_output=True,
        check=False,
    ).stdout
    lines = out.split(b"\n")
    return str(sum(line.startswith(b">") for line in lines)), str(
        sum(line.startswith(b"<") for line in lines)
    )


def program() -> list[str]:
    """The installed ``edittools`` command beside this interpreter, as a person runs it (else
    ``python -m edittools``, which also loads runpy)."""
    script = Path(sys.executable).with_name("edittools")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "edittools"]


def bench(repeats: int = 9) -> None:
    """Fetch the trees and print the table and the numstat comparison."""
    folder = Path(tempfile.gettempdir()) / "edittools-bench-trees"
    old_tree, new_tree = fetch(folder)
    compileall.compile_dir(Path(__file__).resolve().parent.parent / "edittools", quiet=1)
    old, new = old_tree.name, new_tree.name
    files = sum(1 for path in old_tree.rglob("*") if path.is_file())
    commands = {
        "edittools diff --numstat": [*program(), "diff", "--numstat"],
        "git diff --no-index --stat": ["git", "diff", "--no-index", "--stat"],
        "git diff --no-index --numstat": ["git", "diff", "--no-index", "--numstat"],
        "diff -r": ["diff", "-r"],
    }
    load_before = os.getloadavg()[0]
    results = _timed({name: [*argv, old, new] for name, argv in commands.items()}, folder, repeats)
    load_after = os.getloadavg()[0]
    git_times = results["git diff --no-index --stat"][0]
    git = statistics.median(git_times)
    print(
        f"\n## {PACKAGE} {RELEASES[0]} -> {RELEASES[1]} source trees ({files} files in the old one)"
    )
    print(
        f"{repeats} interleaved runs each; load average (1 min) {load_before:.2f} before, "
        f"{load_after:.2f} after, on {os.cpu_count()} CPUs"
    )
    print(f"{'engine':<32} {'min':>8} {'median':>9} {'x git --stat':>13} {'paired':>7}")
    for name, (times, _) in results.items():
        median = statistics.median(times)
        # Each run beside git's run of the same round: a machine whose speed drifts during the
        # runs moves both, and the median of these ratios follows less of the drift.
        paired = statistics.median(
            run / beside for run, beside in zip(times, git_times, strict=True)
        )
        print(
            f"{name:<32} {min(times):>7.3f}s {median:>8.3f}s {median / git:>13.3f} {paired:>7.3f}"
        )
    ours = _our_rows(results["edittools diff --numstat"][1])
    theirs = _git_rows(results["git diff --no-index --numstat"][1], old, new)
    same_names = ours.keys() == theirs.keys()
    differing = sorted(name for name in ours.keys() & theirs.keys() if ours[name] != theirs[name])
    ours_minimal = sum(ours[name] == _minimal(folder, old, new, name) for name in differing)
    binary_only = sorted(name for name in differing if ours[name] == ("-", "-"))
    print(
        f"numstat: {len(ours)} files (git {len(theirs)}), same names and rename pairs: "
        f"{same_names}; same counts: {len(ours) - len(differing)}; different: {len(differing)}, "
        f"of which GNU diff --minimal agrees with edittools on {ours_minimal} and "
        f"{len(binary_only)} are files edittools calls binary (not UTF-8): {binary_only}"
    )
    if not same_names:
        print("only edittools:", sorted(ours.keys() - theirs.keys())[:10])
        print("only git:", sorted(theirs.keys() - ours.keys())[:10])
