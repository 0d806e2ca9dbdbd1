"""edit and undo on files over the size cap: streamed scans, kernel copies, positioned diffs.

The session's cap is 1 MiB and its scan reads 4 KiB at a time, so files of a few MiB are "larger
than memory" and a needle can be put across any chunk border. Oracles: `bytes.replace` for the
new content, the whole-text diff of the same change (`diff_texts`) for hunks and counts, `git
apply` for the unified text, the old bytes for undo.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from crash_child import fork_running
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tool_helpers import check_error, unchanged

from edittools import Session
from edittools.diff import diff_texts
from sandbox import FileWrite, digest_of

CAP = 1 << 20
CHUNK = 4096
TEMP_SUFFIX = ".edittools-tmp"


def rows(count: int, newline: str = "\n") -> bytes:
    """Numbered rows, 24 bytes each with LF: `row 0000001 value 00007`."""
    return "".join(f"row {k:07d} value {k * 7 % 100000:05d}{newline}"
                   for k in range(1, count + 1)).encode()  # fmt: skip


DATA = rows(150_000)  # 3.6 MB


def session(root: Path, **options: Any) -> Session:
    return Session(root, **{"max_file_bytes": CAP, "scan_chunk_bytes": CHUNK, **options})


def edited(root: Path, old: bytes, new: bytes, data: bytes = DATA, **kw: Any) -> Any:
    """Edit big.txt holding `data` (read first); check the bytes on disk and the payload."""
    (root / "big.txt").write_bytes(data)
    with session(root) as s:
        assert not s.read("big.txt").is_error
        result = s.edit("big.txt", old.decode(), new.decode(), **kw)
        assert not result.is_error, result.value
    want = data.replace(old, new) if kw.get("replace_all") else data.replace(old, new, 1)
    assert (root / "big.txt").read_bytes() == want
    check_payload(root, result.artifact.payload, data, want)
    return result


def check_payload(root: Path, payload: Any, old: bytes, new: bytes) -> None:
    """Hunks and counts as the whole-text diff has them; the unified text applies with git."""
    whole = diff_texts(old.decode(), new.decode(), path="big.txt")
    assert payload.granularity == "snippet" and payload.truncated
    assert payload.old is None and payload.new is None
    assert payload.stats == whole.stats
    assert [
        (h.old_start, h.old_lines, h.new_start, h.new_lines, h.lines) for h in payload.hunks
    ] == [(h.old_start, h.old_lines, h.new_start, h.new_lines, h.lines) for h in whole.hunks]
    repo = root.parent / f"{root.name}-git"
    repo.mkdir()
    (repo / "big.txt").write_bytes(old)
    (repo / "p.diff").write_text(payload.unified)
    subprocess.run(["git", "apply", "p.diff"], cwd=repo, check=True, capture_output=True)
    assert (repo / "big.txt").read_bytes() == new
    shutil.rmtree(repo)


@pytest.mark.parametrize("shift", [-17, -3, -1, 0, 1, 5])
def test_a_match_across_a_chunk_border_is_found(tmp_path: Path, shift: int) -> None:
    at = 200 * CHUNK + shift  # the needle's first byte, around a border
    old = DATA[at : at + 40]  # holds a whole row number: unique
    assert DATA.count(old) == 1
    result = edited(tmp_path, old, b"<<REPLACED>>")
    stats = result.artifact.payload.stats  # checked against the whole-text diff by `edited`
    assert result.value.startswith(f"Edited big.txt (+{stats.added} -{stats.removed}).")


def test_a_repeated_needle_is_refused_with_its_lines(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_bytes(DATA)
    with session(tmp_path) as s, unchanged(tmp_path):
        s.read("big.txt")
        # "value 00007\n" ends rows 1, 100001 (7 * k % 100000 == 7 for k = 1, 100001)
        value = check_error(s.edit("big.txt", "value 00007\n", "v\n"), "ambiguous_match",
                            "matches 2 places", "lines 1, 100001")  # fmt: skip
        assert "replace_all" in value


def test_no_match_says_the_tolerant_tiers_were_skipped(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_bytes(DATA)
    with session(tmp_path) as s, unchanged(tmp_path):
        s.read("big.txt")
        result = s.edit("big.txt", "row 0000005  value", "x")
        check_error(result, "no_match", "tolerant tiers", "skipped")


def test_replace_all_changes_every_place(tmp_path: Path) -> None:
    result = edited(tmp_path, b"value 00007\n", b"value seven\nadded\n", replace_all=True)
    assert result.value.startswith("Replaced 2 occurrences in big.txt (+4 -2).")


def test_a_crlf_file_takes_bare_newlines_as_its_own(tmp_path: Path) -> None:
    data = rows(150_000, "\r\n")
    (tmp_path / "big.txt").write_bytes(data)
    with session(tmp_path) as s:
        s.read("big.txt")
        result = s.edit("big.txt", "row 0090000 value 30000\nrow", "changed\nline\nrow")
        assert not result.is_error, result.value
        assert result.artifact.payload.match == "newlines"
    want = data.replace(b"row 0090000 value 30000\r\nrow", b"changed\r\nline\r\nrow")
    assert (tmp_path / "big.txt").read_bytes() == want
    check_payload(tmp_path, result.artifact.payload, data, want)


@pytest.mark.parametrize("where", ["start", "end", "end without newline"])
def test_a_change_at_the_very_start_or_end(tmp_path: Path, where: str) -> None:
    data = DATA if where != "end without newline" else DATA[:-1]
    old = data[:30] if where == "start" else data[-30:]
    edited(tmp_path, old, b"NEW", data)


def test_undo_restores_the_exact_bytes(tmp_path: Path) -> None:
    for old, new in ((DATA[:30], b"HEAD\n"), (DATA[-30:], b""), (b"row 0077777", b"X\nY")):
        (tmp_path / "big.txt").write_bytes(DATA)
        with session(tmp_path) as s:
            s.read("big.txt")
            assert not s.edit("big.txt", old.decode(), new.decode()).is_error
            assert (tmp_path / "big.txt").read_bytes() != DATA
            result = s.undo("big.txt")
            assert not result.is_error, result.value
            check_payload(tmp_path, result.artifact.payload, DATA.replace(old, new, 1), DATA)
        assert (tmp_path / "big.txt").read_bytes() == DATA


def test_a_replace_all_is_undone_by_putting_every_place_back(tmp_path: Path) -> None:
    """Each place of a streamed replace_all is kept as a span of the change's recipe: the result
    has a new_ref, and undo splices the old bytes back into every place."""
    # "value 0000" ends rows k with 7k % 100000 < 10: 21 places, some across chunk borders
    old, new = b"value 0000", b"V\nvalue-0000"
    assert DATA.count(old) > 10
    result = edited(tmp_path, old, new, replace_all=True)
    ref = result.artifact.payload.new_ref
    with session(tmp_path) as s:
        assert not s.sandbox.store.has(ref)  # not a copy: rebuilt from the snapshot and the spans
        assert s.workspace.content(ref) == DATA.replace(old, new)
        undone = s.undo("big.txt")
        assert not undone.is_error, undone.value
        check_payload(tmp_path, undone.artifact.payload, DATA.replace(old, new), DATA)
    assert (tmp_path / "big.txt").read_bytes() == DATA


def test_undo_refuses_a_snapshot_whose_span_was_changed(tmp_path: Path) -> None:
    """The span put back comes from the snapshot: bytes that are not what the change replaced
    (a damaged or tampered snapshot) are refused before anything is written."""
    (tmp_path / "big.txt").write_bytes(DATA)
    with session(tmp_path) as s:
        s.read("big.txt")
        assert not s.edit("big.txt", "row 0077777", "X\nY").is_error
        now = (tmp_path / "big.txt").read_bytes()
        blob_id = digest_of(DATA)
        blob = s.sandbox.state_path / "blobs" / blob_id[:2] / blob_id[2:]
        at = DATA.index(b"row 0077777")
        os.chmod(blob, 0o600)
        with open(blob, "r+b") as fh:  # same length, other bytes, where the span comes from
            fh.seek(at)
            fh.write(b"ROW 0077777")
        with unchanged(tmp_path):  # no temp file left by the writer of the refused undo
            check_error(s.undo("big.txt"), "state_corrupt")
    assert (tmp_path / "big.txt").read_bytes() == now


def test_a_file_changed_since_its_read_is_stale(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_bytes(DATA)
    with session(tmp_path) as s:
        s.read("big.txt", offset=10, limit=2)
        with (tmp_path / "big.txt").open("ab") as f:
            f.write(b"appended by someone else\n")
        with unchanged(tmp_path):
            check_error(s.edit("big.txt", "row 0000011", "x"), "stale_read", "Read it again")
        s.read("big.txt", offset=10, limit=2)
        assert not s.edit("big.txt", "row 0000011", "x").is_error
        assert s.edit("big.txt", "x value", "y value").artifact.payload.stats.added == 1
        # Undo refuses too when the file changed after the edit.
        with (tmp_path / "big.txt").open("ab") as f:
            f.write(b"more\n")
        with unchanged(tmp_path):
            check_error(s.undo("big.txt"), "stale_read")


def test_a_changed_file_is_refused_by_the_compare_and_swap(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_bytes(DATA)
    with session(tmp_path) as s:
        r = s.read("big.txt")
        assert not r.is_error
        version = s.sandbox.version("big.txt")
        assert version is not None
        (tmp_path / "big.txt").write_bytes(DATA.replace(b"row 0000002", b"row 000000X"))
        from sandbox import Splice

        with pytest.raises(Exception, match="changed since"):
            s.sandbox.commit_files(
                [FileWrite("big.txt", Splice(((0, 3, b"ROW"),), len(DATA), "0" * 64), version)]
            )


def test_peak_memory_stays_bounded(tmp_path: Path) -> None:
    data = rows(400_000)  # 9.6 MB
    (tmp_path / "big.txt").write_bytes(data)
    with session(tmp_path, scan_chunk_bytes=64 << 10) as s:
        s.read("big.txt")
        tracemalloc.start()
        try:
            result = s.edit("big.txt", "row 0200000 value", "changed")
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert not result.is_error, result.value
    assert peak < 2 << 20, peak  # a few chunks and windows, not the file


_CHILD = textwrap.dedent("""
    import sys
    from edittools import Session
    with Session(sys.argv[1], max_file_bytes=1 << 20, require_read=False) as s:
        print("ready", flush=True)
        r = s.edit("big.txt", "row 0100000 value", "CHANGED")
    sys.exit(1 if r.is_error else 0)
