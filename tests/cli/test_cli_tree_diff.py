"""`edittools diff DIR_A DIR_B`: a changeset of two folders, checked against git and diff -r."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from cli_harness import run

from edittools.artifacts import ChangesetPayload
from edittools.diff import diff_dirs, line_diff_dirs

pytestmark = pytest.mark.integration

BODY = "".join(f"def function_{i}(value):\n    return value * {i}\n\n" for i in range(40))


def _tree(root: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


@pytest.fixture
def trees(tmp_path: Path) -> tuple[Path, Path]:
    old = _tree(
        tmp_path / "v1",
        {
            "README": b"hello\n",
            "pkg/core.py": BODY.encode(),
            "pkg/moved.py": BODY.replace("value", "item").encode(),
            "pkg/gone.txt": b"bye\n",
            "pkg/same.txt": b"same\n",
            "data/blob.bin": b"\0\1\2old",
            "docs/old_name.md": b"# Title\n\ntext\n",
        },
    )
    new = _tree(
        tmp_path / "v2",
        {
            "README": b"hello\nworld\n",
            "pkg/core.py": BODY.replace("return value * 7\n", "return value * 70\n").encode(),
            # 1 line of 120 changed: 98% alike (git's -M score), so a rename with changes.
            "lib/moved.py": BODY.replace("value", "item").replace("* 3\n", "* 33\n").encode(),
            "pkg/same.txt": b"same\n",
            "pkg/new.txt": b"fresh\n",
            "data/blob.bin": b"\0\1\2new",
            "docs/new_name.md": b"# Title\n\ntext\n",
        },
    )
    return old, new


def _git_numstat(old: Path, new: Path) -> set[str]:
    out = subprocess.run(
        [
            "git",
            "-c",
            "diff.renames=true",
            "diff",
            "--no-index",
            "-M",
            "--numstat",
            str(old),
            str(new),
        ],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    rows = set()
    for line in out.splitlines():
        added, removed, name = line.split("\t")
        # git writes {a => b}/rest for a pair of names, with the folders it was given.
        match = re.fullmatch(r"(.*)\{(.*) => (.*)\}(.*)", name)
        if match:
            before, a, b, after = match.groups()
            pair = [f"{before}{a}{after}", f"{before}{b}{after}"]
        else:
            pair = name.split(" => ")
        names = [
            p.replace("//", "/").removeprefix(f"{old}/").removeprefix(f"{new}/")
            for p in pair
            if p != "/dev/null"
        ]
        shown = names[0] if len(set(names)) == 1 else " => ".join(names)
        rows.add(f"{added}\t{removed}\t{shown}")
    return rows


def test_numstat_is_git_s(trees: tuple[Path, Path]) -> None:
    old, new = trees
    proc = run("diff", "--numstat", old, new)
    assert proc.returncode == 1, proc.stderr
    ours = set(proc.stdout.splitlines())
    assert ours == _git_numstat(old, new)
    assert "0\t0\tdocs/old_name.md => docs/new_name.md" in ours
    assert "1\t1\tpkg/moved.py => lib/moved.py" in ours
    assert "-\t-\tdata/blob.bin" in ours


def test_the_files_that_differ_are_the_files_diff_r_names(trees: tuple[Path, Path]) -> None:
    old, new = trees
    out = subprocess.run(["diff", "-r", str(old), str(new)], capture_output=True, text=True).stdout
    named = set()
    for line in out.splitlines():
        if line.startswith("Only in "):
            folder, name = line[len("Only in ") :].split(": ")
            base = old if folder.startswith(str(old)) else new
            named.add((Path(folder) / name).relative_to(base).as_posix())
        elif line.startswith(("diff -r ", "Binary files ")):
            named.add(Path(line.split()[2]).relative_to(old).as_posix())
    ours = {entry.path for entry in line_diff_dirs(old, new, rename_threshold=None)}
    # diff -r names a folder found on one side only; we name each file in it.
    covered = {next(n for n in named if p == n or p.startswith(n + "/")) for p in ours}
    assert covered == named


def test_the_changeset_payload(trees: tuple[Path, Path]) -> None:
    old, new = trees
    proc = run("diff", "--json", old, new)
    assert proc.returncode == 1
    changeset = ChangesetPayload.model_validate(json.loads(proc.stdout))
    assert changeset == diff_dirs(old, new)
    by_path = {payload.path: payload for payload in changeset.files}
    assert by_path["lib/moved.py"].operation == "rename"
    assert by_path["lib/moved.py"].old_path == "pkg/moved.py"
    # The rename's similarity, in the payload and in its unified text, is the one git gives.
    git = subprocess.run(
        ["git", "diff", "--no-index", "-M", "--", old.name, new.name],
        capture_output=True, text=True, check=False, cwd=old.parent,
    )  # fmt: skip
    (theirs,) = re.findall(r"similarity index (\d+)%\nrename from \S*pkg/moved.py", git.stdout)
    assert by_path["lib/moved.py"].similarity == int(theirs)
    assert (
        f"similarity index {theirs}%\nrename from pkg/moved.py\n" in by_path["lib/moved.py"].unified
    )
    assert all(p.similarity is None for p in changeset.files if p.operation != "rename")
    assert by_path["pkg/gone.txt"].operation == "delete"
    assert by_path["pkg/new.txt"].operation == "create"
    assert by_path["data/blob.bin"].binary and not by_path["data/blob.bin"].hunks
    assert "pkg/same.txt" not in by_path
    assert changeset.stats.added == sum(p.stats.added for p in changeset.files)


def test_the_unified_text_applies_with_git_apply(trees: tuple[Path, Path], tmp_path: Path) -> None:
    old, new = trees
    changeset = diff_dirs(old, new)
    patch = "".join(p.unified for p in changeset.files if not p.binary)
    work = tmp_path / "work"
    subprocess.run(["cp", "-r", str(old), str(work)], check=True)
    subprocess.run(["git", "init", "-q"], cwd=work, check=True)
    applied = subprocess.run(
        ["git", "apply", "--whitespace=nowarn"], input=patch, cwd=work, text=True, check=False
    )
    assert applied.returncode == 0
    for name in ("README", "pkg/core.py", "lib/moved.py", "pkg/new.txt", "docs/new_name.md"):
        assert (work / name).read_bytes() == (new / name).read_bytes(), name
    assert not (work / "pkg" / "gone.txt").exists()
    assert not (work / "pkg" / "moved.py").exists()


def test_a_lower_threshold_makes_more_renames(tmp_path: Path) -> None:
    old = _tree(tmp_path / "a", {"x.txt": b"one\ntwo\nthree\nfour\n"})
    new = _tree(tmp_path / "b", {"y.txt": b"one\ntwo\nTHREE\nFOUR\n"})
    assert run("diff", "--numstat", old, new).stdout.count("\n") == 2  # 50%: not alike enough
    assert run("diff", "--numstat", "-M", "40", old, new).stdout == "2\t2\tx.txt => y.txt\n"


def test_exit_status_is_diff_r_s(trees: tuple[Path, Path], tmp_path: Path) -> None:
    old, _ = trees
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-r", str(old), str(copy)], check=True)
    same = run("diff", old, copy)
    assert same.returncode == 0 and same.stdout == ""
    trouble = run("diff", old, tmp_path / "missing")
    assert trouble.returncode == 2 and trouble.stderr.startswith("edittools: ")


def test_the_terminal_view_shows_renames_with_their_similarity(trees: tuple[Path, Path]) -> None:
    old, new = trees
    out = run("diff", old, new).stdout
    assert "lib/moved.py  +1 -1  rename pkg/moved.py -> lib/moved.py (98% alike)\n" in out
    assert "data/blob.bin  binary\n" in out
    assert "Binary files a/data/blob.bin and b/data/blob.bin differ\n" in out


def test_rename_similarity_is_git_s(trees: tuple[Path, Path], tmp_path: Path) -> None:
    old, new = trees
    _tree(old, {"x.txt": b"one\ntwo\nthree\nfour\n", "w.txt": b"a\nb\nc\nd\ne\nf\ng\n"})
    _tree(new, {"y.txt": b"one\ntwo\nTHREE\nFOUR\n", "v.txt": b"a\nb\nc\nd\ne\nF\nG\nh\n"})
    summary = subprocess.run(
        ["git", "diff", "--no-index", "-M30%", "--summary", str(old), str(new)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    git = {
        int(percent)
        for percent in re.findall(r"^ rename .* \((\d+)%\)$", summary, flags=re.MULTILINE)
    }
    ours = {e.similarity for e in line_diff_dirs(old, new, rename_threshold=0.3) if e.similarity}
    assert ours == git and len(git) >= 3
