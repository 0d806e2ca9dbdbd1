"""The insert tool through the session: placement, newline style, the change promises, errors."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edittools import Session, ToolResult


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "notes.txt").write_text("one\ntwo\nthree\n")
    return tmp_path


def code_of(result: ToolResult) -> str | None:
    artifact = result.artifact
    return artifact.payload.code if artifact is not None and artifact.kind == "error" else None  # type: ignore[union-attr]


def test_insert_errors_name_what_to_do_and_leave_the_file(session: Session) -> None:
    refused = session.insert("notes.txt", 1, "x")
    assert code_of(refused) == "not_read"  # insert is a change: the file must be read first
    session.read("notes.txt")
    past = session.insert("notes.txt", 4, "x")
    assert code_of(past) == "invalid_arguments" and "between 0 and 3" in past.value
    assert code_of(session.insert("missing.txt", 0, "x")) == "not_found"
    assert not (session.sandbox.root / "missing.txt").exists()
    assert code_of(session.insert("../up.txt", 0, "x")) == "outside_root"
    assert code_of(session.call("insert", {"path": "notes.txt", "line": -1, "text": "x"})) == (
        "invalid_arguments"
    )
    assert (session.sandbox.root / "notes.txt").read_text() == "one\ntwo\nthree\n"


def test_insert_after_a_changed_read_is_stale_and_shows_the_change(session: Session) -> None:
    session.read("notes.txt")
    (session.sandbox.root / "notes.txt").write_text("one\nTWO\nthree\n")
    stale = session.insert("notes.txt", 1, "x")
    assert code_of(stale) == "stale_read" and "+TWO" in stale.value
    assert (session.sandbox.root / "notes.txt").read_text() == "one\nTWO\nthree\n"


def test_insert_returns_a_diff_is_undone_and_journaled(session: Session) -> None:
    session.read("notes.txt")
    result = session.insert("notes.txt", 2, "two and a half")
    assert not result.is_error, result.value
    assert result.value.splitlines()[0] == "Inserted text after line 2 of notes.txt (+1 -0)."
    assert result.artifact is not None and result.artifact.kind == "diff"
    payload = result.artifact.payload
    assert payload.unified.endswith(" two\n+two and a half\n three\n")  # type: ignore[union-attr]
    path = session.sandbox.root / "notes.txt"
    assert path.read_text() == "one\ntwo\ntwo and a half\nthree\n"
    assert [e.name for e in session.journal()][-1] == "insert"
    assert not session.undo("notes.txt").is_error
    assert path.read_text() == "one\ntwo\nthree\n"


def test_insert_keeps_encoding_bom_and_crlf(tmp_path: Path) -> None:
    path = tmp_path / "u.txt"
    path.write_bytes("\ufeffα\r\nβ\r\n".encode("utf-16-le"))
    with Session(tmp_path) as session:
        session.read("u.txt")
        result = session.insert("u.txt", 1, "γ\nδ")
        assert not result.is_error, result.value
    assert path.read_bytes() == "\ufeffα\r\nγ\r\nδ\r\nβ\r\n".encode("utf-16-le")


def test_insert_dry_run_writes_nothing(session: Session) -> None:
    session.read("notes.txt")
    result = session.call("insert", {"path": "notes.txt", "line": 0, "text": "zero"}, dry_run=True)
    assert not result.is_error and result.value.startswith("[dry run")
    assert (session.sandbox.root / "notes.txt").read_text() == "one\ntwo\nthree\n"


line_text = st.text(alphabet="ab \t€", min_size=1, max_size=6)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    """One session for every example of the property test, each example on a file of its own."""
    with Session(tmp_path_factory.mktemp("insert")) as s:
        yield s


@settings(max_examples=25, deadline=None)
@given(
    lines=st.lists(line_text, max_size=6),
    newline=st.sampled_from(["\n", "\r\n"]),
    final=st.booleans(),
    inserted=st.lists(line_text, min_size=1, max_size=3),
    inserted_final=st.booleans(),
    where=st.integers(min_value=0, max_value=6),
)
def test_insert_puts_lines_after_the_line_and_keeps_the_newline_style(
    shared: Session,
    lines: list[str],
    newline: str,
    final: bool,
    inserted: list[str],
    inserted_final: bool,
    where: int,
) -> None:
    where = min(where, len(lines))
    original = newline.join(lines) + (newline if final and lines else "")
    text = "\n".join(inserted) + ("\n" if inserted_final else "")
    # The text's own final newline decides only when it ends the file.
    at_end = not lines or (where == len(lines) and not final)
    ends_with_newline = inserted_final if at_end else final
    expected_lines = lines[:where] + inserted + lines[where:]
    style = newline if len(lines) > 1 or (lines and final) else "\n"  # no newline: LF
    expected = style.join(expected_lines) + (style if ends_with_newline else "")
    name = f"f{next(_numbers)}.txt"
    path = shared.sandbox.root / name
    path.write_bytes(original.encode())
    shared.read(name)
    result = shared.insert(name, where, text)
    assert not result.is_error, result.value
    assert path.read_bytes() == expected.encode()
    stats = result.model_dump(mode="json")["artifact"]["payload"]["stats"]
    # A last line without a newline may gain one when text goes after it: one line changes.
    touched = 1 if lines and where == len(lines) and not final else 0
    assert stats["added"] - stats["removed"] == len(inserted)
    assert stats["removed"] <= touched


_numbers = itertools.count()


def test_an_insert_that_breaks_the_syntax_is_refused_or_warned_as_the_policy_says(
    tmp_path: Path,
) -> None:
    source = "def f():\n    return 1\n"
    (tmp_path / "m.py").write_text(source)
    with Session(tmp_path, syntax_check="refuse") as s:
        s.read("m.py")
        refused = s.insert("m.py", 1, "    x = (\n")
        assert refused.is_error and "syntax_error" in refused.value
        assert (tmp_path / "m.py").read_text() == source
    with Session(tmp_path) as s:  # the default policy: made, with a warning and its diagnostics
        s.read("m.py")
        warned = s.insert("m.py", 1, "    x = (\n")
        assert not warned.is_error and "no longer parses" in warned.value
        assert warned.artifact.payload.diagnostics  # type: ignore[union-attr]
