"""Regression tests for reported sandbox bugs, each named after what broke."""

from __future__ import annotations

from pathlib import Path

import pytest

from sandbox import Sandbox, SandboxError


def test_read_of_a_missing_file_is_not_found_not_an_assertion(tmp_path: Path) -> None:
    with Sandbox(tmp_path) as sb, pytest.raises(SandboxError) as info:
        sb.read_bytes("missing.txt")
    assert info.value.code == "not_found"
    assert "missing.txt" in info.value.message


def test_directory_only_deny_pattern_denies_the_folder_itself(tmp_path: Path) -> None:
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "x").write_text("x")
    with Sandbox(tmp_path, deny=["secret/"]) as sb:
        assert sb.is_denied("secret/")
        for path in ("secret", "secret/x", "./secret"):
            with pytest.raises(SandboxError) as info:
                sb.read_bytes(path)
            assert info.value.code == "denied", path
