"""Several agent processes on one root (`benchmarks/bench_agents.py`, smaller): no update is lost.

Each agent reads a shared file, pauses, and appends its marker to a line it read; others change
the file meanwhile. Every edit is either made (on the file as it is, when the change since the
read lies elsewhere) or refused with `stale_read` or `busy`; every marker of an edit that was made
is in the file at the end.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

AGENT = """
import json, random, re, sys, time
from edittools import Session
root, agent, edits, stale = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rng = random.Random(agent)
numbered = re.compile(r"^ *(\\d+)\\t(.*)$", re.MULTILINE)
with Session(root, agent=f"agent{agent}", stale=stale, syntax_check="off") as s:
    for n in range(edits):
        name = f"f{rng.randrange(2)}.txt"
        lines = dict(numbered.findall(s.read(name).value))
        time.sleep(rng.uniform(0, 0.01))
        k = rng.randrange(4) if rng.random() < 0.2 else 10 * (agent + 1) + rng.randrange(8)
        old = lines[str(k + 1)]
        r = s.edit(name, old + "\\n", old + f" a{agent}e{n}\\n")
        code = getattr(r.artifact.payload, "code", None) if r.is_error else None
        print(json.dumps([name, f" a{agent}e{n}", r.is_error, code, "since this session read" in r.value]))
"""


@pytest.mark.parametrize("stale", ["region", "file"])
def test_agents_editing_shared_files_lose_no_update(tmp_path: Path, stale: str) -> None:
    for f in range(2):
        (tmp_path / f"f{f}.txt").write_text("".join(f"f{f} line {k}\n" for k in range(40)))
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", AGENT, str(tmp_path), str(a), "15", stale],
            stdout=subprocess.PIPE,
            text=True,
        )
        for a in range(3)
    ]
    rows = []
    for proc in procs:
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0
        rows += [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 45
    assert {code for _, _, failed, code, _ in rows if failed} <= {"stale_read", "busy"}
    texts = {
        f"f{f}.txt": (tmp_path / f"f{f}.txt").read_text().replace("\n", " \n") for f in range(2)
    }
    lost = [
        marker
        for name, marker, failed, _, _ in rows
        if not failed and marker + " " not in texts[name]
    ]
    assert lost == []
    if stale == "file":  # the whole-file rule never merges
        assert not any(merged for *_, merged in rows)
