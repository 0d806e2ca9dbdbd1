"""Every error code the tools can report: an error result, a next step in the value, files unchanged."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import NoReturn

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tool_helpers import check_error, immutable, unchanged

import edittools._errors as errors
import edittools.tools.write as write_tool
import sandbox._errors as sandbox_errors
from edittools import Session, ToolResult
from edittools._errors import CODES, SANDBOX_CODES, ToolError
from edittools.diff import DiffError
from sandbox import SandboxError


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / "root"
    path.mkdir()
    (path / "a.txt").write_bytes(b"alpha\nbeta\ngamma\n")
    (tmp_path / "outside.txt").write_bytes(b"outside\n")
    return path


def test_not_found_for_every_tool_that_needs_the_file(session: Session, root: Path) -> None:
    with unchanged(root):
        check_error(session.read("missing.txt"), "not_found", "missing.txt", "Check the path")
        check_error(session.edit("missing.txt", "x", "y"), "not_found", "create the file")
        check_error(session.multi_edit("nope/m.txt", [{"old_string": "x", "new_string": "y"}]),
                    "not_found")  # fmt: skip
        patch = "*** Begin Patch\n*** Update File: missing.txt\n@@\n-x\n+y\n*** End Patch\n"
        check_error(session.apply_patch(patch), "not_found", "missing.txt")
        patch = "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n"
        check_error(session.apply_patch(patch), "not_found", "gone.txt")


def test_outside_root(session: Session, root: Path) -> None:
    (root / "link").symlink_to(root.parent / "outside.txt")
    outside = str(root.parent / "outside.txt")
    with unchanged(root), unchanged(root.parent):
        check_error(session.read("../outside.txt"), "outside_root", "inside the root")
        check_error(session.read(outside), "outside_root")
        check_error(session.read("link"), "outside_root")
        check_error(session.write("../new.txt", "x\n"), "outside_root")
        check_error(session.write("link", "x\n"), "outside_root")
        check_error(session.edit(outside, "outside", "inside"), "outside_root")
        patch = "*** Begin Patch\n*** Add File: ../evil.txt\n+x\n*** End Patch\n"
        check_error(session.apply_patch(patch), "outside_root")
    assert not (root.parent / "new.txt").exists()
    assert not (root.parent / "evil.txt").exists()


def test_denied_paths_and_the_state_folder(root: Path) -> None:
    (root / "secret").mkdir()
    (root / "secret" / "key.txt").write_bytes(b"k\n")
    with Session(root, deny=["secret/"]) as s, unchanged(root):
        s.read("a.txt")  # creates the state folder
        check_error(s.read("secret/key.txt"), "denied", "Choose another path")
        check_error(s.write("secret/new.txt", "x"), "denied")
        check_error(s.read(".edittools/journal.jsonl"), "denied")
        check_error(s.write(".edittools/history.jsonl", "{}\n"), "denied")
    assert not (root / "secret" / "new.txt").exists()


def test_is_directory(session: Session, root: Path) -> None:
    (root / "pkg").mkdir()
    with unchanged(root):
        check_error(session.read("pkg"), "is_directory", "give")
        check_error(session.write("pkg", "x\n"), "is_directory")
        check_error(session.edit("pkg", "a", "b"), "is_directory")
        check_error(session.read("."), "is_directory")


def test_fifo_is_refused_without_blocking(session: Session, root: Path) -> None:
    os.mkfifo(root / "pipe")
    with unchanged(root):
        check_error(session.read("pipe"), "not_a_file", "regular file")
        check_error(session.write("pipe", "x\n"), "not_a_file")
        check_error(session.edit("pipe", "a", "b"), "not_a_file")


def test_binary(session: Session, root: Path) -> None:
    (root / "blob.bin").write_bytes(b"\x7fELF\x00\x01\x02\x03" * 4)
    with unchanged(root):
        check_error(session.read("blob.bin"), "binary", "cannot be edited as text")
        check_error(session.edit("blob.bin", "ELF", "FLE"), "binary")
        check_error(session.multi_edit("blob.bin", [{"old_string": "E", "new_string": "e"}]),
                    "binary")  # fmt: skip


def test_undecodable(session: Session, root: Path) -> None:
    # A UTF-8 byte-order mark in front of bytes that are not UTF-8.
    (root / "bad.txt").write_bytes(b"\xef\xbb\xbfok \xff\xfe\xfa\n")
    with unchanged(root):
        check_error(session.read("bad.txt"), "undecodable", "cannot be decoded")
        check_error(session.edit("bad.txt", "ok", "ko"), "undecodable")


def test_unencodable_keeps_the_legacy_file(session: Session, root: Path) -> None:
    (root / "latin.txt").write_bytes("café crème brûlée\n".encode("cp1252"))
    session.read("latin.txt")
    with unchanged(root):
        check_error(session.edit("latin.txt", "café", "日本"), "unencodable", "cp1252")
        check_error(session.write("latin.txt", "日本\n"), "unencodable")


def test_too_large_file_and_window(root: Path) -> None:
    (root / "big.txt").write_bytes(b"line\n" * 100)
    with Session(root, max_file_bytes=100) as s, unchanged(root):
        check_error(s.read("big.txt"), "too_large", "100 bytes")
        # A read refused as too large is no read: an edit (streamed, over the cap) needs one.
        check_error(s.edit("big.txt", "line", "LINE"), "not_read")
    (root / "wide.txt").write_text(("w" * 3000 + "\n") * 150)
    with Session(root) as s:
        value = check_error(s.read("wide.txt"), "too_large", "offset=1 limit=")
        suggested = s.read("wide.txt").artifact.payload.detail["suggested_limit"]  # type: ignore[union-attr]
        assert f"limit={suggested}" in value
        # The suggestion must itself fit, or the agent loops on the same error.
        follow = s.read("wide.txt", limit=suggested)
        assert not follow.is_error, follow.value
        assert s.read("wide.txt", limit=suggested + 1).is_error


def test_not_read_then_allowed_after_a_read(session: Session, root: Path) -> None:
    with unchanged(root):
        check_error(session.edit("a.txt", "beta", "BETA"), "not_read", "Read it first")
        check_error(session.write("a.txt", "new\n"), "not_read")
        check_error(session.multi_edit("a.txt", [{"old_string": "beta", "new_string": "B"}]),
                    "not_read")  # fmt: skip
    session.read("a.txt")
    assert not session.edit("a.txt", "beta", "BETA").is_error


def test_not_read_is_off_with_the_policy(root: Path) -> None:
    with Session(root, require_read=False) as s:
        assert not s.edit("a.txt", "beta", "BETA").is_error
    assert (root / "a.txt").read_bytes() == b"alpha\nBETA\ngamma\n"


def test_stale_read_shows_what_changed(session: Session, root: Path) -> None:
    session.read("a.txt")
    (root / "a.txt").write_bytes(b"alpha\nBETA-outside\ngamma\n")
    with unchanged(root):
        value = check_error(session.edit("a.txt", "gamma", "GAMMA"), "stale_read", "Read it again")
        assert "-beta" in value and "+BETA-outside" in value
        check_error(session.write("a.txt", "x\n"), "stale_read")
        patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-gamma\n+GAMMA\n*** End Patch\n"
        check_error(session.apply_patch(patch), "stale_read", "+BETA-outside")


def test_touching_a_file_without_changing_it_is_not_stale(session: Session, root: Path) -> None:
    session.read("a.txt")
    os.utime(root / "a.txt", ns=(1, 1))
    assert not session.edit("a.txt", "beta", "BETA").is_error


def test_exists(session: Session, root: Path) -> None:
    with unchanged(root):
        check_error(session.edit("a.txt", "", "new\n"), "exists", "use write")
        patch = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n"
        check_error(session.apply_patch(patch), "exists", "already exists")
    (root / "b.txt").write_bytes(b"b\n")
    with unchanged(root):
        patch = "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-beta\n+B\n*** End Patch\n"
        check_error(session.apply_patch(patch), "exists", "b.txt")


def test_no_match_shows_the_closest_lines(session: Session, root: Path) -> None:
    session.read("a.txt")
    with unchanged(root):
        value = check_error(session.edit("a.txt", "betta\ngamma\n", "x\n"), "no_match")
        assert "2\tbeta" in value or "2  beta" in value or "line 2" in value, value
        check_error(session.edit("a.txt", "zzzz qqqq", "x"), "no_match", "Read the file")


def test_ambiguous_match_lists_every_line(session: Session, root: Path) -> None:
    (root / "dup.txt").write_bytes(b"x = 1\ny = 2\nx = 1\nz\nx = 1\n")
    session.read("dup.txt")
    with unchanged(root):
        result = session.edit("dup.txt", "x = 1", "x = 9")
        value = check_error(result, "ambiguous_match", "3 places", "1, 3, 5", "replace_all")
        assert result.artifact.payload.detail["lines"] == [1, 3, 5]  # type: ignore[union-attr]
        assert "unique" in value or "surrounding lines" in value


def test_no_change(session: Session, root: Path) -> None:
    session.read("a.txt")
    with unchanged(root):
        check_error(session.edit("a.txt", "beta", "beta"), "no_change", "new_string")
        edits = [
            {"old_string": "beta", "new_string": "B"},
            {"old_string": "B", "new_string": "beta"},
        ]
        check_error(session.multi_edit("a.txt", edits), "no_change", "nothing was written")


def test_invalid_patch(session: Session, root: Path) -> None:
    with unchanged(root):
        check_error(session.apply_patch("just some words\n"), "invalid_patch", "Begin Patch")
        check_error(session.apply_patch("*** Begin Patch\n*** Frobnicate: a.txt\n*** End Patch\n"),
                    "invalid_patch")  # fmt: skip
        check_error(session.apply_patch("*** Begin Patch\n*** End Patch\n"), "invalid_patch")


def test_patch_conflict(session: Session, root: Path) -> None:
    patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-delta\n+DELTA\n*** End Patch\n"
    with unchanged(root):
        value = check_error(session.apply_patch(patch), "patch_conflict", "Hunk 1", "Re-read")
        assert not value.startswith("Error (patch_conflict): a.txt: ")  # the path named once


@pytest.mark.parametrize(
    ("name", "arguments", "hint"),
    [
        ("read", {"path": 3}, "path"),
        ("read", {}, "path: Field required"),
        ("read", {"path": "a.txt", "offset": "one"}, "offset"),
        ("read", {"path": "a.txt", "offset": 0}, "offset"),
        ("read", {"path": "a.txt", "bogus": 1}, "bogus"),
        ("read", "a.txt", "arguments"),
        ("read", None, "arguments"),
        ("write", {"path": "a.txt"}, "content"),
        ("edit", {"path": "a.txt", "old_string": ["x"], "new_string": "y"}, "old_string"),
        ("edit", {"path": "a.txt", "old_string": "x", "new_string": "y", "replace_all": "maybe"},
         "replace_all"),
        ("multi_edit", {"path": "a.txt", "edits": []}, "edits"),
        ("multi_edit", {"path": "a.txt", "edits": [{"old_string": "x"}]}, "new_string"),
        ("multi_edit", {"path": "a.txt", "edits": "x"}, "edits"),
        ("apply_patch", {"patch": 7}, "patch"),
        ("undo", {}, "path"),
        ("delete_everything", {"path": "a.txt"}, "Tools: read, write"),
    ],
)  # fmt: skip
def test_invalid_arguments(
    session: Session, root: Path, name: str, arguments: object, hint: str
) -> None:
    with unchanged(root):
        check_error(session.call(name, arguments), "invalid_arguments", hint)


def test_offset_past_the_end_says_the_range(session: Session) -> None:
    check_error(session.read("a.txt", offset=9), "invalid_arguments", "between 1 and 3")


def test_nothing_to_undo(session: Session, root: Path) -> None:
    with unchanged(root):
        check_error(session.undo("a.txt"), "nothing_to_undo", "a.txt")
        check_error(session.undo("never.txt"), "nothing_to_undo")


def test_io_error_when_the_saved_version_is_gone(session: Session, root: Path) -> None:
    session.read("a.txt")
    assert not session.edit("a.txt", "beta", "BETA").is_error
    shutil.rmtree(session.sandbox.state_path / "blobs")
    with unchanged(root):
        check_error(session.undo("a.txt"), "io_error", "cannot restore", "unchanged")
    assert (root / "a.txt").read_bytes() == b"alpha\nBETA\ngamma\n"


def test_permission(session: Session, root: Path) -> None:
    session.read("a.txt")
    with immutable(root / "a.txt"), unchanged(root):
        check_error(session.edit("a.txt", "beta", "BETA"), "permission", "refused")
    check_error(session.undo("a.txt"), "nothing_to_undo")  # the failed edit left no history


def test_error_codes_are_the_documented_ones() -> None:
    """The tree in the module docstring lists exactly the codes a ToolError accepts."""
    tree = re.findall(r"^ [├└]─ (\w+)", errors.__doc__ or "", flags=re.MULTILINE)
    assert len(tree) == len(set(tree))
    assert set(tree) == CODES
    assert "internal_error" in CODES


def test_every_sandbox_code_reads_as_a_tool_code() -> None:
    assert set(SANDBOX_CODES) == sandbox_errors.CODES
    assert set(SANDBOX_CODES.values()) <= CODES
    for code in sandbox_errors.CODES:
        error = ToolError.from_sandbox(SandboxError(code, "refused", path="a.txt"))
        assert error.code == SANDBOX_CODES[code]
        assert error.detail == {"path": "a.txt"}


def test_a_diff_error_in_a_tool_is_an_internal_error_result(
    session: Session, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> NoReturn:
        raise DiffError("no_content", "Give at least one of old and new.")

    session.read("a.txt")
    monkeypatch.setattr(write_tool, "diff_texts", refuse)
    with unchanged(root):
        result = session.write("a.txt", "alpha\nbeta\ngamma\n")
    check_error(result, "internal_error", "could not be diffed", "Give at least one")
    assert result.artifact is not None
    assert result.artifact.payload.detail == {"diff_code": "no_content"}


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
_FIELDS = ["path", "offset", "limit", "content", "old_string", "new_string", "replace_all",
           "edits", "patch"]  # fmt: skip


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from([*Session.tool_names(), "nope"]),
    arguments=_JSON | st.dictionaries(st.sampled_from(_FIELDS), _JSON, max_size=4),
)
def test_no_arguments_make_a_tool_raise(name: str, arguments: object) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "a.txt").write_bytes(b"alpha\n")
        with Session(tmp) as s:
            result = s.call(name, arguments)
        assert isinstance(result, ToolResult)
        if result.is_error:
            assert result.artifact is not None and result.artifact.kind == "error"
            assert result.artifact.payload.code in CODES
