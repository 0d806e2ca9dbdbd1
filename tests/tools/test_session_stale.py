"""Stale reads caused by another process: a real child rewrites the file between read and change."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from edittools import Session

pytestmark = pytest.mark.integration


def rewrite_in_child(path: Path, data: bytes) -> None:
    code = "import sys; open(sys.argv[1], 'wb').write(bytes.fromhex(sys.argv[2]))"
    subprocess.run([sys.executable, "-c", code, str(path), data.hex()], check=True)


@pytest.mark.parametrize("tool", ["edit", "multi_edit", "write", "apply_patch"])
def test_a_change_by_another_process_is_refused_with_its_diff(tmp_path: Path, tool: str) -> None:
    """The whole-file rule (`stale="file"`): any change since the read refuses the call."""
    path = tmp_path / "f.py"
    path.write_bytes(b"def f():\n    return 1\n\n\nVALUE = 1\n")
    with Session(tmp_path, stale="file") as s:
        assert not s.read("f.py").is_error
        changed = b"def f():\n    return 2  # by the formatter\n\n\nVALUE = 1\n"
        rewrite_in_child(path, changed)
        if tool == "edit":
            result = s.edit("f.py", "VALUE = 1", "VALUE = 2")
        elif tool == "multi_edit":
            result = s.multi_edit("f.py", [{"old_string": "VALUE = 1", "new_string": "VALUE = 2"}])
        elif tool == "write":
            result = s.write("f.py", "VALUE = 2\n")
        else:
            result = s.apply_patch(
                "*** Begin Patch\n*** Update File: f.py\n@@\n-VALUE = 1\n+VALUE = 2\n*** End Patch\n"
            )
        assert result.is_error
        payload = result.artifact.payload  # type: ignore[union-attr]
        assert payload.code == "stale_read"
        assert "(+1 -1 since then)" in result.value
        assert "-    return 1\n+    return 2  # by the formatter" in result.value
        assert payload.detail["diff"]["stats"] == {"added": 1, "removed": 1}
        assert path.read_bytes() == changed
        # Reading again makes the change possible.
        s.read("f.py")
        assert not s.edit("f.py", "VALUE = 1", "VALUE = 2").is_error
    assert path.read_bytes().endswith(b"VALUE = 2\n")


@pytest.mark.parametrize("tool", ["edit", "multi_edit", "apply_patch"])
def test_a_change_elsewhere_by_another_process_is_merged_and_reported(
    tmp_path: Path, tool: str
) -> None:
    """The region rule (the default): the change is made on the file as the child left it, and
    the result says what else changed and that it was outside the tools."""
    path = tmp_path / "f.py"
    path.write_bytes(b"def f():\n    return 1\n\n\nVALUE = 1\n")
    with Session(tmp_path) as s:
        assert not s.read("f.py").is_error
        rewrite_in_child(path, b"def f():\n    return 2  # by the formatter\n\n\nVALUE = 1\n")
        if tool == "edit":
            result = s.edit("f.py", "VALUE = 1", "VALUE = 2")
        elif tool == "multi_edit":
            result = s.multi_edit("f.py", [{"old_string": "VALUE = 1", "new_string": "VALUE = 2"}])
        else:
            result = s.apply_patch(
                "*** Begin Patch\n*** Update File: f.py\n@@\n-VALUE = 1\n+VALUE = 2\n*** End Patch\n"
            )
        assert not result.is_error, result.value
        assert "changed outside the tools since this session read it (+1 -1 at line 2)" in (
            result.value
        )
        assert "-    return 1\n+    return 2  # by the formatter" in result.value
    assert path.read_bytes() == b"def f():\n    return 2  # by the formatter\n\n\nVALUE = 2\n"


def test_a_change_by_another_agent_names_it(tmp_path: Path) -> None:
    """Another process using the tools as agent `formatter`: a refusal names it."""
    path = tmp_path / "f.py"
    path.write_bytes(b"a = 1\nb = 2\n")
    code = (
        "import sys; from edittools import Session\n"
        "with Session(sys.argv[1], agent='formatter', require_read=False) as s:\n"
        "    assert not s.edit('f.py', 'a = 1', 'a = 10').is_error\n"
    )
    with Session(tmp_path) as s:
        assert not s.read("f.py").is_error
        subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=True)
        result = s.edit("f.py", "b = 2", "b = 20")
    assert result.is_error
    said = r"changed by agent `formatter` (just now|\d+ seconds? ago) since this session last read"
    assert re.search(said, result.value), result.value
    assert path.read_bytes() == b"a = 10\nb = 2\n"


def test_a_child_that_rewrites_the_same_bytes_is_not_a_change(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(b"same\n")
    with Session(tmp_path) as s:
        s.read("f.txt")
        rewrite_in_child(path, b"same\n")
        assert not s.edit("f.txt", "same", "new").is_error


def test_a_child_change_after_our_edit_blocks_undo(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(b"a\n")
    with Session(tmp_path) as s:
        s.read("f.txt")
        s.edit("f.txt", "a", "b")
        rewrite_in_child(path, b"b\nc\n")
        result = s.undo("f.txt")
        assert result.artifact.payload.code == "stale_read"  # type: ignore[union-attr]
    assert path.read_bytes() == b"b\nc\n"
