"""Many agents on one tree: lost updates, region merges, refusals, throughput and latency.

Each agent is its own process with its own session on one root. It picks one of the shared files,
reads it, pauses a moment (a model thinking), and appends a marker to one line it read: most lines
lie in its own band of the file, a few in a band every agent edits (`--hot`). Others change the
file in between, so many edits meet a file that changed since their read: under the `region` rule
they are made when what changed lies elsewhere, under `file` they are refused.

At the end every marker of an edit that succeeded must be in the file: one missing is a lost
update (must be 0). The same scenario runs under both rules, one after the other.

Usage: ``python benchmarks/bench_agents.py [--agents 8] [--edits 200] [--files 20] [--hot 0.1]``
(``--worker`` is the agents' own entry point).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

_NUMBERED = re.compile(r"^ *(\d+)\t(.*)$", re.MULTILINE)
LINES = 240
BAND = 24  # lines per agent; the first band is the hot one every agent may edit


def _seed(root: Path, files: int) -> None:
    for f in range(files):
        (root / f"f{f}.txt").write_text("".join(f"f{f} line {k}\n" for k in range(LINES)))


def worker(root: str, agent: int, edits: int, files: int, hot: float, stale: str) -> None:
    """One agent: `edits` read-pause-edit rounds; prints one JSON line per edit."""
    from edittools import Session

    rng = random.Random(agent)
    with Session(root, agent=f"agent{agent}", stale=stale, syntax_check="off") as s:
        for n in range(edits):
            name = f"f{rng.randrange(files)}.txt"
            read = s.read(name, limit=LINES + 1)
            lines = dict(_NUMBERED.findall(read.value))  # line number -> text, as the read saw it
            time.sleep(rng.uniform(0, 0.004))
            band = 0 if rng.random() < hot else 1 + agent % (LINES // BAND - 1)
            k = band * BAND + rng.randrange(BAND)
            marker = f" a{agent}e{n}"
            start = time.perf_counter()
            old = lines[str(k + 1)]
            result = s.edit(name, old + "\n", old + marker + "\n")
            took = time.perf_counter() - start
            code = None
            if result.is_error and result.artifact is not None:
                code = getattr(result.artifact.payload, "code", "error")
            print(json.dumps({
                "file": name, "marker": marker, "ok": not result.is_error and not read.is_error,
                "merged": "since this session read it" in result.value, "code": code,
                "seconds": took,
            }), flush=True)  # fmt: skip


def run(agents: int, edits: int, files: int, hot: float, stale: str) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "root"
        root.mkdir()
        _seed(root, files)
        env = dict(os.environ, EDITTOOLS_STATE_DIR=str(Path(tmp) / "state"))
        argv = [sys.executable, __file__, "--worker", str(root), "--edits", str(edits),
                "--files", str(files), "--hot", str(hot), "--stale", stale]  # fmt: skip
        start = time.perf_counter()
        procs = [
            subprocess.Popen([*argv, "--agent", str(a)], stdout=subprocess.PIPE, text=True, env=env)
            for a in range(agents)
        ]
        rows = []
        for proc in procs:
            out, _ = proc.communicate()
            rows += [json.loads(line) for line in out.splitlines() if line.startswith("{")]
            if proc.returncode != 0:
                raise SystemExit(f"an agent failed with status {proc.returncode}")
        wall = time.perf_counter() - start
        texts = {f"f{f}.txt": (root / f"f{f}.txt").read_text() for f in range(files)}
    applied = [r for r in rows if r["ok"]]
    lost = sum(1 for r in applied if r["marker"] + " " not in texts[r["file"]].replace("\n", " \n"))
    seconds = sorted(r["seconds"] for r in rows)
    codes: dict[str, int] = {}
    for r in rows:
        if r["code"]:
            codes[r["code"]] = codes.get(r["code"], 0) + 1
    return {
        "rule": stale,
        "edits": len(rows),
        "applied": len(applied),
        "merged by region": sum(1 for r in applied if r["merged"]),
        "refused": codes,
        "lost updates": lost,
        "edits/s": len(rows) / wall,
        "p50 ms": 1000 * statistics.median(seconds),
        "p99 ms": 1000 * seconds[min(len(seconds) - 1, int(0.99 * len(seconds)))],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=8)
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--hot", type=float, default=0.1, help="share of edits in the hot band")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--agent", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--stale", default="region", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.agent, args.edits, args.files, args.hot, args.stale)
        return
    print(f"{args.agents} agents x {args.edits} edits on {args.files} files (hot band {args.hot})")
    results = [
        run(args.agents, args.edits, args.files, args.hot, rule) for rule in ("region", "file")
    ]
    keys = list(results[0])
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for r in results:
        cells = [f"{v:.1f}" if isinstance(v, float) else str(v) for v in r.values()]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
