"""The tools: read, write, edit, multi_edit, apply_patch, undo and insert, as functions of a workspace.

This is the surface the facade and the faces use: the catalogue (`TOOLS`, what models are shown;
`OPERATIONS`, everything the runner runs), function-calling `definitions`, and `run_tool`, the one
place where tool failures become error results.
"""

from edittools.tools._catalog import OPERATIONS, TOOLS, ToolSpec, definitions
from edittools.tools._runner import run_tool

__all__ = ["OPERATIONS", "TOOLS", "ToolSpec", "definitions", "run_tool"]
