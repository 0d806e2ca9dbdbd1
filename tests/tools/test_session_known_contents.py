"""What a session knows of recent large contents: line numbers from kept counts, plainness, the last write."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from edittools import Session, ToolResult
from edittools.change import _commit as executor_module
from edittools.state import _contents
from edittools.state._contents import KnownContents
from sandbox import Digester, digest_of


def _oracle(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def test_line_of_counts_through_checkpoints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_contents, "STEP", 16)
    rng = random.Random(3)
    data = bytes(rng.choice(b"ab\n") for _ in range(1000))
    counts = KnownContents()
    offsets = [rng.randrange(len(data) + 1) for _ in range(200)] + [0, len(data), 16, 17, 15]
    for offset in offsets:
        assert counts.line_of(digest_of(data), data, offset) == _oracle(data, offset), offset


def test_carry_keeps_only_the_checkpoints_of_the_unchanged_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_contents, "STEP", 16)
    old = b"x\n" * 400
    counts = KnownContents()
    assert counts.line_of(digest_of(old), old, len(old)) == 401  # every checkpoint counted
    new = old[:100] + b"\n\n\n\n" + old[100:]  # four more lines from offset 100 on
    counts.carry(digest_of(old), digest_of(new), 100)
    for offset in (0, 50, 99, 100, 101, 200, 500, len(new)):
        assert counts.line_of(digest_of(new), new, offset) == _oracle(new, offset), offset


def _lines(n: int) -> bytes:
    return "".join(f"line {i} = value({i})\n" for i in range(n)).encode()


# A session's steps: an edit (old_string, new_string) or an undo (None).
STEPS: list[tuple[str, str] | None] = [
    ("line 300 = value(300)", "line 300 = changed"),  # counts up to it
    ("line 100 = value(100)\n", "a\nb\nc\nline 100 = value(100)\n"),  # lines added before 300
    ("line 300 = changed", "line 300 = again"),  # below a checkpoint the last edit moved
    ("line 20 = value(20)\nline 21 = value(21)\n", ""),  # lines removed near the start
    ("line 390 = value(390)", "line 390 = late"),
    None,
    None,
    ("line 250 = value(250)", "line 250 = after undo"),
    None,
]


def _session_run(root: Path, *, bytes_path: bool, monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    monkeypatch.setattr(executor_module, "BYTES_PATH_MIN", 0 if bytes_path else 1 << 40)
    root.mkdir()
    (root / "f.txt").write_bytes(_lines(400))
    seen = []
    with Session(root, require_read=False, syntax_max_bytes=0) as session:
        for step in STEPS:
            result: ToolResult = (
                session.undo("f.txt") if step is None else session.edit("f.txt", *step)
            )
            assert not result.is_error, result.value
            assert result.artifact is not None
            payload = result.artifact.payload.model_dump()
            seen.append(
                {k: payload[k] for k in ("hunks", "unified", "stats")} | {"v": result.value}
            )
    return seen


def test_edits_and_undos_of_a_large_file_number_their_lines_like_the_text_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Checkpoints every 64 bytes: every step crosses several, before and after earlier changes.
    monkeypatch.setattr(_contents, "STEP", 64)
    fast = _session_run(tmp_path / "fast", bytes_path=True, monkeypatch=monkeypatch)
    slow = _session_run(tmp_path / "slow", bytes_path=False, monkeypatch=monkeypatch)
    assert (tmp_path / "fast" / "f.txt").read_bytes() == (tmp_path / "slow" / "f.txt").read_bytes()
    for number, (a, b) in enumerate(zip(fast, slow, strict=True)):
        assert a == b, (number, STEPS[number])


def test_carry_hands_on_only_the_digest_states_within_the_unchanged_start() -> None:
    old = b"abcdefgh" * 8
    states = []
    for at in (16, 32, 48):
        state = Digester()
        state.update(old[:at])
        states.append((at, state))
    known = KnownContents()
    known.note_states("old", states)
    known.carry("old", "new", 40)
    below = known.state_below("new", 60)
    assert below is not None and below[0] == 32
    assert known.state_below("new", 10) is None
    below = known.state_below("old", 60)
    assert below is not None and below[0] == 48
    below[1].update(b"x")  # a copy: the kept state is not changed
    again = known.state_below("old", 60)
    assert again is not None
    again[1].update(old[48:])
    assert again[1].hexdigest() == digest_of(old)


def test_a_read_again_of_an_unchanged_file_takes_its_line_count_from_the_session(
    tmp_path: Path,
) -> None:
    (tmp_path / "f.txt").write_bytes(b"one\r\ntwo\nthree\n")
    with Session(tmp_path) as s:
        first = s.read("f.txt")
        digest = digest_of((tmp_path / "f.txt").read_bytes())
        assert s.workspace.contents.newline_counts(digest) == (2, 1, 0)
        # A planted (wrong) count shows the read trusts what the session knows of this content...
        s.workspace.contents.note_newline_counts(digest, (6, 1, 0))
        assert "of 7" in s.read("f.txt", limit=1).value
        s.workspace.contents.note_newline_counts(digest, (2, 1, 0))
        assert s.read("f.txt") == first
        # ...and only of this content: a changed file is counted afresh.
        (tmp_path / "f.txt").write_bytes(b"one\r\ntwo\nthree\nfour\n")
        assert "of 4" in s.read("f.txt", limit=1).value
