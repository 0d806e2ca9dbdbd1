"""SIGKILL during a rewind: after reopening, every file is at the checkpoint or every file is as
it was before the rewind — never a mix.

Each trial forks a real process that rewinds a tree in which the tools modified, created, deleted
and renamed files since a checkpoint, and kills it at a random instant (half of the kills aimed at
the renames of the commit); opening the root again settles the unfinished change.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import time
from pathlib import Path

import pytest
from crash_child import fork_running

from edittools import Session

TRIALS = 40
MODULES = [f"pkg/m{n:02d}.py" for n in range(8)]


def module_text(n: int) -> str:
    return "".join(f"line {k} of module {n}\n" for k in range(100))


PATCH = (
    "*** Begin Patch\n"
    + "".join(
        f"*** Update File: {name}\n@@\n line 49 of module {n}\n-line 50 of module {n}\n"
        f"+line 50 of module {n} CHANGED\n"
        for n, name in enumerate(MODULES)
    )
    + "*** Add File: pkg/added.py\n+added = True\n"
    + "*** Delete File: doomed.txt\n"
    + "*** Update File: before.py\n*** Move to: after.py\n@@\n-x = 1\n+x = 2\n"
    + "*** End Patch\n"
)


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def prepared(root: Path) -> tuple[int, dict[str, bytes], dict[str, bytes]]:
    """A root changed since a checkpoint: (checkpoint, tree then, tree now)."""
    (root / "pkg").mkdir(parents=True)
    for n, name in enumerate(MODULES):
        (root / name).write_text(module_text(n))
    (root / "doomed.txt").write_text("soon gone\n")
    (root / "before.py").write_text("x = 1\n")
    then = tree(root)
    with Session(root, require_read=False) as s:
        cp = s.checkpoint("before the patch")
        result = s.apply_patch(PATCH)
        assert not result.is_error, result.value
    return cp, then, tree(root)


def rewind_in_child(root: Path, checkpoint: int, *, rename_pause: float) -> int:
    def run() -> bool:
        with Session(root) as s:
            return s.rewind(checkpoint).is_error

    return fork_running(run, rename_pause=rename_pause)


def killed(root: Path, checkpoint: int, delay: float, *, after_intent: bool) -> None:
    with Session(root) as s:
        db_path = s.sandbox.index.path
    db = sqlite3.connect(db_path, timeout=10)
    try:
        pid = rewind_in_child(root, checkpoint, rename_pause=0.002 if after_intent else 0.0)
        if after_intent:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                if db.execute("SELECT 1 FROM intents WHERE state = 'open'").fetchone():
                    break
                if os.waitpid(pid, os.WNOHANG) != (0, 0):
                    return  # it finished before its intent was seen
                time.sleep(0.0005)
        time.sleep(delay)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    finally:
        db.close()


def span_of_a_rewind(tmp_path: Path) -> float:
    spans = []
    for k in range(3):
        root = tmp_path / f"calibration{k}"
        cp, then, _ = prepared(root)
        start = time.perf_counter()
        _, status = os.waitpid(rewind_in_child(root, cp, rename_pause=0.0), 0)
        spans.append(time.perf_counter() - start)
        assert os.waitstatus_to_exitcode(status) == 0
        assert tree(root) == then
    return sorted(spans)[1]


@pytest.mark.integration
def test_sigkill_during_rewind_leaves_all_files_at_the_checkpoint_or_none(tmp_path: Path) -> None:
    rng = random.Random(1515)
    span = span_of_a_rewind(tmp_path)
    outcomes = {"checkpoint": 0, "before": 0}
    for trial in range(TRIALS):
        root = tmp_path / f"t{trial}"
        cp, then, now = prepared(root)
        if trial % 2:
            killed(root, cp, rng.uniform(0, 0.004 * 12), after_intent=True)
        else:
            killed(root, cp, rng.uniform(0, span * 1.2), after_intent=False)
        with Session(root) as s:
            found = tree(root)
            assert found in (then, now), f"trial {trial}: a mixed tree"
            state = "checkpoint" if found == then else "before"
            outcomes[state] += 1
            assert not [p for p in root.rglob("*") if p.name.endswith(".edittools-tmp")]
            # The history knows exactly what is on disk: a rewind finishes the job (or has none).
            again = s.rewind(cp)
            assert not again.is_error, again.value
            assert tree(root) == then
    assert outcomes["checkpoint"] > 3 and outcomes["before"] > 3, outcomes
