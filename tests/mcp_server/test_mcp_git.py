"""The MCP server refuses writes under `.git` unless started with `--allow-git-writes`."""

from __future__ import annotations

from pathlib import Path

import anyio
import mcp_types as types
import pytest
from mcp_harness import connected, text_of

pytestmark = pytest.mark.integration


@pytest.mark.parametrize(
    ("flags", "refused"), [((), True), (("--allow-git-writes",), False)], ids=["default", "lifted"]
)
def test_serve_protects_git_unless_the_flag_lifts_it(
    tmp_path: Path, flags: tuple[str, ...], refused: bool
) -> None:
    (tmp_path / ".git/hooks").mkdir(parents=True)

    async def scenario() -> types.CallToolResult:
        async with connected(tmp_path, options=flags) as client:
            arguments = {"path": ".git/hooks/pre-commit", "content": "#!/bin/sh\n"}
            return await client.call_tool("write", arguments)

    result = anyio.run(scenario)
    assert result.is_error is refused
    if refused:
        assert text_of(result).startswith("Error (protected): ")
        assert "--allow-git-writes" in text_of(result)
    assert (tmp_path / ".git/hooks/pre-commit").exists() is not refused
