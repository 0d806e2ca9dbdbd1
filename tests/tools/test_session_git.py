"""The tools refuse to write under `.git` unless the session allows it; reading there is fine."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from edittools import Session, SessionOptions, ToolResult
from edittools.cli import main
from sandbox import Sandbox

CONFIG = "[core]\n\trepositoryformatversion = 0\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A git repository."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".git/config").write_text(CONFIG)
    (tmp_path / "app.py").write_text("x = 1\n")
    os.symlink(".git/hooks", tmp_path / "hooks_link")
    return tmp_path


def _protected(result: object, *hints: str) -> None:
    assert isinstance(result, ToolResult) and result.is_error
    assert result.artifact is not None and result.artifact.kind == "error"
    assert result.artifact.payload.code == "protected"
    assert "allow_git_writes" in result.value
    for hint in hints:
        assert hint in result.value


def test_every_changing_tool_is_refused_under_git_and_the_repo_is_unchanged(
    session: Session, root: Path
) -> None:
    before = (root / ".git/config").read_bytes()
    assert not session.read(".git/config").is_error  # reading stays allowed
    _protected(session.write(".git/config", "[core]\n\tfsmonitor = ./evil\n"), ".git/config")
    _protected(session.edit(".git/config", "[core]", "[core]\n\tfsmonitor = ./evil"))
    _protected(session.write(".git/hooks/pre-commit", "#!/bin/sh\necho pwned\n"))
    _protected(session.write("hooks_link/post-checkout", "#!/bin/sh\n"), ".git/hooks/post-checkout")
    _protected(session.write("vendor/lib/.git/config", "[core]\n"))
    _protected(session.write(".GIT/hooks/pre-push", "#!/bin/sh\n"))
    patch = (
        "*** Begin Patch\n*** Update File: app.py\n@@\n-x = 1\n+x = 2\n"
        "*** Add File: .git/hooks/post-merge\n+#!/bin/sh\n*** End Patch\n"
    )
    _protected(session.apply_patch(patch))
    _protected(session.call("write", {"path": ".git/info/x", "content": "y"}, dry_run=True))
    assert (root / ".git/config").read_bytes() == before
    assert (root / "app.py").read_text() == "x = 1\n"  # all files or none
    assert not (root / ".git/hooks/pre-commit").exists()
    assert not (root / ".git/hooks/post-merge").exists()
    assert not (root / ".git/hooks/post-checkout").exists()
    assert not (root / "vendor").exists()


def test_the_option_lifts_the_rule(root: Path) -> None:
    with Session(root, allow_git_writes=True) as s:
        assert s.options.allow_git_writes
        assert not s.read(".git/config").is_error
        assert not s.edit(".git/config", "= 0", "= 0\n\tbare = false").is_error
    with Session(root, options=SessionOptions(allow_git_writes=True, require_read=False)) as s:
        assert not s.write(".git/description", "mine\n").is_error
    assert "bare = false" in (root / ".git/config").read_text()
    assert (root / ".git/description").read_text() == "mine\n"


def test_a_given_sandbox_decides_and_the_options_say_so(root: Path) -> None:
    with Sandbox(root) as sb, pytest.raises(ValueError, match="allow_git_writes"):
        Session(sandbox=sb, allow_git_writes=True)
    with Sandbox(root, allow_git_writes=True) as sb:
        s = Session(sandbox=sb, require_read=False)
        assert s.options.allow_git_writes
        assert not s.write(".git/description", "x\n").is_error


def test_the_command_line_refuses_unless_allow_git_writes(root: Path, capsys) -> None:
    status = main(["write", "--root", str(root), ".git/config", "[core]\n"])
    assert status == 1
    assert "Error (protected)" in capsys.readouterr().out
    assert (root / ".git/config").read_text() == CONFIG
    status = main(["write", "--root", str(root), ".git/config", "[core]\n", "--allow-git-writes"])
    assert status == 0
    assert (root / ".git/config").read_text() == "[core]\n"
