"""Careful reads of untrusted foreign records: a wrong type reads as absent, never as an error."""

from __future__ import annotations

import posixpath
from typing import Any

from edittools.artifacts import ToolResult, value_of
from edittools.artifacts.builders import text_result


def mapping(value: Any) -> dict[str, Any]:
    """`value` when it is a dict, else an empty dict."""
    return value if isinstance(value, dict) else {}


def string(record: Any, *keys: str) -> str | None:
    """The first of `keys` whose value in `record` is a str; None when there is none."""
    if isinstance(record, dict):
        for key in keys:
            value = record.get(key)
            if isinstance(value, str):
                return value
    return None


def integer(record: Any, key: str) -> int | None:
    """`record[key]` when it is an int (not a bool), else None."""
    value = record.get(key) if isinstance(record, dict) else None
    return value if type(value) is int else None


def flag(record: Any, key: str) -> bool:
    """True only when `record[key]` is the bool True."""
    return isinstance(record, dict) and record.get(key) is True


def items(record: Any, key: str) -> list[Any]:
    """`record[key]` when it is a list, else an empty list."""
    value = record.get(key) if isinstance(record, dict) else None
    return value if isinstance(value, list) else []


def relative_path(path: str, root: str | None) -> str:
    """`path` relative to `root` and `/`-separated when it lies beneath it; else unchanged.

    Pure string work on the recorded paths: foreign records name files on another machine.
    """
    path = path.replace("\\", "/")
    if root:
        base = root.replace("\\", "/").rstrip("/") + "/"
        if path.startswith(base):
            return posixpath.normpath(path[len(base) :])
    return path


def fallback(value: Any, *, is_error: bool = False) -> ToolResult:
    """The text fallback: a `text` artifact of the portable text of `value`."""
    text = value if isinstance(value, str) else value_of(value)
    return text_result(text, is_error=is_error)
