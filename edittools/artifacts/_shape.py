"""Checks of an artifact's outer structure and of plain JSON data, shared by models and accessors.

Both checks are iterative or depth-bounded, so deeply nested or huge input cannot crash them.
"""

from __future__ import annotations

import math
from typing import Any

MAX_DEPTH = 200
"""Nesting deeper than this is not accepted as artifact data."""


def outer_problem(data: Any, *, schema_id: str) -> str | None:
    """Say what is wrong with an artifact's outer structure, or return None when it is sound.

    Sound means: an object whose `schema` is `schema_id`; `version` a positive integer and not a
    bool; `kind` and `status` non-empty strings; `payload` an object; `icon` and `title` strings
    or absent (null counts as absent).
    """
    if not isinstance(data, dict):
        return "an artifact must be an object"
    if data.get("schema") != schema_id:
        return f"the schema id must be {schema_id!r}"
    version = data.get("version")
    if type(version) is not int or version < 1:
        return "version must be a positive integer"
    for key in ("kind", "status"):
        text = data.get(key)
        if not isinstance(text, str) or not text:
            return f"{key} must be a non-empty string"
    if not isinstance(data.get("payload"), dict):
        return "payload must be an object"
    for key in ("icon", "title"):
        if data.get(key) is not None and not isinstance(data[key], str):
            return f"{key} must be a string when present"
    return None


def is_json(value: Any) -> bool:
    """Tell whether `value` is plain JSON data: dicts with str keys, lists, str, finite numbers,
    bools and None, nested no deeper than `MAX_DEPTH`."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        if item is None or isinstance(item, bool | int | str):
            continue
        if isinstance(item, float):
            if not math.isfinite(item):
                return False
        elif isinstance(item, dict):
            for key, child in item.items():
                if not isinstance(key, str):
                    return False
                stack.append((child, depth + 1))
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        else:
            return False
    return True
