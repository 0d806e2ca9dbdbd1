"""apply_patch's file names: ``strip`` as ``patch -p N``, and names found by dropping leading folders."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from edittools import Session

OLD = "one\ntwo\nthree\n"
NEW = "one\n2\nthree\n"


def _patch(
    old_name: str, new_name: str, body: str = "@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"
) -> str:
    return f"--- {old_name}\n+++ {new_name}\n{body}"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.txt").write_text(OLD)
    return tmp_path


@pytest.mark.parametrize(
    ("names", "strip"),
    [
        (("a/pkg/a.txt", "b/pkg/a.txt"), 1),
        (("work/tree/pkg/a.txt", "work/tree/pkg/a.txt"), 2),
        (("pkg/a.txt", "pkg/a.txt"), 0),
        (("/abs/pkg/a.txt", "/abs/pkg/a.txt"), 2),
        (("x//y/pkg/a.txt", "x//y/pkg/a.txt"), 2),
    ],
)
def test_strip_removes_components_as_patch_does(
    root: Path, tmp_path_factory: pytest.TempPathFactory, names: tuple[str, str], strip: int
) -> None:
    patch = _patch(*names)
    copy = tmp_path_factory.mktemp("oracle")
    (copy / "pkg").mkdir()
    (copy / "pkg" / "a.txt").write_text(OLD)
    oracle = subprocess.run(
        ["patch", f"-p{strip}", "--batch", "--silent"],
        input=patch,
        cwd=copy,
        text=True,
        check=False,
    )
    assert oracle.returncode == 0
    with Session(root, require_read=False) as s:
        result = s.apply_patch(patch, strip=strip)
    assert not result.is_error, result.value
    assert (root / "pkg" / "a.txt").read_text() == (copy / "pkg" / "a.txt").read_text() == NEW
    assert "not found as written" not in result.value


def test_a_strip_that_leaves_nothing_is_an_invalid_patch(root: Path) -> None:
    with Session(root, require_read=False) as s:
        result = s.apply_patch(_patch("a/pkg/a.txt", "b/pkg/a.txt"), strip=3)
    assert result.is_error and result.artifact.payload.code == "invalid_patch"
    assert "smaller -p" in result.value
    assert (root / "pkg" / "a.txt").read_text() == OLD


def test_missing_names_are_found_without_their_leading_folders_and_the_result_says_so(
    root: Path,
) -> None:
    patch = _patch("a/project/src/pkg/a.txt", "b/project/src/pkg/a.txt") + (
        "--- /dev/null\n+++ b/project/src/pkg/new.txt\n@@ -0,0 +1 @@\n+fresh\n"
    )
    with Session(root, require_read=False) as s:
        result = s.apply_patch(patch)
    assert not result.is_error, result.value
    assert (root / "pkg" / "a.txt").read_text() == NEW
    # The same folders go from every name, the added file's too, as one -p would.
    assert (root / "pkg" / "new.txt").read_text() == "fresh\n"
    assert "not found as written: their first 2 folders were removed" in result.value


def test_names_that_exist_are_never_shortened(root: Path) -> None:
    (root / "x").mkdir()
    (root / "x" / "pkg").mkdir()
    (root / "x" / "pkg" / "a.txt").write_text(OLD)
    with Session(root, require_read=False) as s:
        result = s.apply_patch(_patch("a/x/pkg/a.txt", "b/x/pkg/a.txt"))
    assert not result.is_error
    assert (root / "x" / "pkg" / "a.txt").read_text() == NEW
    assert (root / "pkg" / "a.txt").read_text() == OLD


def test_no_shortening_finds_a_file_that_is_nowhere(root: Path) -> None:
    with Session(root, require_read=False) as s:
        result = s.apply_patch(_patch("a/src/nothing.txt", "b/src/nothing.txt"))
    assert result.is_error and "src/nothing.txt" in result.value
