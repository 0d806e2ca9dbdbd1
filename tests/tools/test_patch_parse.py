"""Parsing and applying patches in memory: a Codex-format suite and unified diffs against git/patch."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from patch_cases import CODEX_CASES, UNIFIED_CASES

from edittools._errors import ToolError
from edittools.tools.patch._patch import FilePatch, apply_file_patch, parse_patch


def apply_tree(tree: dict[str, str], patch: str) -> tuple[dict[str, str], dict[str, str]]:
    """Apply a whole patch to an in-memory tree; returns the new tree and each file's tier."""
    out = dict(tree)
    tiers = {}
    for fp in parse_patch(patch):
        if fp.op == "add":
            assert fp.path not in out, "adding a file that exists"
        new, tiers[fp.path] = apply_file_patch(out.get(fp.path, ""), fp)
        if fp.op == "delete":
            del out[fp.path]
            continue
        if fp.move_to:
            del out[fp.path]
        out[fp.move_to or fp.path] = new
    return out, tiers


def error(fn: object, *args: object) -> ToolError:
    with pytest.raises(ToolError) as info:
        fn(*args)  # type: ignore[operator]
    return info.value


@pytest.mark.parametrize("name", sorted(CODEX_CASES))
def test_codex_suite(name: str) -> None:
    before, patch, after, tiers = CODEX_CASES[name]
    assert apply_tree(before, patch) == (after, tiers)


def test_codex_parse_shape() -> None:
    patch = CODEX_CASES["move_with_change"][1]
    [fp] = parse_patch(patch)
    assert (fp.op, fp.path, fp.move_to, fp.new_content) == (
        "update",
        "old/name.txt",
        "new/name.txt",
        None,
    )
    assert fp.hunks[0].lines == (" alpha", "-beta", "+gamma")


@pytest.mark.parametrize(
    ("patch", "line", "words"),
    [
        ("*** Begin Patch\n*** Frobnicate File: a\n*** End Patch\n", 2, "expected"),
        (
            "*** Begin Patch\n*** Update File: a\n@@\n-x\n*** Rename: b\n*** End Patch\n",
            5,
            "marker",
        ),
        ("*** Begin Patch\n*** Update File: a\n@@\n-x\n", 5, "End Patch"),
        ("*** Begin Patch\n*** Add File: a\nno plus\n*** End Patch\n", 3, "'+'"),
        ("*** Begin Patch\n*** Update File: a\n@@\n x\n?y\n*** End Patch\n", 5, "chunk line"),
        ("*** Begin Patch\n*** Update File: a\n@@\n x\n*** End Patch\n", 5, "at least one"),
        ("*** Begin Patch\n*** Update File: a\n*** End Patch\n", 2, "no changes"),
        ("*** Begin Patch\n*** Add File:\n+x\n*** End Patch\n", 2, "needs a path"),
        ("*** Begin Patch\n*** Delete File: a\n*** End Patch\ntrailing\n", 4, "follow"),
        ("*** Begin Patch\n*** End Patch\n", 1, "no file"),
        ("hello\n*** Begin Patch\n*** End Patch\n", 1, "must start"),
    ],
)
def test_codex_bad_headers_name_the_line(patch: str, line: int, words: str) -> None:
    err = error(parse_patch, patch)
    assert err.code == "invalid_patch"
    assert err.detail == {"line": line}
    assert words in err.message and f"Line {line}" in err.message


def test_codex_missing_context_is_a_conflict_naming_file_and_chunk() -> None:
    before = {"a.py": "def f():\n    return 1\n\ndef g():\n    return 2\n"}
    patch = (
        "*** Begin Patch\n*** Update File: a.py\n@@\n-    return 1\n+    return 9\n"
        "@@\n def g():\n-    return 3\n+    return 4\n*** End Patch\n"
    )
    err = error(apply_tree, before, patch)
    assert err.code == "patch_conflict"
    assert err.detail and err.detail["path"] == "a.py" and err.detail["hunk"] == 2
    assert err.detail["expected"] == ["def g():", "    return 3"]
    assert err.detail["closest"]["start_line"] == 4
    assert "Hunk 2" in err.message and "a.py" in err.message and "'def g():'" in err.message


def test_codex_chunks_are_searched_after_the_previous_one() -> None:
    fp = parse_patch("*** Begin Patch\n*** Update File: a\n@@\n-b\n+B\n@@\n-a\n+A\n*** End Patch")[
        0
    ]
    assert error(apply_file_patch, "a\nb\n", fp).code == "patch_conflict"


def test_codex_context_header_not_found_is_a_conflict() -> None:
    fp = parse_patch("*** Begin Patch\n*** Update File: a\n@@ class Nope\n-x\n+y\n*** End Patch")[0]
    err = error(apply_file_patch, "x\n", fp)
    assert err.code == "patch_conflict" and "class Nope" in err.message


