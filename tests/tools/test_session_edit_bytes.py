"""Exact edits of large UTF-8 files run on bytes: the same file, diff and value as the text path."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from edittools import Session, ToolResult
from edittools.change import _commit as executor_module
from edittools.change import _undo as undo_module
from edittools.state._contents import KnownContents
from edittools.tools import edit as edit_module
from sandbox import FileWrite, Sandbox, digest_of
from sandbox import _files as files_module
from sandbox._digest import THREAD_BYTES


def _lines(n: int, tail: str = "") -> bytes:
    return "".join(f"line {i} = value({i}){tail}\n" for i in range(n)).encode("utf-8")


# (file bytes, old_string, new_string, replace_all)
CASES = {
    "middle": (_lines(400), "line 200 = value(200)", "line 200 = changed", False),
    "first_line": (_lines(400), "line 0 = value(0)\n", "", False),
    "last_line_no_newline": (_lines(400) + b"end", "end", "end\nand more", False),
    "multi_line_needle": (_lines(400), "line 7 = value(7)\nline 8", "merged 7+8", False),
    "non_ascii": (_lines(400, " # café ☕"), "line 9 = value(9) # café ☕", "ça va 🙂", False),
    "replace_all_nearby": (
        b"x = 1\ny = 2\nx = 1\nz\nx = 1\n" + _lines(400),
        "x = 1\n",
        "x = 10\nw = 0\n",
        True,
    ),
    # more spans than splice_views keeps as views: the new content comes as one joined piece
    "replace_all_dense": (_lines(300, " # tag"), " # tag", " # label", True),
    "replace_all_dropping_lines": (
        _lines(50) + b"a\nb\nc\na\nb\nc\n" + _lines(50),
        "a\nb\nc\n",
        "abc\n",
        True,
    ),
}


def _run(
    tmp_path: Path, data: bytes, old: str, new: str, replace_all: bool
) -> tuple[ToolResult, bytes]:
    tmp_path.mkdir()
    (tmp_path / "f.py").write_bytes(data)
    with Session(tmp_path, require_read=False, syntax_max_bytes=0) as session:
        result = session.edit("f.py", old, new, replace_all=replace_all)
        return result, (tmp_path / "f.py").read_bytes()


@pytest.mark.parametrize("name", sorted(CASES))
def test_byte_path_gives_what_the_text_path_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    data, old, new, replace_all = CASES[name]
    taken = []
    real = edit_module.exact_byte_spans

    def spy(*args: object, **kwargs: bool) -> object:
        spans = real(*args, **kwargs)  # type: ignore[arg-type]
        taken.append(spans is not None)
        return spans

    monkeypatch.setattr(executor_module, "BYTES_PATH_MIN", 0)
    monkeypatch.setattr(edit_module, "exact_byte_spans", spy)
    fast, fast_bytes = _run(tmp_path / "fast", data, old, new, replace_all)
    assert taken == [True]
    monkeypatch.setattr(executor_module, "BYTES_PATH_MIN", 1 << 40)
    slow, slow_bytes = _run(tmp_path / "slow", data, old, new, replace_all)
    assert taken == [True]  # the text path did not ask
    assert not fast.is_error and not slow.is_error, (fast.value, slow.value)
    assert fast_bytes == slow_bytes
    assert fast.value == slow.value
    assert fast.artifact is not None and slow.artifact is not None
    fast_payload = fast.artifact.payload.model_dump()
    slow_payload = slow.artifact.payload.model_dump()
    for key in ("hunks", "unified", "stats", "match", "truncated", "old", "new", "diagnostics"):
        assert fast_payload[key] == slow_payload[key], key


@pytest.mark.parametrize(
    ("data", "old"),
    [
        (_lines(300).replace(b"\n", b"\r\n"), "line 3 = value(3)"),  # CRLF: the text path
        (_lines(300) + b"line 3 = value(3)\n", "line 3 = value(3)\n"),  # ambiguous: listed there
        (_lines(300), "not there"),  # a miss: closest lines come from the text path
        ("é".encode("cp1252") + _lines(300), "line 3 = value(3)"),  # not UTF-8
    ],
)
def test_what_the_byte_path_does_not_settle_goes_to_the_text_path(data: bytes, old: str) -> None:
    assert edit_module.exact_byte_spans(data, old, "new", replace_all=False) is None


def _edit_and_undo(
    root: Path, data: bytes, old: str, new: str, replace_all: bool = False
) -> tuple[ToolResult, bytes]:
    root.mkdir()
    (root / "f.py").write_bytes(data)
    with Session(root, require_read=False, syntax_max_bytes=0) as session:
        assert not session.edit("f.py", old, new, replace_all=replace_all).is_error
        result = session.undo("f.py")
        return result, (root / "f.py").read_bytes()


@pytest.mark.parametrize(
    "name", ["middle", "first_line", "multi_line_needle", "non_ascii", "replace_all_dense"]
)
def test_undo_of_a_recipe_puts_one_span_back_like_the_whole_file_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    data, old, new, replace_all = CASES[name]
    taken = []
    real = undo_module._by_recipe

    def spy(*args: object, **kwargs: bool) -> object:
        span = real(*args, **kwargs)  # type: ignore[arg-type]
        taken.append(span is not None)
        return span

    monkeypatch.setattr(executor_module, "BYTES_PATH_MIN", 0)
    monkeypatch.setattr(undo_module, "_by_recipe", spy)
    fast, fast_bytes = _edit_and_undo(tmp_path / "fast", data, old, new, replace_all)
    assert taken == [True]
    monkeypatch.setattr(executor_module, "BYTES_PATH_MIN", 1 << 40)
    slow, slow_bytes = _edit_and_undo(tmp_path / "slow", data, old, new, replace_all)
    assert taken == [True, False]
    assert fast_bytes == slow_bytes == data
    assert not fast.is_error and fast.value == slow.value
    assert fast.artifact is not None and slow.artifact is not None
    for key in ("hunks", "unified", "stats", "old", "new"):
        assert fast.artifact.payload.model_dump()[key] == slow.artifact.payload.model_dump()[key]


def test_undo_by_span_checks_what_it_rebuilt_against_the_snapshot_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(executor_module, "BYTES_PATH_MIN", 0)
    data = _lines(400)
    (tmp_path / "f.py").write_bytes(data)
    with Session(tmp_path, require_read=False, syntax_max_bytes=0) as session:
        assert not session.edit("f.py", "line 5 = value(5)", "five").is_error
        before = data
        assert not session.edit("f.py", "line 9 = value(9)", "nine").is_error
        edited = (tmp_path / "f.py").read_bytes()
        blobs = session.sandbox.state_path / "blobs"
        for blob in blobs.rglob("*"):  # damage the kept bytes the undo puts back
            if blob.is_file():
                blob.chmod(0o600)
                blob.write_bytes(blob.read_bytes().replace(b"line 9 ", b"LINE 9 "))
        result = session.undo("f.py")
        assert result.is_error and result.artifact is not None
        assert result.artifact.payload.code == "state_corrupt"  # type: ignore[union-attr]
        assert (tmp_path / "f.py").read_bytes() == edited != before


def test_a_large_file_s_new_content_hashed_from_a_state_is_recorded_by_its_true_digest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Over the thread limit: the old content is hashed on a worker, and the new content is
    # hashed from the old one's digest state below the change while it is written.
    data = _lines(120_000)
    assert len(data) > 2 * THREAD_BYTES
    (tmp_path / "f.py").write_bytes(data)
    prefixes = []
    real = Sandbox.commit_files

    def spy(self: Sandbox, writes: list[FileWrite], **kwargs: Any) -> object:
        prefixes.extend(w.prefix for w in writes)
        return real(self, writes, **kwargs)

    monkeypatch.setattr(Sandbox, "commit_files", spy)
    # Every read is hashed: none is taken as what the session wrote (tested apart below).
    monkeypatch.setattr(KnownContents, "written_digest", lambda *_: None)
    with Session(tmp_path, syntax_max_bytes=0) as session:
        session.read("f.py", limit=1)
        for old, new in [
            ("line 60000 = value(60000)", "line 60000 = changed"),
            ("line 119999 = value(119999)\n", ""),
            ("line 3 = value(3)", "line 3 = changed"),
        ]:
            assert not session.edit("f.py", old, new).is_error
            on_disk = (tmp_path / "f.py").read_bytes()
            record = session.workspace.seen("f.py")
            assert record is not None and record.digest == digest_of(on_disk)
        for _ in range(3):
            result = session.undo("f.py")
            assert not result.is_error, result.value
            record = session.workspace.seen("f.py")
            assert record is not None and record.digest == digest_of(
                (tmp_path / "f.py").read_bytes()
            )
    assert (tmp_path / "f.py").read_bytes() == data
    # The state at the last whole mebibyte below each change (none below the first).
    mib = 1 << 20
    starts = [1_537_780 // mib * mib, 3_137_747 // mib * mib, None]
    taken = [None if p is None else p[0] for p in prefixes]  # type: ignore[index]
    assert taken == starts + starts[::-1]


def _count_hashed_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the contents read and hashed (not proved equal to what was written)."""
    hashed: list[int] = []
    real = files_module.PendingDigest

    class Counting(real):  # type: ignore[misc, valid-type]
        def __init__(self, pieces: list[bytes], **kwargs: object) -> None:
            if sum(map(len, pieces)):  # not the empty stand-in of a digest proved otherwise
                hashed.append(sum(map(len, pieces)))
            super().__init__(pieces, **kwargs)

    monkeypatch.setattr(files_module, "PendingDigest", Counting)
    return hashed


