"""A patch touching more files than the open-file limit allows still applies, all files or none."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

FILES = 200
LIMIT = 64  # soft and hard: the child cannot raise it

CHILD = """
import json, resource, sys
from edittools import Session
resource.setrlimit(resource.RLIMIT_NOFILE, ({limit}, {limit}))
root, patch = sys.argv[1], sys.stdin.read()
with Session(root) as s:
    result = s.apply_patch(patch)
print(json.dumps({{"is_error": result.is_error, "value": result.value[:2000]}}))
"""


def _patch(count: int) -> str:
    sections = [f"*** Update File: f{i:03}.txt\n@@\n-old {i}\n+new {i}\n" for i in range(count)]
    return "*** Begin Patch\n" + "".join(sections) + "*** End Patch\n"


def _run_child(root: Path, patch: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD.format(limit=LIMIT), str(root)],
        input=patch,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", "")},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out: dict[str, object] = json.loads(done.stdout)
    return out


def test_a_patch_of_200_files_applies_with_64_open_files(tmp_path: Path) -> None:
    for i in range(FILES):
        (tmp_path / f"f{i:03}.txt").write_text(f"old {i}\n")
    result = _run_child(tmp_path, _patch(FILES))
    assert result["is_error"] is False, result["value"]
    assert str(result["value"]).startswith(f"Applied the patch to {FILES} files")
    for i in range(FILES):
        assert (tmp_path / f"f{i:03}.txt").read_text() == f"new {i}\n"


def test_a_failing_patch_of_200_files_with_64_open_files_changes_none(tmp_path: Path) -> None:
    for i in range(FILES):
        (tmp_path / f"f{i:03}.txt").write_text(f"old {i}\n")
    (tmp_path / "f199.txt").write_text("someone else's\n")  # the last section cannot apply
    result = _run_child(tmp_path, _patch(FILES))
    assert result["is_error"] is True
    assert "patch_conflict" in str(result["value"])
    for i in range(FILES - 1):
        assert (tmp_path / f"f{i:03}.txt").read_text() == f"old {i}\n"
