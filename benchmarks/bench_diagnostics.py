"""Diagnostics of a change: how long the project's checker takes to say what a change did.

Run: python benchmarks/bench_diagnostics.py [--rounds N] [--budget S] [--json]

Per checker found here (ruff and basedpyright from this environment; typescript-language-server
from tests/diagnostics/npm once `npm ci` has run there; clangd and gopls on PATH): a small
project configured for it, then `Checkers.check` as a change calls it, after the commit of the
version it checks — cold (a fresh `Checkers`: the server starts) and warm (the same server,
changes that alternately introduce and fix one problem, each a text not checked before, since
answers are cached by text), p50 and p99 — beside the checker's own
command line run on the same file once per round (its p50), and the share of warm checks that
answered within the budget. Targets (issue 35): warm p50 <= 150 ms for ruff, <= 1 s for the type
checkers.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from edittools.diagnostics import SERVERS, Checkers

HERE = Path(__file__).resolve().parent
NPM_BIN = HERE.parent / "tests" / "diagnostics" / "npm" / "node_modules" / ".bin"


@dataclass(frozen=True)
class Case:
    """One checker's project, the file it checks, a clean and a broken version, its command."""

    server: str
    files: dict[str, str]
    path: str
    clean: str
    broken: str
    command: list[str]


CASES = [
    Case("ruff", {"pyproject.toml": '[project]\nname = "p"\n\n[tool.ruff]\n'}, "m.py",
         "def f() -> int:\n    return 1\n", "import os\n\n\ndef f() -> int:\n    return 1\n",
         ["ruff", "check", "--quiet", "m.py"]),
    Case("basedpyright", {"pyproject.toml": '[project]\nname = "p"\n\n[tool.basedpyright]\n'},
         "m.py", "def f() -> int:\n    return 1\n", "def f() -> int:\n    return 'a'\n",
         ["basedpyright", "m.py"]),
    Case("typescript", {"tsconfig.json": '{"compilerOptions": {"strict": true}}\n'}, "m.ts",
         "export const x: number = 1;\n", "export const x: number = 'a';\n",
         ["tsc", "--noEmit", "-p", "."]),
    Case("clangd", {"compile_flags.txt": "-std=c11\n"}, "m.c",
         "int f(void) { return 1; }\n", "int f(void) { return y; }\n",
         ["clang", "-fsyntax-only", "m.c"]),
    Case("gopls", {"go.mod": "module p\n\ngo 1.19\n"}, "m.go",
         "package p\n\nfunc F() int { return 1 }\n",
         "package p\n\nfunc F() int { x := 1; return 1 }\n",
         ["go", "vet", "./..."]),
]  # fmt: skip


def _program(name: str) -> str | None:
    for folder in (Path(sys.prefix) / "bin", NPM_BIN):
        if (folder / name).exists():
            return str(folder / name)
    return shutil.which(name)


def _comment(case: Case, i: int) -> str:
    return f"# round {i}\n" if case.path.endswith(".py") else f"// round {i}\n"


def _ms(values: list[float]) -> float:
    return round(statistics.median(values) * 1000, 1)


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000, 1)


def measure(case: Case, rounds: int, budget: float) -> dict[str, object] | None:
    """The figures of one checker; None when its server is not installed here."""
    spec = next(s for s in SERVERS if s.name == case.server)
    if _program(spec.command[0]) is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for name, text in case.files.items():
            (root / name).write_text(text)
        path = root / case.path
        path.write_text(case.clean)
        with Checkers(root, servers=[spec], search_path=[NPM_BIN], configured_only=True) as c:
            start = time.perf_counter()
            first = c.check(path, None, case.clean, budget=120.0)
            cold = time.perf_counter() - start
            warm, within, before = [], 0, case.clean
            for i in range(rounds):
                # A new text each round (a comment that counts it): answers are cached by text.
                after = (case.broken if i % 2 == 0 else case.clean) + _comment(case, i)
                path.write_text(after)  # the commit, then the check of the version written
                start = time.perf_counter()
                outcome = c.check(path, before, after, budget=budget)
                warm.append(time.perf_counter() - start)
                within += not outcome.pending
                before = after
        program = _program(case.command[0])
        runs = []
        for _ in range(max(3, rounds // 4) if program is not None else 0):
            start = time.perf_counter()
            subprocess.run([program, *case.command[1:]], cwd=root, capture_output=True,
                           check=False, timeout=300)  # fmt: skip
            runs.append(time.perf_counter() - start)
    return {
        "server": case.server,
        "cold_ms": round(cold * 1000, 1),
        "cold_checked": first.checked,
        "warm_p50_ms": _ms(warm),
        "warm_p99_ms": _p99(warm),
        "command": " ".join(case.command) if runs else f"{case.command[0]}: not installed",
        "command_p50_ms": _ms(runs) if runs else None,
        "warm_vs_command": round(statistics.median(warm) / statistics.median(runs), 3)
        if runs
        else None,
        "within_budget": f"{within}/{rounds}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--budget", type=float, default=2.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for case in CASES:
        row = measure(case, args.rounds, args.budget)
        if row is None:
            print(f"{case.server}: not installed here, skipped", file=sys.stderr)
            continue
        rows.append(row)
        if not args.json:
            print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
