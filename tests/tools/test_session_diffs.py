"""Diff artifacts of real tool calls: `unified` applies with git apply, stats equal git's numstat."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from tool_helpers import tree

from edittools import Session, ToolResult

pytestmark = pytest.mark.integration

Call = Callable[[Session], ToolResult]

# (starting files, the call) — UTF-8 files, since git reads the bytes the unified text describes.
CASES: dict[str, tuple[dict[str, bytes], Call]] = {
    "edit_middle": ({"f.py": b"".join(b"line %d\n" % i for i in range(40))},
                    lambda s: s.edit("f.py", "line 20\n", "twenty\nand more\n")),
    "edit_crlf": ({"w.txt": b"a\r\nb\r\nc\r\n"}, lambda s: s.edit("w.txt", "b", "B\nB2")),
    "edit_last_line_no_newline": ({"n.txt": b"a\nb"}, lambda s: s.edit("n.txt", "b", "c")),
    "edit_mixed": ({"m.txt": b"a\r\nb\nc\r\n"}, lambda s: s.edit("m.txt", "b", "x\ny")),
    "replace_all": ({"r.txt": b"x\ny\nx\nz\nx\n"},
                    lambda s: s.edit("r.txt", "x", "X", replace_all=True)),
    "tolerant_indentation": ({"i.py": b"class A:\n    def f(self):\n        return 1\n"},
                             lambda s: s.edit("i.py", "def f(self):\n    return 1",
                                              "def f(self):\n    return 2")),
    "multi_edit": ({"f.py": b"a = 1\nb = 2\nc = 3\n"},
                   lambda s: s.multi_edit("f.py", [{"old_string": "a = 1", "new_string": "a = 10"},
                                                   {"old_string": "c = 3\n", "new_string": ""}])),
    "write_replace": ({"f.txt": b"one\ntwo\nthree\n"},
                      lambda s: s.write("f.txt", "one\n2\nthree\nfour")),
    "write_create": ({}, lambda s: s.write("d/new.txt", "hello\nworld\n")),
    "write_empty_to_text": ({"e.txt": b""}, lambda s: s.write("e.txt", "now\n")),
    "write_text_to_empty": ({"e.txt": b"was\n"}, lambda s: s.write("e.txt", "")),
    "patch_several": ({"a.txt": b"1\n2\n3\n", "gone.txt": b"bye\n", "m.txt": b"x\ny\n"},
                      lambda s: s.apply_patch(
                          "*** Begin Patch\n*** Update File: a.txt\n@@\n 1\n-2\n+two\n"
                          "*** Delete File: gone.txt\n*** Add File: new.txt\n+fresh\n"
                          "*** Update File: m.txt\n*** Move to: moved/m.txt\n@@\n-y\n+Y\n"
                          "*** End Patch\n")),
    "undo": ({"u.txt": b"a\nc\nd\n"}, lambda s: s.undo("u.txt")),
}  # fmt: skip
# Calls made before the one whose diff is checked (the starting files are the state after them).
SETUP: dict[str, Callable[[Session], object]] = {
    "undo": lambda s: (s.write("u.txt", "a\nb\n"), s.edit("u.txt", "b", "c\nd")),
}


def payloads(result: ToolResult) -> list[object]:
    assert not result.is_error, result.value
    artifact = result.artifact
    assert artifact is not None
    return [artifact.payload] if artifact.kind == "diff" else list(artifact.payload.files)  # type: ignore[union-attr]


def write_files(root: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)


def numstat(old: Path, new: Path) -> tuple[int, int]:
    done = subprocess.run(
        ["git", "diff", "--no-index", "--numstat", str(old), str(new)], capture_output=True
    )
    assert done.returncode in (0, 1), done.stderr.decode()
    if not done.stdout.strip():
        return (0, 0)
    added, removed, _ = done.stdout.decode().split("\t", 2)
    return int(added), int(removed)


@pytest.mark.parametrize("name", sorted(CASES))
def test_unified_applies_with_git_and_stats_match_numstat(tmp_path: Path, name: str) -> None:
    files, call = CASES[name]
    work, replay = tmp_path / "work", tmp_path / "replay"
    work.mkdir()
    replay.mkdir()
    with Session(work, require_read=False) as s:
        if name in SETUP:
            SETUP[name](s)
            assert {k: v for k, v in tree(work).items() if isinstance(v, bytes)} == files
        else:
            write_files(work, files)
        write_files(replay, files)
        found = payloads(call(s))
    after = {k: v for k, v in tree(work).items() if isinstance(v, bytes)}

    unified = "".join(p.unified for p in found)  # type: ignore[attr-defined]
    done = subprocess.run(
        ["git", "apply", "-"], input=unified.encode(), cwd=replay, capture_output=True
    )
    assert done.returncode == 0, done.stderr.decode() + unified
    assert {k: v for k, v in tree(replay).items() if isinstance(v, bytes)} == after

    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    for p in found:
        old_name = p.old_path or p.path  # type: ignore[attr-defined]
        old = tmp_path / "old"
        new = tmp_path / "new"
        old.write_bytes(files.get(old_name, b""))
        new.write_bytes(after.get(p.path, b""))  # type: ignore[attr-defined]
        stats = (p.stats.added, p.stats.removed)  # type: ignore[attr-defined]
        assert stats == numstat(old, new), (p.path, unified)  # type: ignore[attr-defined]
