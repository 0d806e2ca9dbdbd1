"""Generated junk records thrown at every dialect's way in: no exception, always an artifact."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from edittools.artifacts import ArtifactBase, ToolResult
from edittools.dialects import (
    claude_code_to_result,
    codeagent_to_result,
    edit_file_to_result,
    mcp_to_result,
    text_editor_to_result,
    transcript_events,
    zeus_to_result,
)

KEYS = [
    "file_path", "old_string", "new_string", "replace_all", "edits", "content", "filePath",
    "originalFile", "structuredPatch", "oldString", "newString", "type", "file", "command",
    "path", "file_text", "old_str", "new_str", "insert_line", "success", "message", "data",
    "meta", "old_content", "files", "value", "artifact", "structuredContent", "isError",
    "oldStart", "oldLines", "newStart", "newLines", "lines", "text",
]  # fmt: skip
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 10),
    st.text(max_size=12),
    st.sampled_from(["a\nb\n", "edit", "text"]),
)
records = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=5)
    ),
    max_leaves=15,
)
JUNK = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _sound(result):
    assert isinstance(result, ToolResult) and isinstance(result.value, str)
    assert isinstance(result.artifact, ArtifactBase)
    if result.is_error:
        assert result.artifact.status == "error"


@JUNK
@given(
    st.sampled_from(["Edit", "MultiEdit", "Write", "Read", "Bash"]),
    records,
    records,
    records,
    st.booleans(),
)
def test_claude_code_junk(name, call, structured, content, is_error):
    _sound(
        claude_code_to_result(name, call, structured, content=content, is_error=is_error, root="/r")
    )


@JUNK
@given(st.lists(st.one_of(records.map(json.dumps), st.text(max_size=20)), max_size=5))
def test_transcript_junk(lines):
    for event in transcript_events("\n".join(lines)):
        assert event.artifact is not None


@JUNK
@given(records, records, st.booleans())
def test_text_editor_and_edit_file_junk(call, output, is_error):
    _sound(text_editor_to_result(call, output, is_error=is_error))
    _sound(edit_file_to_result(output if not isinstance(output, dict) else json.dumps(output)))


@JUNK
@given(records, records, st.one_of(st.none(), st.sampled_from(["edit", "write", "read"])))
def test_zeus_mcp_codeagent_junk(record, call, tool_name):
    _sound(zeus_to_result(record, call=call, tool_name=tool_name))
    assert isinstance(mcp_to_result(record), ToolResult)
    assert isinstance(codeagent_to_result(record), ToolResult)
