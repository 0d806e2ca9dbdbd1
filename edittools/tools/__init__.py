"""The tools: read, write, edit, multi_edit, apply_patch, undo and insert, as functions of a workspace.

This is the surface the facade and the faces use: the catalogue (`TOOLS`, what models are shown;
`OPERATIONS`, everything the runner runs), function-calling `definitions` and the self-contained
`input_schema` of a parameter model, and `run_tool`, the one
place where tool failures become error results; `ToolParams`, the base of every agent input
model, and `PATH_HELP`, the one description of a path parameter; `image_mime`, which bytes the
tools take for an image; `shown_window`, a read's window cut again from its content (how the
journal reads back a read it kept by reference); `Progress`, what a call tells how far its
passes over large files have gone.
"""

from edittools.change import Progress
from edittools.tools._catalog import (
    OPERATIONS,
    STRUCTURE,
    TOOLS,
    ToolSpec,
    definitions,
    input_schema,
)
from edittools.tools._params import PATH_HELP, ToolParams
from edittools.tools._runner import run_tool
from edittools.tools.read import image_mime, shown_window

__all__ = [
    "OPERATIONS",
    "PATH_HELP",
    "STRUCTURE",
    "TOOLS",
    "Progress",
    "ToolParams",
    "ToolSpec",
    "definitions",
    "image_mime",
    "input_schema",
    "run_tool",
    "shown_window",
]
