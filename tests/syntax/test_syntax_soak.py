"""A sampled run of the soak benchmark: real files of every checked language edited many ways
through the default settings, each batch in a child process, so a native crash is counted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from edittools.syntax import CHECKED_LANGUAGES

SOAK = Path(__file__).resolve().parents[2] / "benchmarks" / "soak_edits.py"


@pytest.mark.integration
def test_a_sampled_soak_has_no_crash_hang_or_wrong_write() -> None:
    proc = subprocess.run(
        [sys.executable, str(SOAK), "--sample", "60", "--batch", "15", "--hang", "120", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    tally = json.loads(proc.stdout)
    assert tally["crashes"] == [] and tally["hangs"] == []
    assert tally["wrong"] == []
    # Every checked language was edited, every file to its end.
    assert set(tally["files"]) == CHECKED_LANGUAGES
    assert sum(tally["files"].values()) == 60
    assert sum(tally["calls"].values()) > 60 * 10
