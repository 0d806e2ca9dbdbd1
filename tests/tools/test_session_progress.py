"""Progress of long calls: a streamed edit, patch or undo of a file over the size cap tells how
far its passes have gone, in bytes that only grow (over MCP: tests/mcp_server/test_mcp_progress.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import edittools.change._call as call_module
from edittools import Session

CAP = 1 << 20
CHUNK = 64 * 1024
DATA = b"".join(b"row %07d value\n" % k for k in range(1, 200_001))  # 3.2 MB


@pytest.fixture
def every_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Report at every chunk, not four times a second, so a small file shows every report."""
    monkeypatch.setattr(call_module, "PROGRESS_EVERY", 0.0)


def test_a_streamed_edit_reports_bytes_that_only_grow(root: Path, every_chunk: None) -> None:
    (root / "big.txt").write_bytes(DATA)
    told: list[tuple[int, int, str]] = []
    with Session(root, max_file_bytes=CAP, scan_chunk_bytes=CHUNK) as s:
        s.read("big.txt")
        reporting = s.caller(
            progress=lambda done, total, message: told.append((done, total, message))
        )
        result = reporting.edit("big.txt", "row 0150000 value", "row 0150000 VALUE")
        assert not result.is_error, result.value
        quiet = s.edit("big.txt", "row 0000002 value", "row 0000002 VALUE")  # another caller
        assert not quiet.is_error
    assert len(told) >= len(DATA) // CHUNK  # a report before each chunk of the scan
    dones = [done for done, _, _ in told]
    assert dones == sorted(dones) and len(set(dones)) == len(dones)
    assert all(done <= total for done, total, _ in told)
    assert told[-1][1] == len(DATA)  # one pass: the scan finds, hashes and writes as it reads
    assert told[-1][0] >= len(DATA) - CHUNK
    assert all(message.startswith("big.txt: ") for _, _, message in told)
    assert len([m for _, _, m in told if m.endswith(f"of {len(DATA):,} bytes")]) == len(told)


def test_an_edit_of_a_small_file_reports_nothing(root: Path, every_chunk: None) -> None:
    (root / "small.txt").write_text("one\n")
    told: list[object] = []
    with Session(root) as s:
        s.read("small.txt")
        assert (
            not s.caller(progress=lambda *args: told.append(args))
            .edit("small.txt", "one", "two")
            .is_error
        )
    assert told == []


def test_a_cancelled_call_still_stops_at_a_checkpoint(root: Path) -> None:
    import threading

    (root / "big.txt").write_bytes(DATA)
    cancel = threading.Event()
    cancel.set()
    with Session(root, max_file_bytes=CAP, scan_chunk_bytes=CHUNK) as s:
        s.read("big.txt")
        result = s.caller(cancel=cancel, progress=lambda *args: None).edit(
            "big.txt", "row 0150000 value", "x"
        )
    assert result.is_error and "cancelled" in result.value
    assert (root / "big.txt").read_bytes() == DATA