def test_codex_context_header_may_name_the_start_of_a_line() -> None:
    fp = parse_patch("*** Begin Patch\n*** Update File: a\n@@ def g\n-  x\n+  y\n*** End Patch")[0]
    assert apply_file_patch("def f():\n  x\ndef g(a):\n  x\n", fp) == (
        "def f():\n  x\ndef g(a):\n  y\n",
        "indentation",
    )


# --- unified diffs, checked against git apply and GNU patch ------------------------------------


def write_tree(root: Path, tree: dict[str, bytes]) -> None:
    for name, data in tree.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def read_tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.name.endswith((".orig", ".rej"))
    }


def oracle(tmp_path: Path, tree: dict[str, bytes], patch: str, tool: str) -> dict[str, bytes]:
    root = tmp_path / tool
    root.mkdir()
    write_tree(root, tree)
    (tmp_path / f"{tool}.diff").write_bytes(patch.encode())
    if tool == "git":
        # Without --unidiff-zero git pins a hunk without context to the start or end of the file.
        cmd = ["git", "apply", "--unidiff-zero", str(tmp_path / "git.diff")]
    else:
        cmd = ["patch", "-p1", "-s", "--no-backup-if-mismatch", "-i", str(tmp_path / "patch.diff")]
    subprocess.run(cmd, cwd=root, check=True, capture_output=True)
    return read_tree(root)


def ours(tree: dict[str, bytes], patch: str) -> dict[str, bytes]:
    text_tree = {k: v.decode() for k, v in tree.items()}
    out, _ = apply_tree(text_tree, patch)
    return {k: v.encode() for k, v in sorted(out.items())}


@pytest.mark.integration
@pytest.mark.parametrize("tool", ["git", "patch"])
@pytest.mark.parametrize("name", sorted(UNIFIED_CASES))
def test_unified_matches_git_apply_and_patch(tmp_path: Path, name: str, tool: str) -> None:
    tree, patch = UNIFIED_CASES[name]
    assert ours(tree, patch) == oracle(tmp_path, tree, patch, tool)


@pytest.mark.integration
def test_rename_with_change_matches_git_apply(tmp_path: Path) -> None:
    tree = {"dir/x.txt": b"a\nb\nc\n"}
    patch = (
        "diff --git a/dir/x.txt b/dir/y z.txt\nsimilarity index 66%\nrename from dir/x.txt\n"
        "rename to dir/y z.txt\nindex 1..2 100644\n--- a/dir/x.txt\n+++ b/dir/y z.txt\n"
        "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
    )
    [fp] = parse_patch(patch)
    assert (fp.path, fp.move_to) == ("dir/x.txt", "dir/y z.txt")
    assert ours(tree, patch) == oracle(tmp_path, tree, patch, "git")


def test_unified_parse_shape() -> None:
    fps = parse_patch(UNIFIED_CASES["create_and_delete"][1])
    assert [(fp.op, fp.path) for fp in fps] == [("add", "new.txt"), ("delete", "old.txt")]
    assert fps[0].new_content == "hi\nthere"
    [fp] = parse_patch("--- a.txt\t2024-01-01 10:00\n+++ a.txt\t2024-01-02\n@@ -1 +1 @@\n-a\n+b\n")
    assert fp == FilePatch("update", "a.txt", hunks=fp.hunks)
    assert (fp.hunks[0].old_start, fp.hunks[0].old_count) == (1, 1)


def test_quoted_git_paths_are_unquoted() -> None:
    patch = (
        'diff --git "a/caf\\303\\251 \\"q\\".txt" "b/caf\\303\\251 \\"q\\".txt"\n'
        'new file mode 100644\n--- /dev/null\n+++ "b/caf\\303\\251 \\"q\\".txt"\n@@ -0,0 +1 @@\n+x\n'
    )
    assert parse_patch(patch)[0].path == 'café "q".txt'


def test_empty_new_file_from_git_header_only() -> None:
    [fp] = parse_patch("diff --git a/e.txt b/e.txt\nnew file mode 100644\nindex 0000000..e69de29\n")
    assert (fp.op, fp.path, fp.new_content) == ("add", "e.txt", "")


@pytest.mark.parametrize(
    ("patch", "line", "words"),
    [
        ("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n", 3, "promises 2 old and 2 new"),
        ("--- a/x\n+++ b/x\n@@ bad @@\n-a\n", 3, "bad hunk header"),
        ("diff --git a/x b/x\nGIT binary patch\nliteral 0\n", 2, "binary"),
        ("just some text\n", 1, "neither"),
    ],
)
def test_unified_malformed_names_the_line(patch: str, line: int, words: str) -> None:
    err = error(parse_patch, patch)
    assert err.code == "invalid_patch"
    assert err.detail == {"line": line}
    assert words in err.message


