"""Did a change break the file's syntax? Only the errors the change introduced count.

Both texts are parsed with the file's grammar. The errors of the old text are carried through the
change to the lines they occupy in the new text (lines before the changed span stay, lines after
it shift by the span's growth, lines inside it spread over the whole new span); an error of the
new text that meets none of them is one the change introduced. A file already broken elsewhere
therefore gives no alarm, and an edit inside an already broken region does not either. One more
case counts: an error that reaches into the changed lines when none did before (the parser may
merge a new error with an old one above it).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace

from edittools.artifacts import Diagnostic
from edittools.syntax._errors import SyntaxFault, faults
from edittools.syntax._fragments import recheck
from edittools.syntax._languages import checks_fragments, empty_nodes_query, grammar, language_of
from edittools.syntax._trees import (
    Kept,
    OutOfTime,
    Span,
    changed_span,
    exact,
    keep,
    parse,
    reparse,
    take,
)

_SHOWN = 3  # faults described in the note; the payload lists them all
_TITLES = {
    "javascript": "JavaScript", "jsx": "JSX", "typescript": "TypeScript", "tsx": "TSX",
    "json": "JSON", "yaml": "YAML", "toml": "TOML", "html": "HTML", "css": "CSS", "c": "C",
    "cpp": "C++",
}  # fmt: skip


@dataclass(frozen=True)
class SyntaxCheck:
    """The outcome of checking one change: the errors it introduced, or why it was not checked."""

    path: str
    language: str
    diagnostics: tuple[Diagnostic, ...]
    """Errors the change introduced (severity `error`), or one `info` note when skipped."""
    excerpt: str = ""
    """The new text's lines around the first few errors, numbered, for the model."""
    note: str = ""
    """A sentence the model reads although nothing broke (a check that ran out of time)."""

    @property
    def broken(self) -> bool:
        """Whether the change introduced a syntax error."""
        return any(d.severity == "error" for d in self.diagnostics)

    def describe(self, *, kept: bool) -> str:
        """What the model reads: where the new text stops parsing, and what became of the change."""
        errors = [d for d in self.diagnostics if d.severity == "error"]
        where = "; ".join(_where(d) for d in errors[:_SHOWN])
        if len(errors) > _SHOWN:
            where += f"; and {len(errors) - _SHOWN} more"
        fate = (
            "The change was kept: fix it with another edit, or undo it."
            if kept
            else f"The change was not written and {self.path} is unchanged: fix it and call again."
        )
        name = _TITLES.get(self.language, self.language.capitalize())
        return (
            f"Syntax check: after this change {self.path} no longer parses as {name} "
            f"({where}). {fate}\n{self.excerpt}"
        )


def unchecked(path: str, max_bytes: int) -> SyntaxCheck | None:
    """What a file over `max_bytes` gets instead of a check: an `info` note saying so (None when
    no grammar covers the file's name)."""
    return _skipped(path, f"the file is over {max_bytes} bytes")


def _skipped(path: str, why: str) -> SyntaxCheck | None:
    """A check that did not happen, with an `info` note saying why (None: no grammar)."""
    language_name = language_of(path)
    if language_name is None or grammar(language_name) is None:
        return None
    note = Diagnostic(message=f"Syntax not checked: {why}.", severity="info", source="syntax")
    return SyntaxCheck(path, language_name, (note,))


def check_change(
    path: str,
    old: str | None,
    new: str,
    *,
    max_bytes: int | None = None,
    budget: float | None = None,
) -> SyntaxCheck | None:
    """Check that changing `path` from `old` (None: a new file) to `new` breaks no syntax.

    Returns None when there is no grammar for the file's name, and a check with an `info` note
    when a text is over `max_bytes` (UTF-8) and so was not parsed, or when parsing took longer
    than `budget` seconds (None: no limit) and was stopped. Some grammars are super-linear on long
    runs of one token (tens of seconds for a few KB): a tool always sets a budget.
    """
    deadline = math.inf if budget is None else time.monotonic() + budget
    try:
        return _check(path, old, new, max_bytes, deadline)
    except OutOfTime:  # what is kept for the file, if anything, is still a whole parse
        assert budget is not None  # only a deadline halts a parse
        why = f"parsing took longer than its budget of {budget * 1000:.0f} ms"
        skipped = _skipped(path, why)
        if skipped is None:
            return None
        return replace(skipped, note=f"Syntax not checked: {why}; the change was made.")


