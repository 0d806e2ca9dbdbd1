"""Which diagnostics a change introduced and which it resolved, through the change's line mapping.

A diagnostic of the text before whose line maps to a line of the text after where the same
problem (code, message, severity, checker) is reported only moved: it is neither introduced nor
resolved. A problem on a line the change rewrote, reported again on one of the rewritten lines,
is the same problem too (editing the line of an unused import keeps the import unused).
"""

from __future__ import annotations

from collections.abc import Sequence

from edittools.diagnostics._lines import LineMap
from edittools.diagnostics._model import Diagnostic


def split_changes(
    before: Sequence[Diagnostic],
    after: Sequence[Diagnostic],
    line_map: LineMap,
    *,
    before_lines: int,
) -> tuple[tuple[Diagnostic, ...], tuple[Diagnostic, ...]]:
    """The diagnostics of `after` the change introduced, and those of `before` it resolved.

    `before_lines` is the number of lines of the text before, which says which new lines the
    mapping reaches (the others are lines the change wrote).
    """
    unmatched_new = sorted(after, key=_position)
    old_left: list[Diagnostic] = []
    for old in sorted(before, key=_position):
        new_line = line_map(old.line)
        match = None
        if new_line is not None:
            match = next(
                (new for new in unmatched_new if new.line == new_line and new.same_problem(old)),
                None,
            )
        if match is None:
            old_left.append(old)
        else:
            unmatched_new.remove(match)
    reached = {line_map(line) for line in range(1, before_lines + 1)}
    resolved: list[Diagnostic] = []
    for old in old_left:
        rewritten = line_map(old.line) is None
        match = None
        if rewritten:
            match = min(
                (new for new in unmatched_new if new.line not in reached and new.same_problem(old)),
                key=lambda new: abs(new.line - old.line),
                default=None,
            )
        if match is None:
            resolved.append(old)
        else:
            unmatched_new.remove(match)
    return tuple(unmatched_new), tuple(resolved)


def _position(diagnostic: Diagnostic) -> tuple[int, int, str, str]:
    return (diagnostic.line, diagnostic.column, diagnostic.source, diagnostic.message)
