"""Patching files whose lines end with a lone CR (classic Mac OS style), in both patch formats.

Such a file is split on its own line ending: patches name its lines one per patch line, added
lines end with a CR, and a missing final CR stays missing. `git diff` sees the whole file as one
line holding the CRs; its patches apply too, checked against `git apply`.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from tool_helpers import check_error, unchanged

from edittools import Session
from edittools.tools.patch._patch import apply_file_patch, parse_patch


def patched(old: str, patch: str) -> str:
    (fp,) = parse_patch(patch)
    return apply_file_patch(old, fp)[0]


def codex(body: str) -> str:
    return f"*** Begin Patch\n*** Update File: f\n{body}*** End Patch\n"


def test_a_cr_only_file_takes_a_codex_patch(tmp_path: Path) -> None:
    # The reported case: patch_conflict, with a hint about trailing whitespace.
    (tmp_path / "f").write_bytes(b"one\rtwo\rthree\r")
    with Session(tmp_path, require_read=False) as s:
        result = s.apply_patch(
            "*** Begin Patch\n*** Update File: f\n@@\n one\n-two\n+TWO\n*** End Patch"
        )
        assert not result.is_error, result.value
        assert result.artifact.payload.match == "exact"  # type: ignore[union-attr]
        assert (tmp_path / "f").read_bytes() == b"one\rTWO\rthree\r"


@pytest.mark.parametrize(
    ("old", "body", "new"),
    [
        # Added lines end with a CR, like the file's own.
        (
            "one\rtwo\rthree\r",
            "@@\n two\n+two and a half\n+2.75\n three\n",
            "one\rtwo\rtwo and a half\r2.75\rthree\r",
        ),
        # Several chunks, an @@ header naming a line.
        (
            "a\rb\rc\rd\re\rf\r",
            "@@\n-a\n+A\n b\n@@ d\n e\n-f\n+F\n",
            "A\rb\rc\rd\re\rF\r",
        ),
        # A missing final CR stays missing.
        ("one\rtwo\rthree", "@@\n two\n-three\n+THREE\n", "one\rtwo\rTHREE"),
        ("one\rtwo\rthree", "@@\n three\n+four\n*** End of File\n", "one\rtwo\rthree\rfour"),
        # Appending at the end of a file with its final CR.
        ("one\rtwo\r", "@@\n two\n+three\n*** End of File\n", "one\rtwo\rthree\r"),
        # Removing every line but one; an empty line of the file is a line too.
        ("x\r\ry\r", "@@\n x\n-\n-y\n", "x\r"),
        # Tolerances work per line as elsewhere, added lines indented as the file's.
        ("  keep  \r  old\r", "@@\n keep\n-old\n+new\n", "  keep  \r  new\r"),
    ],
)
def test_codex_chunks_on_cr_only_text(old: str, body: str, new: str) -> None:
    assert patched(old, codex(body)) == new


@pytest.mark.parametrize(
    ("old", "patch", "new"),
    [
        # One line per line, as a model writes it.
        (
            "one\rtwo\rthree\r",
            "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n",
            "one\rTWO\rthree\r",
        ),
        # Lines numbers off by some: found near where the hunk says.
        ("a\rb\rc\rd\r", "--- a/f\n+++ b/f\n@@ -2,2 +2,3 @@\n c\n+c2\n d\n", "a\rb\rc\rc2\rd\r"),
        # The last line without its CR, said with the marker.
        (
            "one\rtwo",
            "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n one\n-two\n\\ No newline at end of file\n+TWO\n\\ No newline at end of file\n",
            "one\rTWO",
        ),
        # A missing final CR added by the patch.
        (
            "one\rtwo",
            "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n one\n-two\n\\ No newline at end of file\n+two\n",
            "one\rtwo\r",
        ),
    ],
)
def test_unified_hunks_on_cr_only_text(old: str, patch: str, new: str) -> None:
    assert patched(old, patch) == new


def test_session_applies_a_unified_diff_to_a_cr_only_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"one\rtwo\rthree\r")
    with Session(tmp_path) as s:
        s.read("f")
        patch = "--- a/f\n+++ b/f\n@@ -2,2 +2,3 @@\n two\n-three\n+THREE\n+four\n"
        result = s.apply_patch(patch)
        assert not result.is_error, result.value
        assert (tmp_path / "f").read_bytes() == b"one\rtwo\rTHREE\rfour\r"


def test_a_miss_in_a_cr_only_file_shows_its_lines(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"alpha\rbeta\rgamma\rdelta\r")
    with Session(tmp_path, require_read=False) as s:
        with unchanged(tmp_path):
            value = check_error(
                s.apply_patch(codex("@@\n gamma\n-delat\n+DELTA\n")), "patch_conflict", "f"
            )
        assert "The closest lines are 3-4:\n     3\tgamma\n     4\tdelta" in value
        assert "trailing whitespace" not in value


def git_diff(tmp_path: Path, old: bytes, new: bytes | None) -> str:
    """What `git diff` prints for `f` changed from `old` to `new` (None: deleted)."""
    repo = tmp_path / "repo"
    repo.mkdir(exist_ok=True)
    git = ["git", "-C", str(repo), "-c", "core.autocrlf=false"]
    subprocess.run([*git, "init", "-q"], check=True)
    (repo / "f").write_bytes(old)
    subprocess.run([*git, "add", "f"], check=True)
    if new is None:
        (repo / "f").unlink()
    else:
        (repo / "f").write_bytes(new)
    diff = subprocess.run([*git, "diff"], check=True, capture_output=True).stdout
    # git apply is the oracle: the patch must take the old bytes to the new ones for git too.
    (repo / "f").write_bytes(old)
    subprocess.run([*git, "apply", "-"], input=diff, check=True)
    assert (repo / "f").read_bytes() == new if new is not None else not (repo / "f").exists()
    return diff.decode()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (b"one\rtwo\rthree\r", b"one\rTWO\rthree\r"),
        (b"one\rtwo\rthree", b"one\rTWO\rthree"),
        (b"one\rtwo\rthree", b"one\rtwo\rthree\r"),
        (b"one\rtwo\rthree\r", b"one\rtwo\rthree"),
        (b"one\r", b"ONE\r"),
        (b"one\rtwo\r", b"zero\rone\rtwo\rthree\r"),
    ],
)
def test_git_diffs_of_cr_only_files_apply_like_git_apply(
    tmp_path: Path, old: bytes, new: bytes
) -> None:
    patch = git_diff(tmp_path, old, new)
    (tmp_path / "f").write_bytes(old)
    with Session(tmp_path, require_read=False) as s:
        result = s.apply_patch(patch)
        assert not result.is_error, result.value
        assert (tmp_path / "f").read_bytes() == new


def test_a_git_diff_deleting_a_cr_only_file(tmp_path: Path) -> None:
    patch = git_diff(tmp_path, b"one\rtwo\r", None)
    (tmp_path / "f").write_bytes(b"one\rtwo\r")
    with Session(tmp_path, require_read=False) as session:
        result = session.apply_patch(patch)
    assert not result.is_error, result.value
    assert not (tmp_path / "f").exists()


@settings(max_examples=150, deadline=None)
@given(
    size=st.integers(1, 12),
    data=st.data(),
    final_cr=st.booleans(),
)
def test_any_replacement_in_cr_only_text(size: int, data: st.DataObject, final_cr: bool) -> None:
    lines = [f"line {k} " + data.draw(st.sampled_from(["", "x", "  y", "é"])) for k in range(size)]
    start = data.draw(st.integers(0, size - 1))
    end = data.draw(st.integers(start + 1, size))
    added = data.draw(st.lists(st.sampled_from(["new", "", "  new 2", "ü"]), max_size=3))
    old = "\r".join(lines) + ("\r" if final_cr else "")
    assume("\r" in old)  # a single line without an ending has no newline style to keep
    new_lines = lines[:start] + added + lines[end:]
    expected = "\r".join(new_lines)
    # The last line keeps its CR, or its lack of one when the patch replaced it.
    if new_lines and (final_cr or (end == size and not added)):
        expected += "\r"
    before = [f" {line}" for line in lines[max(start - 2, 0) : start]]
    after = [f" {line}" for line in lines[end : end + 2]]
    removed = [f"-{line}" for line in lines[start:end]]
    plus = [f"+{line}" for line in added]
    # Codex: context and changes, the end of the file marked when the hunk reaches it.
    eof = "*** End of File\n" if end == size else ""
    codex_body = "".join(x + "\n" for x in before + removed + plus + after)
    assert patched(old, codex("@@\n" + codex_body + eof)) == expected
    # Unified: the same lines with their numbers, and markers where a line lacks its CR.
    first = max(start - 2, 0) + 1
    old_count = len(before) + len(removed) + len(after)
    new_count = len(before) + len(plus) + len(after)
    if end == size and not final_cr:
        marker = ["\\ No newline at end of file"]
        removed += marker
        plus += marker if plus else []
    unified = f"--- a/f\n+++ b/f\n@@ -{first},{old_count} +{first},{new_count} @@\n"
    unified += "".join(x + "\n" for x in before + removed + plus + after)
    assert patched(old, unified) == expected
