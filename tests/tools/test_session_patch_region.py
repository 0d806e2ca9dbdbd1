"""A patch on a stale read is judged by the lines its hunks change and the context they needed.

A hunk's context lines locate it; a change made since the read to a context line the hunk did
not need to be found once and only once is merged, as `git merge-file` merges it (the oracle
here), while a change to the lines it changes, beside them, or to the context it needed, is
refused (`stale_read`).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tool_helpers import check_error

from edittools import Session
from edittools.tools.patch._patch import hunk_regions, parse_patch

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is the oracle")

DISTINCT = [f"line {k}" for k in range(1, 31)]


def _patch(lines: list[str], at: int, new: str, context: int = 3) -> str:
    """A unified diff of `lines` replacing line `at` (1-based) by `new`, with `context` lines."""
    first = max(1, at - context)
    last = min(len(lines), at + context)
    body = [f" {line}" for line in lines[first - 1 : at - 1]]
    body += [f"-{lines[at - 1]}", f"+{new}"]
    body += [f" {line}" for line in lines[at:last]]
    count = last - first + 1
    head = f"--- a/f.py\n+++ b/f.py\n@@ -{first},{count} +{first},{count} @@\n"
    return head + "\n".join(body) + "\n"


def _merge_file(root: Path, base: str, ours: str, theirs: str) -> str | None:
    """What `git merge-file` makes of the two changes of `base`; None when they conflict."""
    for name, text in (("base", base), ("ours", ours), ("theirs", theirs)):
        (root / f"oracle.{name}").write_text(text)
    done = subprocess.run(
        ["git", "merge-file", "-p", "oracle.ours", "oracle.base", "oracle.theirs"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout if done.returncode == 0 else None


def _text(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def _run(root: Path, lines: list[str], theirs: list[str], patch: str) -> tuple[Any, str]:
    (root / "f.py").write_text(_text(lines))
    with Session(root, syntax_check="off") as s:
        assert not s.read("f.py").is_error
        (root / "f.py").write_text(_text(theirs))
        result = s.apply_patch(patch)
    return result, (root / "f.py").read_text()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(at=st.integers(1, 30), other=st.integers(1, 30), removed=st.booleans())
def test_a_change_two_lines_away_is_merged_as_git_merges_it(
    tmp_path_factory: Any, at: int, other: int, removed: bool
) -> None:
    """Distinct lines: each hunk needs no context to be found, so only its own line and the
    lines beside it are its region."""
    root = tmp_path_factory.mktemp("patch")
    theirs = list(DISTINCT)
    if removed:
        del theirs[other - 1]
    else:
        theirs[other - 1] = "theirs"
    ours = list(DISTINCT)
    ours[at - 1] = "ours"
    patch = _patch(DISTINCT, at, "ours")
    result, on_disk = _run(root, DISTINCT, theirs, patch)
    merged = _merge_file(root, _text(DISTINCT), _text(ours), _text(theirs))
    if abs(at - other) <= 1:  # the same line, or one beside it: the order is not known
        check_error(result, "stale_read")
        assert on_disk == _text(theirs)
        return
    assert merged is not None  # git merges it too
    assert not result.is_error, result.value
    assert on_disk == merged


# Lines 14-15 repeat lines 4-5: the hunk that changes line 15 needs one context line on each
# side (14-16) to be found once; lines 12 and 18 are context it did not need.
ONCE = list(DISTINCT)
ONCE[3:5] = ONCE[13:15] = ["    y = 0", "    x = 1"]
# Lines 13-16 repeat lines 3-6: that hunk needs two context lines on each side (13-17).
TWICE = list(DISTINCT)
TWICE[2:6] = TWICE[12:16] = ["def f():", "    y = 0", "    x = 1", "    return x"]


def test_the_context_a_hunk_needed_is_found_from_the_content_read() -> None:
    for lines, region in ((DISTINCT, (15, 15)), (ONCE, (14, 16)), (TWICE, (13, 17))):
        (patch,) = parse_patch(_patch(lines, 15, "    x = 2"))
        assert hunk_regions(_text(lines), patch) == [region]


@pytest.mark.parametrize("other", [12, 18])
def test_a_change_to_context_the_hunk_did_not_need_is_merged(tmp_path: Path, other: int) -> None:
    theirs = list(ONCE)
    theirs[other - 1] = "theirs"
    ours = list(ONCE)
    ours[14] = "    x = 2"
    result, on_disk = _run(tmp_path, ONCE, theirs, _patch(ONCE, 15, "    x = 2"))
    assert not result.is_error, result.value
    assert "since this session read it" in result.value
    assert on_disk == _merge_file(tmp_path, _text(ONCE), _text(ours), _text(theirs))


@pytest.mark.parametrize("other", [13, 17])
def test_a_change_to_context_the_hunk_needed_is_refused(tmp_path: Path, other: int) -> None:
    """Two lines from the change, so git merges it; but without that line the hunk's lines are
    found twice in the content read, so where it goes rests on it."""
    theirs = list(TWICE)
    theirs[other - 1] = "theirs"
    ours = list(TWICE)
    ours[14] = "    x = 2"
    assert _merge_file(tmp_path, _text(TWICE), _text(ours), _text(theirs)) is not None
    result, on_disk = _run(tmp_path, TWICE, theirs, _patch(TWICE, 15, "    x = 2"))
    check_error(result, "stale_read", f"line {other} of the content read")
    assert on_disk == _text(theirs)


def test_a_patch_whose_hunk_is_gone_is_refused(tmp_path: Path) -> None:
    theirs = list(DISTINCT)
    del theirs[13:17]  # lines 14-17, the changed line among them
    result, on_disk = _run(tmp_path, DISTINCT, theirs, _patch(DISTINCT, 15, "changed"))
    check_error(result, "stale_read")
    assert on_disk == _text(theirs)