def _check(
    path: str, old: str | None, new: str, max_bytes: int | None, deadline: float
) -> SyntaxCheck | None:
    language_name = language_of(path)
    language = None if language_name is None else grammar(language_name)
    if language_name is None or language is None:
        return None
    # A text has at least as many UTF-8 bytes as characters: this long, it needs no encoding.
    if max_bytes is not None and max(len(new), len(old or "")) > max_bytes:
        return unchecked(path, max_bytes)
    new_bytes = _utf8(new)
    old_bytes = None if old is None else _utf8(old)
    size = max(len(new_bytes), len(old_bytes or b""))
    if max_bytes is not None and size > max_bytes:
        return unchecked(path, max_bytes)
    if old_bytes == new_bytes:
        return SyntaxCheck(path, language_name, ())  # no change introduces no error
    empty = empty_nodes_query(language_name)
    if old_bytes is None:
        span = (0, 0, len(new_bytes))
        kept = None
    else:
        span = changed_span(old_bytes, new_bytes)
        kept = take(language, path, old_bytes)
    if kept is not None and old_bytes is not None and checks_fragments(language_name):
        moved = recheck(kept, empty, new_bytes, span, deadline)
        if moved is not None:
            keep(path, moved)
            return SyntaxCheck(path, language_name, ())
    old_tree = None if kept is None else exact(kept, deadline)
    if old_bytes is not None and old_tree is not None:
        new_tree = reparse(language, old_bytes, old_tree.copy(), new_bytes, span, deadline)
    else:
        new_tree = parse(language, new_bytes, deadline)
    keep(path, Kept(language, new_bytes, new_tree))
    start, old_end, new_end = span
    found = faults(new_tree, new_bytes, empty, _lines_around(new_bytes, start, new_end))
    if not found:
        return SyntaxCheck(path, language_name, ())
    if old_bytes is not None:
        if old_tree is None:
            old_tree = parse(language, old_bytes, deadline)
        before = faults(old_tree, old_bytes, empty, _lines_around(old_bytes, start, old_end))
        found = _introduced(before, found, old_bytes, new_bytes, span)
    diagnostics = tuple(_diagnostic(new_bytes, fault, start) for fault in found)
    return SyntaxCheck(path, language_name, diagnostics, _excerpt(new, diagnostics[:_SHOWN]))


def _introduced(
    before: list[SyntaxFault], after: list[SyntaxFault], old: bytes, new: bytes, span: Span
) -> list[SyntaxFault]:
    """The faults of `after` that meet no fault of `before` carried through the change `span`."""
    if not before:
        return after
    start, old_end, new_end = span
    first = old.count(b"\n", 0, start)
    old_last = first + old.count(b"\n", start, old_end)
    new_last = first + new.count(b"\n", start, new_end)

    def carried(row: int, *, at_end: bool) -> int:
        if row < first:
            return row
        if row > old_last:
            return row + new_last - old_last
        return new_last if at_end else first

    spans = [(carried(f.start_row, at_end=False), carried(f.end_row, at_end=True)) for f in before]
    # The changed lines were clean before: an error that now reaches into them is the change's,
    # even when the parser merged it with an old error nearby.
    was_clean = not any(f.start_row <= old_last and first <= f.end_row for f in before)

    def introduced(fault: SyntaxFault) -> bool:
        if was_clean and fault.start_row <= new_last and first <= fault.end_row:
            return True
        return not any(a <= fault.end_row and fault.start_row <= b for a, b in spans)

    return [fault for fault in after if introduced(fault)]


def _where(d: Diagnostic) -> str:
    to = f" to line {d.end_line}" if d.end_line and d.line and d.end_line > d.line else ""
    return f"line {d.line}, column {d.column}{to}: {d.message}"


def _diagnostic(source: bytes, fault: SyntaxFault, change_start: int) -> Diagnostic:
    """The fault as a diagnostic; one that began before the change and spans it starts there.

    A parser that gives up wraps everything from the last point it understood, often from the
    top of the file, in one error: the change inside that region is what to point at.
    """
    start, start_row, message = fault.start_byte, fault.start_row, fault.message
    change_row = source.count(b"\n", 0, change_start)
    if start < change_start and start_row < change_row <= fault.end_row:
        start, start_row = change_start, change_row
        message = f"does not parse (the parser gave up on lines {fault.start_row + 1}-{fault.end_row + 1})"
    line_start = source.rfind(b"\n", 0, start) + 1
    column = len(source[line_start:start].decode("utf-8", "replace")) + 1
    # An error that runs to the start of the next line ends on the line before.
    end_row = (
        fault.end_row - 1 if fault.end_column == 0 and fault.end_row > start_row else fault.end_row
    )
    return Diagnostic(
        line=start_row + 1,
        column=column,
        end_line=end_row + 1,
        message=message,
        severity="error",
        source="syntax",
    )


def _excerpt(text: str, diagnostics: tuple[Diagnostic, ...]) -> str:
    """The lines around each diagnostic, numbered, the diagnostic's own lines marked with `>`."""
    # Rows as the parser counts them: only "\n" ends a line (splitlines would also split at
    # form feeds and Unicode separators).
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    wanted: dict[int, bool] = {}
    for d in diagnostics:
        first = d.line or 1
        last = max(first, d.end_line or first)
        last = min(last, first + 2)  # a long error region is shown by its first lines
        for number in range(max(1, first - 1), min(len(lines), last + 1) + 1):
            wanted[number] = wanted.get(number, False) or first <= number <= last
    width = len(str(max(wanted, default=1)))
    shown = []
    previous = 0
    for number in sorted(wanted):
        if previous and number > previous + 1:
            shown.append("   " + "." * width)
        mark = ">" if wanted[number] else " "
        shown.append(f" {mark} {number:>{width}} | {lines[number - 1]}")
        previous = number
    return "\n".join(shown)


def _lines_around(source: bytes, start: int, end: int) -> tuple[int, int]:
    """The byte range from the line before `start` to the line after `end`."""
    before = source.rfind(b"\n", 0, max(0, source.rfind(b"\n", 0, start)))
    line_end = source.find(b"\n", end)
    after = -1 if line_end < 0 else source.find(b"\n", line_end + 1)
    return before + 1, len(source) if after < 0 else after


def _utf8(text: str) -> bytes:
    # Lone surrogates cannot come from a strict decode, but a replacement keeps this total.
    return text.encode("utf-8", "replace")
