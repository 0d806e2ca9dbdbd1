"""Codex's apply_patch semantics: adding or moving onto an existing file replaces it."""

from __future__ import annotations

from pathlib import Path

import pytest

from edittools import Session
from edittools.artifacts import ChangesetArtifact, DiffArtifact, ErrorArtifact
from edittools.mcp_server import surface_tools

ADD = "*** Begin Patch\n*** Add File: a.txt\n+new one\n+new two\n*** End Patch\n"
MOVE = (
    "*** Begin Patch\n*** Update File: src.txt\n*** Move to: a.txt\n@@\n-source\n+moved\n"
    "*** End Patch\n"
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "a.txt").write_text("old one\nold two\n")
    (tmp_path / "src.txt").write_text("source\n")
    return tmp_path


def test_own_surface_refuses_to_add_over_an_existing_file(session: Session) -> None:
    for patch in (ADD, MOVE):
        result = session.apply_patch(patch)
        assert isinstance(result.artifact, ErrorArtifact)
        assert result.artifact.payload.code == "exists"
    root = session.sandbox.root
    assert (Path(root) / "a.txt").read_text() == "old one\nold two\n"
    assert (Path(root) / "src.txt").read_text() == "source\n"


def test_add_file_over_an_existing_file_replaces_it_with_a_diff_of_what_it_held(
    session: Session,
) -> None:
    result = session.apply_patch(ADD, overwrite=True)
    assert isinstance(result.artifact, DiffArtifact), result.value
    payload = result.artifact.payload
    assert payload.operation == "modify" and payload.path == "a.txt"
    assert "-old one\n-old two\n+new one\n+new two\n" in payload.unified
    assert (Path(session.sandbox.root) / "a.txt").read_text() == "new one\nnew two\n"
    assert session.undo("a.txt").is_error is False
    assert (Path(session.sandbox.root) / "a.txt").read_text() == "old one\nold two\n"


def test_move_onto_an_existing_file_replaces_it_and_removes_the_source(session: Session) -> None:
    result = session.apply_patch(MOVE, overwrite=True)
    assert isinstance(result.artifact, ChangesetArtifact), result.value
    into, removed = result.artifact.payload.files
    assert (into.path, into.operation) == ("a.txt", "modify")
    assert "-old one\n-old two\n+moved\n" in into.unified
    assert (removed.path, removed.operation) == ("src.txt", "delete")
    root = Path(session.sandbox.root)
    assert (root / "a.txt").read_text() == "moved\n" and not (root / "src.txt").exists()


def test_overwrite_is_still_all_or_nothing(session: Session) -> None:
    bad = ADD.replace(
        "*** End Patch\n", "*** Update File: src.txt\n@@\n-absent\n+x\n*** End Patch\n"
    )
    result = session.apply_patch(bad, overwrite=True)
    assert result.is_error
    assert (Path(session.sandbox.root) / "a.txt").read_text() == "old one\nold two\n"


def test_each_surface_says_whether_it_overwrites(session: Session) -> None:
    (codex,) = surface_tools("codex")
    assert "replaces it" in codex.description
    own = next(t for t in surface_tools("edittools") if t.name == "apply_patch")
    assert "is refused" in own.description
    result = codex.call(session, {"input": ADD})
    assert result.is_error is False, result.value
    assert (Path(session.sandbox.root) / "a.txt").read_text() == "new one\nnew two\n"


BROKEN_ADD = "*** Begin Patch\n*** Add File: a.py\n+def f(:\n+    return 1\n*** End Patch\n"
BROKEN_MOVE = (
    "*** Begin Patch\n*** Update File: src.py\n*** Move to: a.py\n@@\n-def g():\n+def g(:\n"
    "*** End Patch\n"
)


def _sources(root: Path) -> Path:
    root.mkdir()
    (root / "a.py").write_text("def f():\n    return 0\n")
    (root / "src.py").write_text("def g():\n    pass\n")
    return root


@pytest.mark.parametrize("patch", [BROKEN_ADD, BROKEN_MOVE], ids=["add", "move"])
def test_an_overwrite_that_breaks_the_syntax_is_warned_about(tmp_path: Path, patch: str) -> None:
    with Session(_sources(tmp_path / "r"), syntax_check="warn") as session:
        result = session.apply_patch(patch, overwrite=True)
    assert not result.is_error, result.value
    assert "syntax" in result.value.lower()
    artifact = result.artifact
    files = (
        artifact.payload.files if isinstance(artifact, ChangesetArtifact) else [artifact.payload]
    )
    into = next(f for f in files if f.path == "a.py")
    assert into.diagnostics and into.diagnostics[0].line == 1, into


@pytest.mark.parametrize("patch", [BROKEN_ADD, BROKEN_MOVE], ids=["add", "move"])
def test_an_overwrite_that_breaks_the_syntax_is_refused_under_refuse(
    tmp_path: Path, patch: str
) -> None:
    root = _sources(tmp_path / "r")
    with Session(root, syntax_check="refuse") as session:
        refused = session.apply_patch(patch, overwrite=True)
    assert isinstance(refused.artifact, ErrorArtifact)
    assert refused.artifact.payload.code == "syntax_error", refused.value
    assert (root / "a.py").read_text() == "def f():\n    return 0\n"
    assert (root / "src.py").read_text() == "def g():\n    pass\n"
