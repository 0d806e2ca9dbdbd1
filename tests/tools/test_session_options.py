"""Building a session: a root or a sandbox, options whole or as keywords."""

from __future__ import annotations

from pathlib import Path

import pytest

from edittools import Session, SessionOptions
from sandbox import Sandbox


def test_session_over_an_existing_sandbox_leaves_it_open(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_bytes(b"a\n")
    with Sandbox(tmp_path) as sb:
        with Session(sandbox=sb) as s:
            assert s.sandbox is sb
            assert not s.read("f.txt").is_error
        data, _ = sb.read_bytes("f.txt")  # still usable after the session closed
        assert data == b"a\n"


def test_root_and_sandbox_are_exclusive(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="either"):
        Session()
    with Sandbox(tmp_path) as sb, pytest.raises(ValueError, match="either"):
        Session(tmp_path, sandbox=sb)


def test_options_whole_or_as_keywords(tmp_path: Path) -> None:
    base = SessionOptions(require_read=False)
    with Session(tmp_path, options=base, tolerant=False) as s:
        assert (s.options.require_read, s.options.tolerant) == (False, False)
    with pytest.raises(TypeError):
        Session(tmp_path, no_such_option=True)


def test_deny_patterns_reach_the_sandbox(tmp_path: Path) -> None:
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "out.txt").write_bytes(b"x\n")
    with Session(tmp_path, deny=["build/"]) as s:
        assert s.read("build/out.txt").artifact.payload.code == "denied"  # type: ignore[union-attr]
