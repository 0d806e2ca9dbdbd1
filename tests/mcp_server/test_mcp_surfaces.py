"""The tool surfaces, called in process on real directories (the fast half)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import edittools.mcp_server as mcp_server
from edittools._session import Session
from edittools.artifacts import ToolResult
from edittools.artifacts._schema import export_schema
from edittools.artifacts.access import MCP_RESULT_META
from edittools.dialects import mcp_to_result, result_to_call_tool_result
from edittools.mcp_server import SURFACES, serve, serve_parser, surface_tools


def tool(surface: str, name: str) -> mcp_server.SurfaceTool:
    return next(t for t in surface_tools(surface) if t.name == name)


def code_of(result: ToolResult) -> str | None:
    data = result.model_dump(mode="json", by_alias=True)
    artifact = data["artifact"] or {}
    return artifact.get("payload", {}).get("code") if artifact.get("kind") == "error" else None


def conforms(result: ToolResult) -> dict[str, Any]:
    """The result object an MCP answer of `result` carries in `_meta`, checked against the
    artifact protocol's schema."""
    answer = result_to_call_tool_result(result)
    assert answer.structured_content is None and answer.meta is not None
    data = answer.meta[MCP_RESULT_META]
    jsonschema.validate(data["artifact"], export_schema())
    return data


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "notes.txt").write_text("one\ntwo\nthree\n")
    return tmp_path


@pytest.fixture
def session_options() -> dict[str, Any]:
    return {"deny": ["secret"]}


def test_surfaces_show_the_names_agents_are_trained_on() -> None:
    names = {d: [t.name for t in surface_tools(d)] for d in SURFACES}
    assert names == {
        "edittools": ["read", "write", "edit", "multi_edit", "apply_patch", "undo"],
        "claude-code": ["Read", "Write", "Edit", "NotebookEdit"],
        "anthropic": ["str_replace_based_edit_tool"],
        "mcp-filesystem": ["read_text_file", "write_file", "edit_file"],
        "codex": ["apply_patch"],
    }
    readers = {(d, t.name) for d in SURFACES for t in surface_tools(d) if t.read_only}
    assert readers == {
        ("edittools", "read"),
        ("claude-code", "Read"),
        ("mcp-filesystem", "read_text_file"),
    }
    for d in SURFACES:
        for t in surface_tools(d):
            assert t.title and t.description
            assert t.input_schema["type"] == "object"
            assert t.input_schema["additionalProperties"] is False
            assert t.read_only or t.destructive  # every changing tool here may overwrite text