def test_unified_conflict_names_the_hunk() -> None:
    [fp] = parse_patch("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n")
    err = error(apply_file_patch, "a\nz\n", fp)
    assert err.code == "patch_conflict"
    assert err.detail and err.detail["expected"] == ["a", "b"] and "@@ -1,2" in err.message


def test_unified_delete_of_changed_content_is_a_conflict() -> None:
    [fp] = parse_patch("--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n")
    assert apply_file_patch("a\n", fp) == ("", "exact")
    assert error(apply_file_patch, "a\nb\n", fp).code == "patch_conflict"


def test_unified_prefers_the_occurrence_nearest_the_stated_line() -> None:
    text = "x\nx\nx\nx\nx\n"
    [fp] = parse_patch("--- a/f\n+++ b/f\n@@ -4 +4 @@\n-x\n+y\n")
    assert apply_file_patch(text, fp)[0] == "x\nx\nx\ny\nx\n"


# --- round trips -------------------------------------------------------------------------------


def tiny_unified(old: list[str], new: list[str], old_nl: bool, new_nl: bool) -> str:
    """One hunk from the common prefix and suffix (test-only producer, no difflib)."""
    p = 0
    while (
        p < min(len(old), len(new)) and old[p] == new[p] and (p < len(old) - 1 or old_nl == new_nl)
    ):
        p += 1
    s = 0
    while (
        s < min(len(old), len(new)) - p
        and old[-1 - s] == new[-1 - s]
        and (s > 0 or old_nl == new_nl)
    ):
        s += 1
    lo, hi = max(p - 2, 0), 2  # up to two lines of context on each side
    mid_old, mid_new = old[lo : len(old) - s + min(s, hi)], new[lo : len(new) - s + min(s, hi)]
    body_old = [f" {x}" for x in old[lo:p]] + [f"-{x}" for x in old[p : len(old) - s]]
    body_new = [f"+{x}" for x in new[p : len(new) - s]]
    tail = [f" {x}" for x in old[len(old) - s : len(old) - s + min(s, hi)]]
    lines = body_old + body_new + tail
    # Place "\ No newline" markers after the line that is the last of its side.
    out: list[str] = []
    old_last, new_last = len(mid_old) - 1, len(mid_new) - 1
    oi = ni = -1
    for line in lines:
        out.append(line)
        if line[0] in " -":
            oi += 1
        if line[0] in " +":
            ni += 1
        at_old_end = line[0] in " -" and oi == old_last and lo + oi == len(old) - 1 and not old_nl
        at_new_end = line[0] in " +" and ni == new_last and lo + ni == len(new) - 1 and not new_nl
        if at_old_end or at_new_end:
            out.append("\\ No newline at end of file")
    header = (
        f"@@ -{lo + 1 if mid_old else lo},{len(mid_old)} +{lo + 1 if mid_new else lo},"
        f"{len(mid_new)} @@"
    )
    return "--- a/f\n+++ b/f\n" + header + "\n" + "".join(x + "\n" for x in out)


def join(lines: list[str], final_nl: bool) -> str:
    return "\n".join(lines) + ("\n" if final_nl and lines else "")


line_lists = st.lists(st.sampled_from(["a", "b", "c", "", " a"]), min_size=1, max_size=8)


@given(line_lists, line_lists, st.booleans(), st.booleans())
def test_tiny_unified_diff_applies_to_give_the_new_text(
    old: list[str], new: list[str], old_nl: bool, new_nl: bool
) -> None:
    assume((old, old_nl) != (new, new_nl))
    # A last empty line without a newline is no line at all: ["a", ""] is "a\n".
    assume(old[-1] != "" or old_nl)
    assume(new[-1] != "" or new_nl)
    patch = tiny_unified(old, new, old_nl, new_nl)
    [fp] = parse_patch(patch)
    assert apply_file_patch(join(old, old_nl), fp)[0] == join(new, new_nl)


@pytest.mark.integration
@settings(max_examples=25, deadline=None)
@given(line_lists, line_lists, st.booleans(), st.booleans(), st.booleans())
def test_git_diff_applies_to_give_the_new_text(
    tmp_path_factory: pytest.TempPathFactory,
    old: list[str],
    new: list[str],
    old_nl: bool,
    new_nl: bool,
    crlf: bool,
) -> None:
    sep = "\r\n" if crlf else "\n"
    old_text = join(old, old_nl).replace("\n", sep)
    new_text = join(new, new_nl).replace("\n", sep)
    root = tmp_path_factory.mktemp("gd")
    (root / "old").write_bytes(old_text.encode())
    (root / "new").write_bytes(new_text.encode())
    run = subprocess.run(
        ["git", "diff", "--no-index", "--no-color", "old", "new"],
        cwd=root,
        capture_output=True,
        check=False,
    )
    if run.returncode == 0:
        return  # identical files: no diff
    fps = parse_patch(run.stdout.decode())
    assert [fp.op for fp in fps] == ["update"]
    assert apply_file_patch(old_text, fps[0])[0] == new_text
