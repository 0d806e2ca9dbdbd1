"""Every message speaks the surface in use: its parameter names, commands and hints."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from edittools import Session
from edittools.artifacts import DiffArtifact, ErrorArtifact, ToolResult
from edittools.mcp_server import SURFACES, surface_tools

LONG = "".join(f"line {n}\n" for n in range(1, 2501))


def call(session: Session, surface: str, name: str, arguments: dict[str, object]) -> ToolResult:
    tool = next(t for t in surface_tools(surface) if t.name == name)
    return tool.call(session, arguments)


def message(result: ToolResult) -> str:
    assert isinstance(result.artifact, ErrorArtifact), result.value
    assert result.artifact.payload.message in result.value
    return result.artifact.payload.message


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "long.txt").write_text(LONG)
    (tmp_path / "dup.txt").write_text("a a\na a\nb\n")
    return tmp_path


def test_text_editor_long_view_points_at_view_range(session: Session) -> None:
    view = call(
        session, "anthropic", "str_replace_based_edit_tool", {"command": "view", "path": "long.txt"}
    )
    assert view.value.endswith("Use view_range=[2001, -1] to see more.]")
    assert "offset" not in view.value.splitlines()[-1]
    assert "     1\tline 1" in view.value  # the file's lines are untouched


def test_every_surface_s_long_read_hint_names_its_own_parameters(session: Session) -> None:
    reads = {
        "edittools": ("read", {"path": "long.txt"}, "Use offset=2001 to read more."),
        "claude-code": ("Read", {"file_path": "long.txt"}, "Use offset=2001 to read more."),
        "mcp-filesystem": (
            "read_text_file",
            {"path": "long.txt"},
            "Use tail=500 to read the rest.",
        ),
    }
    for surface, (name, arguments, hint) in reads.items():
        assert call(session, surface, name, arguments).value.endswith(hint + "]"), surface


def test_ambiguous_match_words_per_surface_and_lists_each_line_once(session: Session) -> None:
    session.read("dup.txt")
    own = message(
        call(
            session, "edittools", "edit", {"path": "dup.txt", "old_string": "a", "new_string": "c"}
        )
    )
    assert "starting at lines 1, 2." in own and "replace_all" in own
    text_editor = message(
        call(
            session,
            "anthropic",
            "str_replace_based_edit_tool",
            {"command": "str_replace", "path": "dup.txt", "old_str": "a", "new_str": "c"},
        )
    )
    assert "old_str matches 4 places, starting at lines 1, 2." in text_editor
    assert "replace_all" not in text_editor and "old_string" not in text_editor
    fs = message(
        call(
            session,
            "mcp-filesystem",
            "edit_file",
            {"path": "dup.txt", "edits": [{"oldText": "a", "newText": "c"}]},
        )
    )
    assert "oldText matches 4 places" in fs and "replace_all" not in fs


def test_text_editor_refusals_say_view(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\n")
    with Session(tmp_path) as session:
        refused = message(
            call(
                session,
                "anthropic",
                "str_replace_based_edit_tool",
                {"command": "str_replace", "path": "a.txt", "old_str": "one", "new_str": "two"},
            )
        )
    assert "View it first" in refused and "viewed" in refused
    assert not re.search(r"\bread\b", refused, re.IGNORECASE)


def test_text_editor_create_refuses_an_existing_file_and_str_replace_does_not_create(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.txt").write_text("one\n")
    tool = "str_replace_based_edit_tool"
    with Session(tmp_path) as session:
        exists = call(
            session, "anthropic", tool, {"command": "create", "path": "a.txt", "file_text": "x"}
        )
        assert exists.artifact.payload.code == "exists"  # type: ignore[union-attr]
        empty = call(
            session,
            "anthropic",
            tool,
            {"command": "str_replace", "path": "new.txt", "old_str": "", "new_str": "x"},
        )
        assert empty.is_error and "create" in message(empty)
        created = call(
            session, "anthropic", tool, {"command": "create", "path": "new.txt", "file_text": "x\n"}
        )
        assert created.is_error is False
    assert (tmp_path / "a.txt").read_text() == "one\n"
    assert (tmp_path / "new.txt").read_text() == "x\n"


def test_text_editor_insert_answers_with_a_numbered_excerpt(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\nthree\n")
    with Session(tmp_path) as session:
        session.read("a.txt")
        result = call(
            session,
            "anthropic",
            "str_replace_based_edit_tool",
            {"command": "insert", "path": "a.txt", "insert_line": 1, "insert_text": "NEW"},
        )
    assert isinstance(result.artifact, DiffArtifact)
    assert "     2\tNEW" in result.value and "     1\tone" in result.value


def test_not_found_hint_names_the_surface_s_own_way_to_create(tmp_path: Path) -> None:
    hints = {
        "edittools": ("read", {"path": "no.txt"}, "with write."),
        "claude-code": ("Read", {"file_path": "no.txt"}, "with Write."),
        "mcp-filesystem": ("read_text_file", {"path": "no.txt"}, "with write_file."),
        "anthropic": (
            "str_replace_based_edit_tool",
            {"command": "view", "path": "no.txt"},
            "make it with the create command.",
        ),
    }
    assert set(hints) | {"codex"} == set(SURFACES)
    with Session(tmp_path) as session:
        for surface, (name, arguments, ending) in hints.items():
            assert message(call(session, surface, name, arguments)).endswith(ending), surface


def test_text_editor_lines_past_the_end_name_its_own_parameters(session: Session) -> None:
    tool = "str_replace_based_edit_tool"
    view = message(
        call(
            session,
            "anthropic",
            tool,
            {"command": "view", "path": "dup.txt", "view_range": [10, 12]},
        )
    )
    assert view.startswith("view_range [10, 12] starts past the end: dup.txt has 3 lines.")
    assert "offset" not in view
    session.read("dup.txt")
    insert = message(
        call(session, "anthropic", tool,
             {"command": "insert", "path": "dup.txt", "insert_line": 9, "insert_text": "x"})
    )  # fmt: skip
    assert insert.startswith("insert_line 9 is past the end: dup.txt has 3 lines.")
    assert "Give an insert_line between 0 and 3." in insert
