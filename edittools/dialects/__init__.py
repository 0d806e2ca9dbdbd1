"""Other runtimes' result shapes, in and out: Claude Code, Anthropic's text editor tool, Zeus,
codeagent, MCP (and its filesystem server) and the Agent Client Protocol; and `adapt`, which upgrades any
of them (and legacy or plain-text results) to a v1 ToolResult.

Every conversion in degrades rather than fails: a record with missing fields, nulls, unknown
extras or wrong types becomes a correct artifact or a text fallback, never an exception.
"""

from edittools.dialects._acp import diff_to_acp, result_to_acp
from edittools.dialects._adapt import adapt
from edittools.dialects._claude_code import (
    claude_code_to_result,
    result_to_claude_code,
    transcript_events,
)
from edittools.dialects._codeagent import (
    CODEAGENT_SCHEMA_ID,
    codeagent_to_result,
    from_codeagent,
    result_to_codeagent,
    to_codeagent,
)
from edittools.dialects._mcp import (
    edit_file_to_result,
    mcp_to_result,
    result_to_call_tool_result,
    result_to_mcp,
)
from edittools.dialects._names import (
    CLAUDE_EDIT,
    CLAUDE_MULTI_EDIT,
    CLAUDE_NOTEBOOK_EDIT,
    CLAUDE_READ,
    CLAUDE_WRITE,
    CODEX_APPLY_PATCH,
    FS_EDIT_FILE,
    FS_READ_TEXT_FILE,
    FS_WRITE_FILE,
    TEXT_EDITOR,
)
from edittools.dialects._text_editor import (
    result_to_text_editor,
    text_editor_to_result,
)
from edittools.dialects._zeus import result_to_zeus, zeus_to_result

__all__ = [
    "CLAUDE_EDIT",
    "CLAUDE_MULTI_EDIT",
    "CLAUDE_NOTEBOOK_EDIT",
    "CLAUDE_READ",
    "CLAUDE_WRITE",
    "CODEAGENT_SCHEMA_ID",
    "CODEX_APPLY_PATCH",
    "FS_EDIT_FILE",
    "FS_READ_TEXT_FILE",
    "FS_WRITE_FILE",
    "TEXT_EDITOR",
    "adapt",
    "claude_code_to_result",
    "codeagent_to_result",
    "diff_to_acp",
    "edit_file_to_result",
    "from_codeagent",
    "mcp_to_result",
    "result_to_acp",
    "result_to_call_tool_result",
    "result_to_claude_code",
    "result_to_codeagent",
    "result_to_mcp",
    "result_to_text_editor",
    "result_to_zeus",
    "text_editor_to_result",
    "to_codeagent",
    "transcript_events",
    "zeus_to_result",
]
