"""Other runtimes' tool names, one constant each.

The readers here recognise results by these names, and the MCP face shows our tools under them.
"""

CLAUDE_READ = "Read"
CLAUDE_WRITE = "Write"
CLAUDE_EDIT = "Edit"
CLAUDE_MULTI_EDIT = "MultiEdit"
CLAUDE_NOTEBOOK_EDIT = "NotebookEdit"
TEXT_EDITOR = "str_replace_based_edit_tool"
FS_READ_TEXT_FILE = "read_text_file"
FS_WRITE_FILE = "write_file"
FS_EDIT_FILE = "edit_file"
CODEX_APPLY_PATCH = "apply_patch"
