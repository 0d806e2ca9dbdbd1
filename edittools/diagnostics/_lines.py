"""The line mapping of a change: where each line of the text before is in the text after."""

from __future__ import annotations

from collections.abc import Callable
from difflib import SequenceMatcher

LineMap = Callable[[int], int | None]
"""Old 1-based line number -> its 1-based number in the new text, or None if the change rewrote it."""


def line_map_from_texts(before: str, after: str) -> LineMap:
    """The line mapping of the change from `before` to `after`, from difflib's matching blocks.

    Lines in unchanged runs map to their new place; lines the change replaced or deleted map to
    None. Callers that know their change's own mapping (an edit's span) may pass that instead.
    """
    old_lines = before.splitlines()
    new_lines = after.splitlines()
    moved: dict[int, int] = {}
    matcher = SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, _j2 in matcher.get_opcodes():
        if tag == "equal":
            for offset in range(i2 - i1):
                moved[i1 + offset + 1] = j1 + offset + 1
    return moved.get


def identity_map(line: int) -> int | None:
    """The mapping of a change that moved no line."""
    return line
