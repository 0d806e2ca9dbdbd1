"""edittools: safe, forgiving file tools for agents, with diff artifacts every UI can show."""

from edittools.artifacts import ToolResult

__all__ = ["ToolResult"]