def test_a_file_read_back_as_the_session_wrote_it_is_not_hashed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _lines(120_000)
    (tmp_path / "f.py").write_bytes(data)
    hashed = _count_hashed_reads(monkeypatch)
    with Session(tmp_path, syntax_max_bytes=0) as session:
        session.read("f.py", limit=1)
        hashed.clear()
        assert not session.edit("f.py", "line 5000 = value(5000)", "five thousand").is_error
        assert hashed == [len(data)]  # the first read of the file is hashed
        for old, new in [("line 7 = value(7)", "seven"), ("line 90000 = value(90000)\n", "")]:
            assert not session.edit("f.py", old, new).is_error
        assert not session.undo("f.py").is_error
        assert hashed == [len(data)]  # then each read is proved to be the last write
        record = session.workspace.seen("f.py")
        assert record is not None
        assert record.digest == digest_of((tmp_path / "f.py").read_bytes())


def test_a_file_changed_after_the_session_wrote_it_is_hashed_and_refused(
    tmp_path: Path,
) -> None:
    # Same size, same inode, same mtime: only the bytes tell, and they are compared.
    data = _lines(120_000)
    (tmp_path / "f.py").write_bytes(data)
    # The whole-file rule: a change anywhere refuses (the region rule would merge this one).
    with Session(tmp_path, syntax_max_bytes=0, stale="file") as session:
        session.read("f.py", limit=1)
        assert not session.edit("f.py", "line 5000 = value(5000)", "line 5000 = changed").is_error
        path = tmp_path / "f.py"
        st = path.stat()
        with path.open("r+b") as fh:  # another writer, in place
            fh.seek(len(data) // 2)
            fh.write(b"X")
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        changed = path.read_bytes()
        # Past the racy window of that change, so its stat alone would pass the compare-and-swap:
        # only the comparison of the bytes can catch it.
        ctime = path.stat().st_ctime_ns
        while time.time_ns() < ctime + 100_000_000:
            time.sleep(0.01)
        result = session.edit("f.py", "line 7 = value(7)", "seven")
        assert result.is_error and result.artifact is not None
        assert result.artifact.payload.code == "stale_read"  # type: ignore[union-attr]
        assert path.read_bytes() == changed
        undone = session.undo("f.py")
        assert undone.is_error and path.read_bytes() == changed