""")


def run_child(root: Path, kill_after: float | None) -> float:
    """Run the edit in a child process, SIGKILLed `kill_after` seconds after it starts the edit
    (None: let it finish); return the seconds from the start of the edit to its end or kill."""
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(root)], stdout=subprocess.PIPE)
    assert child.stdout is not None
    assert child.stdout.readline() == b"ready\n"
    began = time.monotonic()
    if kill_after is None:
        assert child.wait() == 0
    else:
        time.sleep(kill_after)
        child.send_signal(signal.SIGKILL)
        child.wait()
    child.stdout.close()
    return time.monotonic() - began


def test_a_killed_streamed_write_leaves_old_or_new_bytes(tmp_path: Path) -> None:
    data = rows(1_000_000)  # 24 MB: the scan and the copy take long enough to be hit
    new = data.replace(b"row 0100000 value", b"CHANGED", 1)
    (tmp_path / "whole").mkdir()
    (tmp_path / "whole" / "big.txt").write_bytes(data)
    span = run_child(tmp_path / "whole", None)  # how long an edit takes here, to aim the kills
    outcomes = []
    trials = 10
    for trial in range(trials):
        root = tmp_path / f"t{trial}"
        root.mkdir()
        (root / "big.txt").write_bytes(data)
        run_child(root, span * 1.5 * trial / (trials - 1))  # from at once to after its end
        with Session(root, max_file_bytes=CAP):  # opening the root settles an open change
            pass
        held = (root / "big.txt").read_bytes()
        assert held in (data, new)
        outcomes.append(held == new)
        assert not [p for p in root.iterdir() if p.name.endswith(TEMP_SUFFIX)]
        shutil.rmtree(root)
    # Killed at once it left the old bytes; killed after its end, the new ones.
    assert outcomes[0] is False and outcomes[-1] is True, outcomes


def git_patch(tmp_path: Path, old: bytes, new: bytes, context: int = 3) -> str:
    """The unified diff git makes between two versions of big.txt (the oracle's own patch)."""
    pair = tmp_path.parent / f"{tmp_path.name}-pair"
    (pair / "a").mkdir(parents=True)
    (pair / "b").mkdir()
    (pair / "a" / "big.txt").write_bytes(old)
    (pair / "b" / "big.txt").write_bytes(new)
    out = subprocess.run(["git", "diff", "--no-index", f"-U{context}", "a/big.txt", "b/big.txt"],
                         cwd=pair, capture_output=True, check=False).stdout  # fmt: skip
    shutil.rmtree(pair)
    hunks = out[out.index(b"\n@@ ") + 1 :].decode()
    return f"--- a/big.txt\n+++ b/big.txt\n{hunks}"


def changed_rows(data: bytes, edits: dict[int, bytes]) -> bytes:
    """`data` with whole rows replaced: row number (1-based) -> its new bytes."""
    lines = data.splitlines(keepends=True)
    for number, new in sorted(edits.items(), reverse=True):
        lines[number - 1 : number] = [new]
    return b"".join(lines)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_patch_of_several_hunks_streams_through_a_large_file(
    tmp_path: Path, newline: str
) -> None:
    data = rows(150_000, newline)
    nl = newline.encode()
    # Hunks at the very start and end, across chunk borders, and rows removed and added.
    new = changed_rows(data, {1: b"first" + nl, 34_133: b"", 34_140: b"a" + nl + b"b" + nl,
                              100_000: b"middle" + nl, 150_000: b"last" + nl})  # fmt: skip
    patch = git_patch(tmp_path, data, new)
    assert patch.count("@@ -") == 4
    (tmp_path / "big.txt").write_bytes(data)
    with session(tmp_path) as s:
        result = s.apply_patch(patch)
        assert not result.is_error, result.value
        payload = result.artifact.payload
        assert payload.match == "exact" and payload.new_ref is not None
        assert (tmp_path / "big.txt").read_bytes() == new
        check_payload(tmp_path, payload, data, new)
        undone = s.undo("big.txt")
        assert not undone.is_error, undone.value
    assert (tmp_path / "big.txt").read_bytes() == data


def test_a_codex_patch_streams_when_its_context_is_unique(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_bytes(DATA)
    patch = ("*** Begin Patch\n*** Update File: big.txt\n@@\n row 0077776 value 44432\n"
             "-row 0077777 value 44439\n+row 77777 changed\n row 0077778 value 44446\n"
             "*** End Patch\n")  # fmt: skip
    with session(tmp_path) as s:
        result = s.apply_patch(patch)
        assert not result.is_error, result.value
    want = DATA.replace(b"row 0077777 value 44439\n", b"row 77777 changed\n")
    assert (tmp_path / "big.txt").read_bytes() == want
    check_payload(tmp_path, result.artifact.payload, DATA, want)


def test_a_unified_hunk_takes_the_place_nearest_its_stated_line(tmp_path: Path) -> None:
    """The same context occurs many times: the header's line decides (and a file changed above
    the hunk since the patch was made shifts it, as patch's offset search does)."""
    data = b"".join(b"same\ncontext\nsame\n" if k % 1000 == 0 else b"row %06d\n" % k
                    for k in range(200_000))  # fmt: skip
    (tmp_path / "big.txt").write_bytes(data)
    at = data.index(b"same\ncontext\nsame\n", data.index(b"row 120001"))  # the 121st of 200
    line = data.count(b"\n", 0, at) + 2  # its "context" line
    new = changed_rows(data, {line: b"CHANGED\n"})
    patch = git_patch(tmp_path, data, new, context=1)
    assert patch.count("@@ -") == 1
    with session(tmp_path) as s:
        result = s.apply_patch(patch)
        assert not result.is_error, result.value
    assert (tmp_path / "big.txt").read_bytes() == new


def test_a_patch_that_does_not_match_changes_no_file(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_bytes(DATA)
    (tmp_path / "small.txt").write_text("one\ntwo\n")
    patch = (
        "--- a/small.txt\n+++ b/small.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n"
        "--- a/big.txt\n+++ b/big.txt\n@@ -5,3 +5,3 @@\n row 0000005 value 00035\n"
        "-row 0000006 value 00043\n+changed\n row 0000007 value 00049\n"
    )
    with session(tmp_path) as s, unchanged(tmp_path):
        check_error(s.apply_patch(patch), "patch_conflict", "exact", "tolerant tiers")
    fixed = patch.replace("value 00043", "value 00042")
    with session(tmp_path) as s:
        result = s.apply_patch(fixed)
        assert not result.is_error, result.value
    assert (tmp_path / "small.txt").read_text() == "one\nTWO\n"
    assert (tmp_path / "big.txt").read_bytes() == DATA.replace(b"row 0000006 value 00042\n",
                                                               b"changed\n")  # fmt: skip


def test_a_hunk_matches_whole_lines_only(tmp_path: Path) -> None:
    data = b"cab\n" + DATA + b"ab\n"  # "ab\n" ends the first line, and is the last one
    (tmp_path / "big.txt").write_bytes(data)
    patch = "*** Begin Patch\n*** Update File: big.txt\n@@\n-ab\n+AB\n*** End Patch\n"
    with session(tmp_path) as s:
        result = s.apply_patch(patch)
        assert not result.is_error, result.value
    assert (tmp_path / "big.txt").read_bytes() == data[:-3] + b"AB\n"


def test_what_does_not_stream_is_refused_saying_what_does(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_bytes(DATA)
    with session(tmp_path) as s, unchanged(tmp_path):
        s.read("big.txt")
        check_error(s.write("big.txt", "x\n"), "too_large", "exact edits (edit, multi_edit)",
                    "apply_patch updates")  # fmt: skip
        delete = "*** Begin Patch\n*** Delete File: big.txt\n*** End Patch\n"
        check_error(s.apply_patch(delete), "too_large", "update section")
        insert = "--- a/big.txt\n+++ b/big.txt\n@@ -3,0 +4 @@\n+new row\n"
        check_error(s.apply_patch(insert), "too_large", "no context or removed lines")


def test_a_dry_run_diffs_without_writing_or_leaving_a_temp_file(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_bytes(DATA)
    patch = git_patch(tmp_path, DATA, changed_rows(DATA, {70_000: b"x\n"}))
    with session(tmp_path) as s, unchanged(tmp_path):
        s.read("big.txt")
        arguments = {"path": "big.txt", "old_string": "row 0000009 ", "new_string": "r9 "}
        edit = s.call("edit", arguments, dry_run=True)
        assert not edit.is_error, edit.value
        assert edit.artifact.payload.stats.added == 1
        applied = s.call("apply_patch", {"patch": patch}, dry_run=True)
        assert not applied.is_error, applied.value
        assert applied.artifact.payload.hunks[0].old_start == 69_997
        assert os.listdir(s.sandbox.state_path / "pending") == []
    assert sorted(os.listdir(tmp_path)) == ["big.txt"]


def sequential(data: bytes, edits: list[dict[str, Any]]) -> bytes:
    """What multi_edit makes of `data` in memory: each edit on the text the ones before made."""
    for e in edits:
        old, new = e["old_string"].encode(), e["new_string"].encode()
        data = data.replace(old, new, -1 if e.get("replace_all") else 1)
    return data


def test_a_multi_edit_streams_its_edits_in_order(tmp_path: Path) -> None:
    at = 300 * CHUNK - 5  # a needle across a chunk border
    edits = [
        {"old_string": DATA[at : at + 30].decode(), "new_string": "ACROSS\n"},
        {"old_string": "value 00007", "new_string": "v7", "replace_all": True},  # rows 1, 100001
        {"old_string": "row 0120000 value 40000\n", "new_string": ""},
        {"old_string": "row 0000005 ", "new_string": "fifth\nrow 5 "},
    ]
    want = sequential(DATA, edits)
    (tmp_path / "big.txt").write_bytes(DATA)
    with session(tmp_path) as s:
        s.read("big.txt")
        result = s.multi_edit("big.txt", edits)
        assert not result.is_error, result.value
        assert (tmp_path / "big.txt").read_bytes() == want
        check_payload(tmp_path, result.artifact.payload, DATA, want)
        undone = s.undo("big.txt")
        assert not undone.is_error, undone.value
    assert (tmp_path / "big.txt").read_bytes() == DATA


def test_a_multi_edit_of_a_crlf_file_takes_bare_newlines_as_its_own(tmp_path: Path) -> None:
    data = rows(150_000, "\r\n")
    (tmp_path / "big.txt").write_bytes(data)
    edits = [
        {"old_string": "row 0090000 value 30000\nrow", "new_string": "changed\nline\nrow"},
        {"old_string": "row 0000003 value 00021\r\n", "new_string": "three\r\n"},
    ]
    with session(tmp_path) as s:
        s.read("big.txt")
        result = s.multi_edit("big.txt", edits)
        assert not result.is_error, result.value
        assert result.artifact.payload.match == "newlines"
    want = data.replace(b"row 0090000 value 30000\r\nrow", b"changed\r\nline\r\nrow")
    want = want.replace(b"row 0000003 value 00021\r\n", b"three\r\n")
    assert (tmp_path / "big.txt").read_bytes() == want
    check_payload(tmp_path, result.artifact.payload, data, want)


@pytest.mark.parametrize(
    ("edits", "code", "words"),
    [
        # The second needle is in the first edit's new text: only the sequential text has it.
        ([("row 0000050 ", "row 0000051 "), ("row 0000051 value 00350", "x")], "too_large",
         "earlier edit writes"),
        # The second needle was inside the first edit's span: gone, as in memory.
        ([("row 0000050 value 00350", "X"), ("row 0000050", "Y")], "no_match", "Edit 2 of 2"),
        ([("row 0000050 ", "a"), ("value 00350\nrow 0000051", "b")], "too_large", "too close"),
        ([("value 00007", "x")], "ambiguous_match", "lines 1, 100001"),
    ],
)  # fmt: skip
def test_a_multi_edit_whose_order_could_matter_is_refused(
    tmp_path: Path, edits: list[tuple[str, str]], code: str, words: str
) -> None:
    (tmp_path / "big.txt").write_bytes(DATA)
    with session(tmp_path) as s, unchanged(tmp_path):
        s.read("big.txt")
        operations = [{"old_string": old, "new_string": new} for old, new in edits]
        check_error(s.multi_edit("big.txt", operations), code, words)


def _counts_in_order(data: bytes, edits: list[dict[str, Any]]) -> list[int]:
    """How many places each edit's old_string has in the text the edits before it made."""
    counts = []
    for e in edits:
        counts.append(data.count(e["old_string"].encode()))
        data = sequential(data, [e])
    return counts


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(draw=st.data(), chunk=st.integers(1, 16))
def test_a_streamed_multi_edit_writes_the_sequential_result_or_nothing(
    tmp_path_factory: pytest.TempPathFactory, draw: st.DataObject, chunk: int
) -> None:
    """Whatever it accepts, it writes what the edits make one after the other in memory. Each
    old_string is cut from the text the edits before it made (so it may lie in their new text),
    and a new_string may copy text of the file (so later needles may match in it)."""
    tails = draw.draw(st.lists(st.text(alphabet="ab", max_size=3), min_size=20, max_size=50))
    data = "".join(f"{k:02d}{tail}\n" for k, tail in enumerate(tails)).encode()
    edits: list[dict[str, Any]] = []
    now = data
    for _ in range(draw.draw(st.integers(1, 3))):
        at = draw.draw(st.integers(0, len(now) - 2))
        old = now[at : at + draw.draw(st.integers(2, 8))]
        at = draw.draw(st.integers(0, len(now) - 1))
        new = draw.draw(st.one_of(st.text(alphabet="ab\n", max_size=5).map(str.encode),
                                  st.just(now[at : at + 6])))  # fmt: skip
        edit = {"old_string": old.decode(), "new_string": new.decode(),
                "replace_all": draw.draw(st.booleans())}  # fmt: skip
        edits.append(edit)
        now = sequential(now, [edit])
    root = tmp_path_factory.mktemp("multi")
    (root / "big.txt").write_bytes(data)
    with Session(root, max_file_bytes=16, scan_chunk_bytes=chunk, require_read=False) as s:
        result = s.multi_edit("big.txt", edits)
    held = (root / "big.txt").read_bytes()
    if result.is_error:
        assert held == data
        return
    counts = _counts_in_order(data, edits)
    assert all(n == 1 or (n > 1 and e["replace_all"]) for n, e in zip(counts, edits, strict=True))
    assert held == now


def test_a_file_that_grows_while_its_changes_are_placed_is_refused(tmp_path: Path) -> None:
    from edittools._errors import ToolError
    from edittools.change._call import Call
    from edittools.change._streamed.windows import hash_and_diff

    (tmp_path / "big.txt").write_bytes(DATA)
    with session(tmp_path, require_read=False) as s, s.sandbox.open_reader("big.txt") as reader:
        fd = reader.fileno()
        span = (24, 48, b"row 0000002 CHANGED\n")
        version, _, payload = hash_and_diff(s.workspace, Call(), fd, "big.txt", len(DATA), [span])
        assert version.size == len(DATA) and payload.stats.added == 1
        with open(tmp_path / "big.txt", "ab") as grown:
            grown.write(b"appended meanwhile\n")
        with pytest.raises(ToolError) as info:
            hash_and_diff(s.workspace, Call(), fd, "big.txt", len(DATA), [span])
    assert info.value.code == "stale_read"


def test_a_large_file_staged_first_is_dropped_when_a_later_section_fails(tmp_path: Path) -> None:
    """The large file's new content is written while the patch is staged: a later section that
    does not match leaves it, and every other file, as it was, with no temp file behind."""
    (tmp_path / "big.txt").write_bytes(DATA)
    (tmp_path / "small.txt").write_text("one\ntwo\n")
    patch = (
        "--- a/big.txt\n+++ b/big.txt\n@@ -5,3 +5,3 @@\n row 0000005 value 00035\n"
        "-row 0000006 value 00042\n+changed\n row 0000007 value 00049\n"
        "--- a/small.txt\n+++ b/small.txt\n@@ -1,2 +1,2 @@\n one\n-zwei\n+TWO\n"
    )
    with session(tmp_path) as s, unchanged(tmp_path):
        check_error(s.apply_patch(patch), "patch_conflict")
        assert os.listdir(s.sandbox.state_path / "pending") == []


@pytest.mark.parametrize("tool", ["edit", "apply_patch", "undo"])
def test_a_streamed_change_killed_as_it_renames_is_carried_out_on_the_next_open(
    tmp_path: Path, tool: str
) -> None:
    """The instant between the intent on record and the rename of the staged file: a real child
    kills itself there. The intent must name the new content, not read as a delete."""
    (tmp_path / "big.txt").write_bytes(DATA)
    edited = DATA.replace(b"row 0100000 value", b"CHANGED", 1)
    before, after = (edited, DATA) if tool == "undo" else (DATA, edited)

    def run() -> bool:
        rename = os.rename
        armed = tool != "undo"  # an undo is killed, not the edit before it

        def die_renaming_the_temp(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
            if armed and str(src).endswith(TEMP_SUFFIX):
                os.kill(os.getpid(), signal.SIGKILL)
            rename(src, dst, *args, **kwargs)

        os.rename = die_renaming_the_temp
        with session(tmp_path, require_read=False) as s:
            if tool == "apply_patch":
                result = s.apply_patch("*** Begin Patch\n*** Update File: big.txt\n@@\n"
                                       "-row 0100000 value 00000\n+CHANGED 00000\n*** End Patch\n")  # fmt: skip
            else:
                result = s.edit("big.txt", "row 0100000 value", "CHANGED")
            if tool == "undo" and not result.is_error:
                armed = True
                result = s.undo("big.txt")
            return result.is_error

    _, status = os.waitpid(fork_running(run), 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    assert (tmp_path / "big.txt").read_bytes() == before  # killed before the rename
    with session(tmp_path):  # opening the root settles the open intent
        pass
    assert (tmp_path / "big.txt").read_bytes() == after
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(TEMP_SUFFIX)]


@pytest.mark.parametrize("tool", ["insert", "edit_lines", "edit_symbol"])
def test_a_tool_without_a_streamed_pass_says_which_tools_can_change_a_file_over_the_cap(
    tmp_path: Path, tool: str
) -> None:
    """The size regime is decided in one place: a file over `max_file_bytes` goes to the tool's
    streamed pass, and a tool that has none is refused there with the tools that can."""
    body = "".join(f"def f{k}():\n    return {k}\n" for k in range(4000))
    (tmp_path / "big.py").write_text(body)
    with Session(tmp_path, max_file_bytes=1 << 16, require_read=False) as s:
        result = {
            "insert": lambda: s.insert("big.py", 1, "# note\n"),
            "edit_lines": lambda: s.edit_lines("big.py", "1#abc", "1#abc", "x = 1\n"),
            "edit_symbol": lambda: s.edit_symbol("big.py", "f1", "def f1():\n    return 0\n"),
        }[tool]()
    assert result.is_error
    assert result.artifact.payload.code == "too_large"  # type: ignore[union-attr]
    assert "use edit, multi_edit or apply_patch" in result.value
    assert (tmp_path / "big.py").read_text() == body
