"""`edittools preview FILE|-`: results, stream events, journals, transcripts and Zeus results."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from cli_harness import ESC, run

from edittools import Session
from edittools.artifacts import DiffArtifact, StreamEvent, ToolResult
from edittools.artifacts.builders import text_result
from edittools.cli import main

CWD = "/home/ada/proj"
ORIGINAL = 'def greet(name):\n    return "Hello, " + name\n\n\nprint(greet("world"))\n'


def _record(kind: str, content, **extra) -> dict:
    """One Claude Code transcript line, with the bookkeeping fields real ones carry."""
    message = {"role": kind, "content": content}
    if kind == "assistant":
        message |= {"id": "msg_01", "type": "message", "model": "claude-sonnet-4-5"}
    return {
        "parentUuid": None,
        "isSidechain": False,
        "userType": "external",
        "cwd": CWD,
        "sessionId": "5f0c9d2e",
        "version": "1.0.98",
        "gitBranch": "main",
        "type": kind,
        "message": message,
        "uuid": "0b6e",
        "timestamp": "2025-08-01T10:00:00.000Z",
        **extra,
    }


def _transcript() -> str:
    edit = {"file_path": f"{CWD}/app.py", "old_string": '"Hello, " + name',
            "new_string": 'f"Hello, {name}!"'}  # fmt: skip
    snippet = {"file_path": f"{CWD}/lib.py", "old_string": "x = 1", "new_string": "x = 2"}
    lines = [
        _record("user", "make the greeting friendlier"),
        _record("assistant", [
            {"type": "text", "text": "I'll edit app.py."},
            {"type": "tool_use", "id": "toolu_01", "name": "Edit", "input": edit},
        ]),
        _record("user", [{"tool_use_id": "toolu_01", "type": "tool_result",
                          "content": f"The file {CWD}/app.py has been updated."}],
                toolUseResult={
                    "filePath": f"{CWD}/app.py", "oldString": edit["old_string"],
                    "newString": edit["new_string"], "originalFile": ORIGINAL,
                    "structuredPatch": [{"oldStart": 1, "oldLines": 5, "newStart": 1,
                                         "newLines": 5, "lines": [
                        " def greet(name):", '-    return "Hello, " + name',
                        '+    return f"Hello, {name}!"', " ", " ", ' print(greet("world"))']}],
                    "userModified": False, "replaceAll": False}),
        _record("assistant", [{"type": "tool_use", "id": "toolu_02", "name": "Edit",
                               "input": snippet}]),
        # An older runtime recorded no original file: only the call's strings are known.
        _record("user", [{"tool_use_id": "toolu_02", "type": "tool_result",
                          "content": f"The file {CWD}/lib.py has been updated."}],
                toolUseResult={"filePath": f"{CWD}/lib.py", "oldString": "x = 1",
                               "newString": "x = 2", "replaceAll": False}),
        _record("assistant", [{"type": "text", "text": "Done."}]),
    ]  # fmt: skip
    return "\n".join(json.dumps(line) for line in lines) + "\n"


ZEUS = [
    {"success": True, "message": "Edited src/app.py",
     "content": {"type": "edit", "data": "a = 1\nb = 3\n", "language": "python",
                 "title": "src/app.py", "meta": {"old_content": "a = 1\nb = 2\n"}},
     "file_path": "src/app.py", "files": []},
    {"success": False, "message": "File not found: x.py",
     "content": {"type": "error", "data": "File not found: x.py"}, "file_path": None,
     "files": []},
]  # fmt: skip


@pytest.fixture
def journal(tmp_path: Path) -> tuple[Path, list[StreamEvent]]:
    """A journal written by a real session: a read, an edit, a failed edit, a patch, an undo."""
    (tmp_path / "app.py").write_text("a = 1\nb = 2\n")
    with Session(tmp_path) as s:
        s.read("app.py")
        s.edit("app.py", "b = 2", "b = 3")
        s.edit("app.py", "no such line", "x")
        s.apply_patch("*** Begin Patch\n*** Add File: new.txt\n+hello\n*** End Patch\n")
        s.undo("app.py")
        events = s.journal()
    exported = tmp_path.parent / f"{tmp_path.name}-journal.jsonl"
    with exported.open("w") as out, contextlib.redirect_stdout(out):
        assert main(["log", "--jsonl", "--root", str(tmp_path)]) == 0
    return exported, events


def _preview(capsys, *args: str) -> tuple[int, str]:
    status = main(["preview", *args])
    return status, capsys.readouterr().out


def test_journal_preview_shows_each_call_with_counts(journal, capsys):
    path, events = journal
    status, out = _preview(capsys, str(path))
    assert status == 0
    for event in events:
        assert f"● {event.name}  {event.id}" in out
    assert "app.py  +1 -1" in out
    assert "new.txt  +1 -0  new file" in out
    assert "error no_match" in out
    assert "snippet" not in out  # a session has the whole file: file granularity, unlabelled


def test_journal_json_is_one_event_per_call_as_the_session_journals_it(journal, capsys):
    path, events = journal
    status, out = _preview(capsys, "--json", str(path))
    lines = out.splitlines()
    assert status == 0 and len(lines) == len(events) == 5
    parsed = [StreamEvent.model_validate_json(line) for line in lines]
    assert parsed == events


def test_preview_root_reads_the_journal_through_the_state_index(journal, capsys, tmp_path):
    _, events = journal
    status, out = _preview(capsys, "--json", "--root", str(tmp_path))
    assert status == 0
    assert [StreamEvent.model_validate_json(line) for line in out.splitlines()] == events


def test_preview_wants_a_file_or_a_root(capsys):
    assert main(["preview"]) == 2
    assert "give a file (or -) or --root DIR" in capsys.readouterr().err


def test_transcript_pairs_calls_with_results_relative_to_its_cwd(tmp_path, capsys):
    path = tmp_path / "session.jsonl"
    path.write_text(_transcript())
    status, out = _preview(capsys, str(path))
    assert status == 0
    assert "● Edit  toolu_01\napp.py  +1 -1\n" in out
    assert '+    return f"Hello, {name}!"' in out
    assert "● Edit  toolu_02\nlib.py  +1 -1  snippet\n" in out
    assert CWD not in out.replace(f"The file {CWD}", "")


def test_transcript_json_has_file_and_snippet_granularity(tmp_path, capsys):
    path = tmp_path / "session.jsonl"
    path.write_text(_transcript())
    _, out = _preview(capsys, "--json", str(path))
    events = [StreamEvent.model_validate_json(line) for line in out.splitlines()]
    assert [e.id for e in events] == ["toolu_01", "toolu_02"]
    payloads = [e.artifact.payload for e in events if isinstance(e.artifact, DiffArtifact)]
    assert [(p.path, p.granularity) for p in payloads] == [
        ("app.py", "file"),
        ("lib.py", "snippet"),
    ]
    assert payloads[0].old == ORIGINAL
    assert payloads[1].hunks[0].lines == ["-x = 1", "+x = 2"]


def test_zeus_results_preview_as_diff_and_error(tmp_path, capsys):
    path = tmp_path / "zeus.json"
    path.write_text(json.dumps(ZEUS))
    status, out = _preview(capsys, str(path))
    assert status == 0
    assert "src/app.py  +1 -1\n" in out and "-b = 2\n+b = 3\n" in out
    assert "File not found: x.py" in out
    _, out = _preview(capsys, "--json", str(path))
    results = [ToolResult.model_validate_json(line) for line in out.splitlines()]
    assert [r.is_error for r in results] == [False, True]
    assert results[0].artifact.kind == "diff" and results[1].artifact.kind == "error"


@pytest.mark.integration
def test_standard_input_and_plain_text(tmp_path):
    result = text_result("all done")
    proc = run("preview", "-", stdin=result.model_dump_json() + "\nnot json at all\n")
    assert proc.returncode == 0
    assert proc.stdout.splitlines() == ["all done", "not json at all"]


@pytest.mark.integration
def test_empty_input_says_so_on_standard_error():
    proc = run("preview", "-", stdin="")
    assert proc.returncode == 0 and proc.stdout == ""
    assert proc.stderr == "edittools: no tool results in -.\n"


@pytest.mark.integration
def test_missing_file_is_trouble():
    proc = run("preview", "no-such-file.jsonl")
    assert proc.returncode == 2 and "no-such-file.jsonl" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.integration
def test_piped_preview_has_no_escapes_even_from_hostile_text(journal):
    path, _ = journal
    hostile = text_result("red \x1b[31malert\x1b[0m and a bell \x07").model_dump_json()
    with path.open("a") as f:
        f.write(hostile + "\n")
    proc = run("preview", path)
    assert proc.returncode == 0 and "alert" in proc.stdout
    assert ESC not in proc.stdout and "\x07" not in proc.stdout


def test_session_export_is_previewed_and_unreadable_parts_are_warned_about(tmp_path, capsys):
    records = [json.loads(line) for line in _transcript().splitlines() if line.strip()]
    export = tmp_path / "session.json"
    export.write_text(json.dumps({"loglines": records}))
    assert main(["preview", "--json", str(export)]) == 0
    from_export = capsys.readouterr().out
    jsonl = tmp_path / "session.jsonl"
    jsonl.write_text(_transcript() + "\n{not json\n")
    assert main(["preview", "--json", str(jsonl)]) == 0
    captured = capsys.readouterr()
    assert captured.out == from_export and '"kind": "diff"' in from_export
    assert "warning: 1 part(s)" in captured.err and "not JSON" in captured.err


def test_input_with_no_tool_result_is_refused_and_a_plain_diff_is_shown(tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("hello world\nnot a diff\n")
    proc = run("preview", junk)
    assert proc.returncode == 2 and "hello world" not in proc.stdout
    assert proc.stderr.startswith(f"edittools: {junk}: it holds no tool results")
    patch = tmp_path / "change.diff"
    patch.write_text("--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n")
    proc = run("preview", patch)
    assert proc.returncode == 0, proc.stderr
    assert "x.py  +1 -1" in proc.stdout and "diff --git a/x.py b/x.py" in proc.stdout


@pytest.mark.integration
def test_a_preview_piped_to_a_reader_that_stops_early_ends_quietly_with_0(tmp_path: Path) -> None:
    # Found: `edittools preview FILE | head -2` exited 1 and said nothing (rich's console ends
    # the program with 1 at a closed pipe).
    import subprocess
    import sys

    from cli_harness import child_env

    results = [text_result(f"line {k}\n" * 20) for k in range(1_000)]  # more than a pipe holds
    long = tmp_path / "results.jsonl"
    long.write_text("".join(r.model_dump_json(by_alias=True) + "\n" for r in results))
    proc = subprocess.Popen(
        [sys.executable, "-m", "edittools.cli", "preview", str(long)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=child_env(),
    )
    assert proc.stdout is not None and proc.stderr is not None
    with proc.stderr:
        assert proc.stdout.read(100)
        proc.stdout.close()
        assert proc.wait(timeout=60) == 0
        assert proc.stderr.read() == b""