def test_unknown_surface_or_transport_is_refused_before_serving(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown surface 'vim'"):
        surface_tools("vim")
    with pytest.raises(ValueError, match="unknown surface"):
        serve(str(tmp_path), surface="vim")
    with pytest.raises(ValueError, match="unknown transport 'carrier-pigeon'"):
        serve(str(tmp_path), transport="carrier-pigeon")


def test_serve_arguments_take_surface_or_its_older_spelling_dialect() -> None:
    parser = serve_parser("serve")
    assert parser.parse_args(["--root", "."]).surface == "edittools"
    assert parser.parse_args(["--root", ".", "--surface", "codex"]).surface == "codex"
    args = parser.parse_args(
        ["--root", "r", "--dialect", "anthropic", "--deny", "a", "--deny", "b"]
    )
    assert (args.root, args.surface, args.deny) == ("r", "anthropic", ["a", "b"])
    with pytest.raises(SystemExit):
        parser.parse_args(["--root", ".", "--surface", "vim"])


def test_every_kind_of_answer_carries_a_valid_result_that_adapts_back(session: Session) -> None:
    results = [
        session.read("notes.txt"),
        session.edit("notes.txt", "two", "2"),
        session.edit("notes.txt", "absent", "x"),
        session.apply_patch(
            "*** Begin Patch\n*** Add File: a.txt\n+a\n*** Add File: b.txt\n+b\n*** End Patch\n"
        ),
        tool("anthropic", "str_replace_based_edit_tool").call(
            session, {"command": "view", "path": "."}
        ),
    ]
    kinds = [conforms(r)["artifact"]["kind"] for r in results]
    assert kinds == ["code", "diff", "error", "changeset", "table"]
    for result in results:
        back = mcp_to_result(result_to_call_tool_result(result))
        assert back.value == result.value and back.is_error == result.is_error
        assert back.artifact is not None and result.artifact is not None
        assert back.artifact.kind == result.artifact.kind
    # A read's window is the text block's alone; its artifact says where it is.
    read = mcp_to_result(result_to_call_tool_result(results[0]))
    assert read.artifact is not None and read.artifact.payload.text == ""  # type: ignore[union-attr]
    assert read.artifact.payload.text_ref is not None  # type: ignore[union-attr]


def test_claude_code_arguments_are_checked_with_a_clear_error(session: Session) -> None:
    result = tool("claude-code", "Read").call(session, {"file_path": "notes.txt", "offset": "x"})
    assert result.is_error and code_of(result) == "invalid_arguments"
    assert "offset" in result.value and "Fix them" in result.value
    result = tool("claude-code", "Edit").call(session, {"path": "notes.txt"})
    assert code_of(result) == "invalid_arguments"
    assert "file_path" in result.value


def test_filesystem_read_head_tail_and_not_both(session: Session) -> None:
    read = tool("mcp-filesystem", "read_text_file").call
    assert read(session, {"path": "notes.txt", "head": 1}).value.startswith("     1\tone\n")
    assert read(session, {"path": "notes.txt", "tail": 1}).value.startswith("     3\tthree")
    assert read(session, {"path": "notes.txt", "tail": 9}).value.startswith("     1\tone\n")
    both = read(session, {"path": "notes.txt", "head": 1, "tail": 1})
    assert code_of(both) == "invalid_arguments" and "not both" in both.value


def test_filesystem_dry_run_shows_the_diff_and_writes_nothing(session: Session) -> None:
    edit = tool("mcp-filesystem", "edit_file").call
    session.read("notes.txt")
    edits = [{"oldText": "one", "newText": "1"}, {"oldText": "three", "newText": "3"}]
    dry = edit(session, {"path": "notes.txt", "edits": edits, "dryRun": True})
    assert (session.sandbox.root / "notes.txt").read_text() == "one\ntwo\nthree\n"
    assert "nothing was written" in dry.value and "```diff\n" in dry.value
    assert "-one\n+1\n two\n-three\n+3\n" in dry.value
    real = edit(session, {"path": "notes.txt", "edits": edits})
    assert (session.sandbox.root / "notes.txt").read_text() == "1\ntwo\n3\n"
    assert real.value.startswith("Edited notes.txt (+2 -2).\n\n```diff\n")
    assert real.value.split("\n", 1)[1] == dry.value.split("\n", 1)[1]  # the same diff
    failed = edit(session, {"path": "notes.txt", "edits": [{"oldText": "zzz", "newText": "y"}]})
    assert failed.is_error and code_of(failed) == "no_match"


def test_text_editor_view_replace_undo_and_missing_arguments(session: Session) -> None:
    call = tool("anthropic", "str_replace_based_edit_tool").call
    view = call(session, {"command": "view", "path": "notes.txt", "view_range": [2, 2]})
    assert view.value.startswith("     2\ttwo\n")
    assert "     3" not in view.value.split("\n\n")[0]
    bad_range = call(session, {"command": "view", "path": "notes.txt", "view_range": [3, 2]})
    assert code_of(bad_range) == "invalid_arguments"
    missing = call(session, {"command": "str_replace", "path": "notes.txt"})
    assert code_of(missing) == "invalid_arguments" and "old_str" in missing.value
    deleted = call(session, {"command": "str_replace", "path": "notes.txt", "old_str": "two\n"})
    assert not deleted.is_error, deleted.value
    assert (session.sandbox.root / "notes.txt").read_text() == "one\nthree\n"
    undone = call(session, {"command": "undo_edit", "path": "notes.txt"})
    assert not undone.is_error, undone.value
    assert (session.sandbox.root / "notes.txt").read_text() == "one\ntwo\nthree\n"
    created = call(session, {"command": "create", "path": "new/file.txt", "file_text": "hi\n"})
    assert not created.is_error, created.value
    assert (session.sandbox.root / "new/file.txt").read_text() == "hi\n"


def test_text_editor_lists_two_levels_leaving_out_hidden_denied_and_state(
    session: Session, tmp_path: Path
) -> None:
    root = session.sandbox.root
    for rel in ["src/pkg/deep/x.py", "src/a.py", "src/.hidden", "secret/key", ".env"]:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x")
    outside = tmp_path.parent / (tmp_path.name + "-outside")
    outside.mkdir()
    (outside / "loot.txt").write_text("x")
    os.symlink(outside, root / "src" / "link")
    call = tool("anthropic", "str_replace_based_edit_tool").call
    listing = call(session, {"command": "view", "path": "."})
    assert not listing.is_error, listing.value
    assert listing.value.splitlines()[1:] == [
        "notes.txt",
        "src/",
        "src/a.py",
        "src/link",
        "src/pkg/",
    ]
    assert "loot" not in listing.value
    rows = conforms(listing)["artifact"]["payload"]["rows"]
    assert rows[3][:2] == ["src/link", "link"]  # listed, not followed
    sub = call(session, {"command": "view", "path": str(root / "src")})
    assert sub.value.splitlines()[1:] == ["src/a.py", "src/link", "src/pkg/", "src/pkg/deep/"]
    assert code_of(call(session, {"command": "view", "path": "secret"})) == "denied"
    assert code_of(call(session, {"command": "view", "path": "src/link"})) == "outside_root"
    assert code_of(call(session, {"command": "view", "path": "../"})) == "outside_root"


def test_insert_accepts_new_str_as_the_text(session: Session) -> None:
    call = tool("anthropic", "str_replace_based_edit_tool").call
    session.read("notes.txt")
    result = call(
        session, {"command": "insert", "path": "notes.txt", "insert_line": 0, "new_str": "zero"}
    )
    assert not result.is_error, result.value
    assert result.value.startswith("Inserted text after line 0 of notes.txt (+1 -0).\n")
    assert (session.sandbox.root / "notes.txt").read_text() == "zero\none\ntwo\nthree\n"


NOTEBOOK = {
    "cells": [
        {"cell_type": "code", "execution_count": 1, "id": "first-01", "metadata": {},
         "outputs": [{"name": "stdout", "output_type": "stream", "text": ["1\n"]}],
         "source": ["print(1)"]},
    ],
    "metadata": {},
    "nbformat": 4,
    "nbformat_minor": 5,
}  # fmt: skip


def test_claude_code_notebook_edit_replaces_inserts_and_deletes_cells(
    root: Path, session: Session
) -> None:
    path = root / "n.ipynb"
    path.write_text(json.dumps(NOTEBOOK, sort_keys=True, indent=1) + "\n")
    edit = tool("claude-code", "NotebookEdit")
    session.read("n.ipynb")
    replaced = edit.call(
        session, {"notebook_path": str(path), "cell_id": "first-01", "new_source": "print(2)"}
    )
    assert not replaced.is_error, replaced.value
    assert conforms(replaced)["artifact"]["kind"] == "diff"
    inserted = edit.call(session, {"notebook_path": "n.ipynb", "cell_id": "first-01",
                                   "new_source": "# End", "cell_type": "markdown",
                                   "edit_mode": "insert"})  # fmt: skip
    assert not inserted.is_error, inserted.value
    cells = json.loads(path.read_text())["cells"]
    assert [c["source"] for c in cells] == [["print(2)"], ["# End"]]
    assert cells[0]["outputs"] == NOTEBOOK["cells"][0]["outputs"]  # kept, as the count is
    assert cells[0]["execution_count"] == NOTEBOOK["cells"][0]["execution_count"]
    deleted = edit.call(
        session,
        {"notebook_path": "n.ipynb", "cell_id": "0", "new_source": "", "edit_mode": "delete"},
    )
    assert not deleted.is_error, deleted.value
    assert [c["cell_type"] for c in json.loads(path.read_text())["cells"]] == ["markdown"]
    missing = edit.call(session, {"notebook_path": "n.ipynb", "cell_id": "x", "new_source": ""})
    assert code_of(missing) == "no_match"
    wrong = edit.call(session, {"notebook_path": "n.ipynb", "edit_mode": "move", "new_source": ""})
    assert code_of(wrong) == "invalid_arguments" and "edit_mode" in wrong.value
