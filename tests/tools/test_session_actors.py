"""Who made a change: every call carries an actor, kept with its changes and journal entries."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from edittools import Session


def _two_agents(root: Path) -> None:
    (root / "a.txt").write_text("a\n")
    (root / "b.txt").write_text("b\n")
    with Session(root, agent="writer", require_read=False) as s:
        assert not s.edit("a.txt", "a", "A").is_error
        assert not s.call("edit", {"path": "b.txt", "old_string": "b", "new_string": "B"},
                          agent="reviewer").is_error  # fmt: skip


def test_the_journal_keeps_each_call_s_actor(tmp_path: Path) -> None:
    _two_agents(tmp_path)
    with Session(tmp_path) as s:
        mine = [e.artifact.payload.path for e in s.journal(agent="reviewer")]  # type: ignore[union-attr]
        assert mine == ["b.txt"]
        assert len(s.journal(agent="writer")) == 1 and len(s.journal()) == 2


def test_changes_by_an_agent_lists_the_files_it_changed(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a\n")
    (tmp_path / "b.txt").write_text("b\n")
    with Session(tmp_path, require_read=False) as s:
        assert not s.call("edit", {"path": "a.txt", "old_string": "a", "new_string": "A"},
                          agent="writer").is_error  # fmt: skip
        assert not s.call("edit", {"path": "b.txt", "old_string": "b", "new_string": "B"},
                          agent="reviewer").is_error  # fmt: skip
        result = s.changes(by="reviewer")
        assert not result.is_error, result.value
        assert [f.path for f in result.artifact.payload.files] == ["b.txt"]  # type: ignore[union-attr]
        assert "Net changes by agent `reviewer`" in result.value
        assert s.changes(by="nobody").value.startswith("No changes by agent `nobody`")
        assert len(s.changes().artifact.payload.files) == 2  # type: ignore[union-attr]


def test_log_shows_one_agent_s_calls(tmp_path: Path) -> None:
    _two_agents(tmp_path)
    out = subprocess.run(
        [sys.executable, "-m", "edittools", "log", "--root", str(tmp_path), "--agent", "writer"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "a.txt" in out and "b.txt" not in out


def test_the_command_line_names_its_agent(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a\nb\nc\n")
    with Session(tmp_path) as s:
        assert not s.read("a.txt").is_error
        subprocess.run(
            [sys.executable, "-m", "edittools", "edit", "--root", str(tmp_path), "--agent",
             "shell", "a.txt", "a", "A"],
            check=True, capture_output=True,
        )  # fmt: skip
        result = s.edit("a.txt", "b\n", "B\n")
    assert result.is_error and "changed by agent `shell`" in result.value


def test_blame_names_who_last_changed_each_line(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("one\ntwo\nthree\nfour\n")
    with Session(tmp_path, agent="writer", require_read=False) as s:
        assert not s.edit("f.txt", "two\n", "TWO\n").is_error
        assert not s.call("edit", {"path": "f.txt", "old_string": "four\n", "new_string": "4\n5\n"},
                          agent="reviewer").is_error  # fmt: skip
        assert not s.edit("f.txt", "three\n", "3\n").is_error
        assert not s.undo("f.txt").is_error  # its lines are gone: "three" is as it was
    (tmp_path / "f.txt").write_text("zero\n" + (tmp_path / "f.txt").read_text())
    with Session(tmp_path) as s:
        lines = s.blame("f.txt")
    got = [(b.text, b.origin.kind, b.origin.actor) for b in lines]
    assert got == [
        ("zero", "outside", None),
        ("one", "never", None),
        ("TWO", "tools", "writer"),
        ("three", "never", None),
        ("4", "tools", "reviewer"),
        ("5", "tools", "reviewer"),
    ]
    assert all(b.number == k for k, b in enumerate(lines, start=1))


def test_blame_from_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("a\nb\n")
    with Session(tmp_path, agent="writer", require_read=False) as s:
        assert not s.edit("f.txt", "b\n", "B\n").is_error
    out = subprocess.run(
        [sys.executable, "-m", "edittools", "blame", "f.txt", "--root", str(tmp_path)],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    assert out[0].startswith("unchanged ") and out[0].endswith("1| a")
    assert out[1].startswith("writer #") and out[1].endswith("2| B")


def test_rewinding_one_agent_keeps_the_others_changes(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("".join(f"line {k}\n" for k in range(1, 11)))
    (tmp_path / "g.txt").write_text("g\n")
    with Session(tmp_path, require_read=False) as s:
        start = s.checkpoint("start")

        def edit(agent: str, path: str, old: str, new: str) -> None:
            arguments = {"path": path, "old_string": old, "new_string": new}
            assert not s.call("edit", arguments, agent=agent).is_error

        edit("writer", "f.txt", "line 2\n", "line two\n")
        edit("reviewer", "f.txt", "line 6\n", "line six\n")
        edit("writer", "f.txt", "line 9\n", "line nine\n")
        edit("writer", "g.txt", "g\n", "G\n")
        result = s.rewind(start, by="writer")
        assert not result.is_error, result.value
        assert "Took back agent `writer`'s changes since checkpoint" in result.value
        f = (tmp_path / "f.txt").read_text()
        assert "line two" not in f and "line nine" not in f and "line six" in f
        assert (tmp_path / "g.txt").read_text() == "g\n"
        # A later change by another agent right beside one of the writer's: refused, all or none.
        again = s.checkpoint("again")
        edit("writer", "f.txt", "line 3\n", "line three\n")
        edit("writer", "g.txt", "g\n", "G\n")
        edit("reviewer", "f.txt", "line 4\n", "line four\n")
        before = {p: (tmp_path / p).read_text() for p in ("f.txt", "g.txt")}
        refused = s.rewind(again, by="writer")
        assert refused.is_error and "meets a later change" in refused.value
        assert {p: (tmp_path / p).read_text() for p in ("f.txt", "g.txt")} == before


def test_a_rewind_says_whose_changes_it_takes_back_every_agent_s(tmp_path: Path) -> None:
    # Any agent may rewind another's changes: the result names them, so it is never unsaid.
    (tmp_path / "f.txt").write_text("f\nh\n")
    (tmp_path / "g.txt").write_text("g\nh\n")
    with Session(tmp_path, require_read=False) as s:
        start = s.checkpoint("start")
        for agent, path, old in (
            ("writer", "f.txt", "f"),
            ("reviewer", "g.txt", "g"),
            (None, "f.txt", "h"),  # the session rewinding, last on each file
            (None, "g.txt", "h"),
        ):
            arguments = {"path": path, "old_string": old, "new_string": old * 2}
            assert not s.call("edit", arguments, agent=agent).is_error
        result = s.rewind(start)
        assert not result.is_error, result.value
    assert result.value.startswith(
        f"Rewound 2 file(s) to checkpoint {start}, taking back changes by an unnamed session, "
        "agent `reviewer` and agent `writer`:"
    ), result.value


def test_a_checkpoint_keeps_who_took_it(tmp_path: Path) -> None:
    with Session(tmp_path, agent="writer") as s:
        taken = s.checkpoint("mine")
        listed = {c.id: c.actor for c in s.checkpoints()}
    assert listed[taken] == "writer"
    with Session(tmp_path, checkpoint_on_start=False) as s:
        assert s.checkpoints()[-1].actor == "writer"
        unnamed = s.checkpoint("theirs")
        assert {c.id: c.actor for c in s.checkpoints()}[unnamed] is None


def _three_edits(s: Session) -> int:
    """f.txt of 20 lines, then a checkpoint (its id is returned), then edits of lines 2 and 18 by
    agent `writer` and of line 10 by agent `reviewer`."""
    (s.sandbox.root / "f.txt").write_text("".join(f"line {k}\n" for k in range(1, 21)))
    start = s.checkpoint("start")
    for agent, old, new in [("writer", "line 2\n", "line two\n"),
                            ("reviewer", "line 10\n", "line ten\n"),
                            ("writer", "line 18\n", "line eighteen\n")]:  # fmt: skip
        arguments = {"path": "f.txt", "old_string": old, "new_string": new}
        assert not s.call("edit", arguments, agent=agent).is_error
    return start


def test_rejecting_a_hunk_of_one_agent_s_changes_keeps_the_others(tmp_path: Path) -> None:
    with Session(tmp_path, require_read=False) as s:
        start = _three_edits(s)
        result = s.reject("f.txt", 1, since=start, by="writer")  # the writer's second hunk
        assert not result.is_error, result.value
        assert result.value.startswith("Rejected hunk 1 of agent `writer`'s changes to f.txt")
    f = (tmp_path / "f.txt").read_text()
    assert "line two" in f and "line ten" in f and "line eighteen" not in f and "line 18\n" in f


def test_changes_by_an_agent_shows_its_own_hunks_the_ones_reject_counts(tmp_path: Path) -> None:
    with Session(tmp_path, require_read=False) as s:
        start = _three_edits(s)
        mine = s.changes(start, by="writer").artifact.payload.files[0]  # type: ignore[union-attr]
        assert (mine.stats.added, mine.stats.removed, len(mine.hunks)) == (2, 2, 2)
        assert "+line eighteen" in mine.hunks[1].lines
        theirs = s.changes(start, by="reviewer").artifact.payload.files[0]  # type: ignore[union-attr]
        assert [line for line in theirs.hunks[0].lines if line[:1] in "+-"] == [
            "-line 10",
            "+line ten",
        ]
        assert not s.reject("f.txt", 1, since=start, by="writer").is_error
    assert "line eighteen" not in (tmp_path / "f.txt").read_text()


def test_an_unknown_stale_rule_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown stale policy 'sometimes'"):
        Session(tmp_path, stale="sometimes")


def test_serve_takes_the_stale_rule() -> None:
    from edittools.mcp_server._command import options_of, serve_parser

    parser = serve_parser("edittools serve")
    assert options_of(parser.parse_args(["--root", "."])).stale == "region"
    assert options_of(parser.parse_args(["--root", ".", "--stale", "file"])).stale == "file"
    with pytest.raises(SystemExit):
        parser.parse_args(["--root", ".", "--stale", "sometimes"])


def test_two_callers_on_two_threads_each_record_their_own_actor(tmp_path: Path) -> None:
    """A call's context is a parameter: calls from two clients at once on one session never see
    each other's agent (each thread's caller edits its own files, interleaved)."""
    import threading

    names = [f"{who}{k}.txt" for who in ("w", "r") for k in range(20)]
    for name in names:
        (tmp_path / name).write_text("x\n")
    with Session(tmp_path, require_read=False) as s:
        start = threading.Barrier(2)
        failures: list[str] = []

        def work(agent: str, prefix: str) -> None:
            caller = s.caller(agent=agent)
            start.wait()
            for k in range(20):
                result = caller.edit(f"{prefix}{k}.txt", "x", agent)
                if result.is_error:
                    failures.append(result.value)

        threads = [
            threading.Thread(target=work, args=("writer", "w")),
            threading.Thread(target=work, args=("reviewer", "r")),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        for agent, prefix in (("writer", "w"), ("reviewer", "r")):
            paths = {e.artifact.payload.path for e in s.journal(agent=agent)}  # type: ignore[union-attr]
            assert paths == {f"{prefix}{k}.txt" for k in range(20)}
            assert {line.origin.actor for line in s.blame(f"{prefix}7.txt")} == {agent}
