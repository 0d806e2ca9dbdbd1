"""Progress over MCP: a long call sends `notifications/progress` when the client sends a progress
token with it, and nothing when it does not."""

from __future__ import annotations

from pathlib import Path

import anyio
import mcp_types as types
from mcp_harness import connected, text_of

CAP = 1 << 20
DATA = b"".join(b"row %07d value\n" % k for k in range(1, 200_001))  # 3.2 MB


def test_mcp_progress_notifications_reach_a_client_that_asks(root: Path) -> None:
    (root / "big.txt").write_bytes(DATA * 8 + b"the end\n")  # 26 MB over a 1 MiB cap: streamed
    size = len(DATA) * 8 + 8

    async def scenario() -> tuple[types.CallToolResult, types.CallToolResult, list[tuple]]:
        told: list[tuple] = []

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            told.append((progress, total, message))

        async with connected(root, options=["--max-file-bytes", str(CAP)]) as client:
            await client.call_tool("read", {"path": "big.txt", "limit": 1})
            asked = await client.call_tool(
                "edit",
                {"path": "big.txt", "old_string": "the end", "new_string": "X"},
                progress_callback=on_progress,
            )
            unasked = await client.call_tool(
                "edit", {"path": "big.txt", "old_string": "X", "new_string": "Y"}
            )
        return asked, unasked, told

    asked, unasked, told = anyio.run(scenario)
    assert not asked.is_error and not unasked.is_error, text_of(asked)
    assert told, "no progress notification arrived"
    progress = [p for p, _, _ in told]
    assert progress == sorted(progress)
    assert all(total is not None and p <= total for p, total, _ in told)
    assert all(message and message.startswith("big.txt: ") for _, _, message in told)
    assert all(total <= 2 * size for _, total, _ in told if total is not None)
