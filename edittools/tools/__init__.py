"""The tools: read, write, edit, multi_edit, apply_patch and undo, as functions of a workspace."""
