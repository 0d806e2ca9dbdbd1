"""The syntax check through the session: warn, refuse (nothing written), off; every change tool;
undo; already broken files; Latin-1 and CRLF files; dry runs; the size cap."""

from __future__ import annotations

from pathlib import Path

import pytest

from edittools import Session, ToolResult
from edittools.artifacts import ChangesetPayload, DiffPayload, ErrorPayload

GOOD = "def area(w, h):\n    return w * h\n\n\ndef name():\n    return 'x'\n"


def session_for(root: Path, policy: str = "warn", **options: object) -> Session:
    return Session(root, require_read=False, syntax_check=policy, **options)


def payload_of(result: ToolResult) -> DiffPayload:
    assert not result.is_error, result.value
    assert result.artifact is not None
    payload = result.artifact.payload
    assert isinstance(payload, DiffPayload)
    return payload


def error_of(result: ToolResult) -> ErrorPayload:
    assert result.is_error
    assert result.artifact is not None
    payload = result.artifact.payload
    assert isinstance(payload, ErrorPayload)
    return payload


def test_warn_keeps_the_change_and_says_where_it_broke(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(GOOD)
    with session_for(tmp_path) as s:
        result = s.edit("a.py", "def name():", "def name()")
    assert (tmp_path / "a.py").read_text() == GOOD.replace("def name():", "def name()")
    payload = payload_of(result)
    (diagnostic,) = payload.diagnostics
    assert (diagnostic.line, diagnostic.source, diagnostic.severity) == (5, "syntax", "error")
    assert "no longer parses as Python" in result.value
    assert "line 5, column 11" in result.value and "The change was kept" in result.value
    assert "> 5 | def name()" in result.value


def test_a_harmless_change_carries_no_warning(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(GOOD)
    with session_for(tmp_path, "refuse") as s:
        result = s.edit("a.py", "w * h", "h * w")
    assert payload_of(result).diagnostics == []
    assert "parses" not in result.value


@pytest.mark.parametrize("tool", ["write", "edit", "multi_edit", "apply_patch"])
def test_refuse_writes_nothing(tmp_path: Path, tool: str) -> None:
    path = tmp_path / "a.py"
    path.write_bytes(GOOD.encode())
    broken = GOOD.replace("return w * h", "return (w * h")
    with session_for(tmp_path, "refuse") as s:
        if tool == "write":
            result = s.write("a.py", broken)
        elif tool == "edit":
            result = s.edit("a.py", "return w * h", "return (w * h")
        elif tool == "multi_edit":
            result = s.multi_edit(
                "a.py",
                [
                    {"old_string": "'x'", "new_string": "'y'"},
                    {"old_string": "return w * h", "new_string": "return (w * h"},
                ],
            )
        else:
            result = s.apply_patch(
                "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def area(w, h):\n"
                "-    return w * h\n+    return (w * h\n"
            )
        error = error_of(result)
    assert path.read_bytes() == GOOD.encode()
    assert error.code == "syntax_error"
    assert "was not written" in error.message and "no longer parses" in error.message
    assert error.detail["path"] == "a.py" and error.detail["language"] == "python"
    assert error.detail["diagnostics"][0]["source"] == "syntax"


def test_refuse_on_a_new_file_creates_nothing(tmp_path: Path) -> None:
    with session_for(tmp_path, "refuse") as s:
        assert error_of(s.write("new.json", '{"a": [1}\n')).code == "syntax_error"
    assert not (tmp_path / "new.json").exists()


def test_refuse_of_one_file_in_a_patch_writes_none(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(GOOD)
    (tmp_path / "b.json").write_text('{"a": 1}\n')
    patch = (
        "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def area(w, h):\n-    return w * h\n"
        "+    return h * w\n"
        '--- a/b.json\n+++ b/b.json\n@@ -1 +1 @@\n-{"a": 1}\n+{"a": 1\n'
    )
    with session_for(tmp_path, "refuse") as s:
        error = error_of(s.apply_patch(patch))
    assert error.code == "syntax_error" and "b.json" in error.message
    assert (tmp_path / "a.py").read_text() == GOOD
    assert (tmp_path / "b.json").read_text() == '{"a": 1}\n'


def test_a_patch_under_warn_puts_each_files_diagnostics_on_its_payload(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(GOOD)
    (tmp_path / "b.json").write_text('{"a": 1}\n')
    patch = (
        "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def area(w, h):\n-    return w * h\n"
        "+    return h * w\n"
        '--- a/b.json\n+++ b/b.json\n@@ -1 +1 @@\n-{"a": 1}\n+{"a": 1\n'
    )
    with session_for(tmp_path) as s:
        result = s.apply_patch(patch)
    assert not result.is_error and result.artifact is not None
    changeset = result.artifact.payload
    assert isinstance(changeset, ChangesetPayload)
    assert [len(p.diagnostics) for p in changeset.files] == [0, 1]
    assert "b.json no longer parses as JSON" in result.value
    assert (tmp_path / "b.json").read_text() == '{"a": 1\n'


def test_off_does_not_check(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(GOOD)
    with session_for(tmp_path, "off") as s:
        result = s.edit("a.py", "def name():", "def name()")
    assert payload_of(result).diagnostics == [] and "parses" not in result.value


def test_undo_is_never_refused_but_warns(tmp_path: Path) -> None:
    """Undo puts back what the file held: under `refuse` it still runs, with a warning."""
    broken = GOOD.replace("def name():", "def name()")
    (tmp_path / "a.py").write_text(broken)
    with session_for(tmp_path, "refuse") as s:
        assert not s.edit("a.py", "def name()", "def name():").is_error
        result = s.undo("a.py")
    assert (tmp_path / "a.py").read_text() == broken
    assert len(payload_of(result).diagnostics) == 1 and "no longer parses" in result.value


def test_an_already_broken_file_gives_no_alarm(tmp_path: Path) -> None:
    broken = "def first(:\n    pass\n\n\n" + GOOD
    (tmp_path / "a.py").write_text(broken)
    with session_for(tmp_path, "refuse") as s:
        result = s.edit("a.py", "'x'", "'y'")
    assert payload_of(result).diagnostics == []


def test_latin1_file(tmp_path: Path) -> None:
    text = "# café\ndef f():\n    return 'é'\n"
    path = tmp_path / "a.py"
    path.write_bytes(text.encode("latin-1"))
    with session_for(tmp_path, "refuse") as s:
        assert payload_of(s.edit("a.py", "return 'é'", "return 'è'")).diagnostics == []
        changed = path.read_bytes()
        assert changed == text.replace("'é'", "'è'").encode("latin-1")
        error = error_of(s.edit("a.py", "return 'è'", "return 'è"))
    assert error.code == "syntax_error"
    assert path.read_bytes() == changed
    assert error.detail["diagnostics"][0]["line"] == 3


def test_crlf_file(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_bytes(GOOD.replace("\n", "\r\n").encode())
    with session_for(tmp_path) as s:
        assert payload_of(s.edit("a.py", "'x'", "'y'")).diagnostics == []
        result = s.edit("a.py", "def name():", "def name()")
    assert payload_of(result).diagnostics[0].line == 5
    assert b"def name()\r\n" in path.read_bytes()


def test_a_dry_run_under_refuse_reports_the_error(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(GOOD)
    with session_for(tmp_path, "refuse") as s:
        result = s.call(
            "edit",
            {"path": "a.py", "old_string": "def name():", "new_string": "def name()"},
            dry_run=True,
        )
    assert error_of(result).code == "syntax_error"
    assert (tmp_path / "a.py").read_text() == GOOD


def test_a_file_over_the_cap_gets_a_note_not_a_check(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(GOOD)
    with session_for(tmp_path, "refuse", syntax_max_bytes=10) as s:
        result = s.edit("a.py", "def name():", "def name()")
    (note,) = payload_of(result).diagnostics
    assert note.severity == "info" and "not checked" in note.message
    assert "parses" not in result.value
