"""`line_diff`: the whole-file diff of two byte texts as plain data, before it becomes a payload.

This is the engine's result without the artifact models: hunks as named tuples, the flags and
the unified text. `diff_texts` and `diff_buffers` wrap it in a `DiffPayload`; the command line
prints it directly, so diffing two files loads neither pydantic nor the models.
"""

from __future__ import annotations

import mmap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Literal, NamedTuple, cast

from edittools.diff._budget import charged
from edittools.diff._collector import collector_paused
from edittools.diff._defaults import DEFAULT_BUDGET
from edittools.diff._engine import line_changes, line_counts, trim_common
from edittools.diff._lines import is_binary, valid_utf8
from edittools.diff._mapped import Mapped

if TYPE_CHECKING:
    from edittools.diff._changes import Change
    from edittools.diff._hunks import PlainHunk

# The hunk, heading and unified-text modules are imported where hunks are built or printed:
# counting lines (``--numstat``) needs none of them.

Operation = Literal["create", "modify", "delete", "rename"]


# Bytes of new per change below which the binary check scans the whole changed range at once.
DENSE_CHECK = 4096


class LineDiff(NamedTuple):
    """A diff of one file as plain data: hunks, whether they are minimal, binary content."""

    operation: Operation
    hunks: list[PlainHunk]
    minimal: bool
    binary: bool
    identical: bool
    """The two sides hold the same bytes (or, for text, the same lines)."""
    line_counts: tuple[int, int] | None = None
    """Added and removed lines, when the diff was asked for counts alone (no hunks built)."""

    @property
    def differ(self) -> bool:
        """Whether the contents differ (a rename of the same content does not)."""
        return not self.identical

    def counts(self) -> tuple[int, int]:
        """Added and removed lines (0 and 0 for binary content)."""
        if self.line_counts is not None:
            return self.line_counts
        from edittools.diff._hunks import count_lines

        return count_lines(self.hunks)

    def unified(
        self, path: str, old_path: str | None = None, *, similarity: int | None = None
    ) -> str:
        """The git-style unified text, headed with `path`.

        `old_path` labels the old side with its own name, as ``git diff --no-index`` does for
        two files (rename lines appear only when the operation is a rename, with git's
        ``similarity index`` line when `similarity` is given).
        """
        from edittools.diff._unified import unified_text

        source = old_path
        if self.binary:
            if self.identical and self.operation == "modify":
                return ""
            return unified_text(
                self.operation, path, source, [], binary=not self.identical, similarity=similarity
            )
        return unified_text(self.operation, path, source, self.hunks, similarity=similarity)


def operation_of(
    old_present: bool, new_present: bool, path: str, old_path: str | None
) -> Operation:
    """Name the change: a missing old side is a create, a missing new side a delete."""
    if not old_present:
        return "create"
    if not new_present:
        return "delete"
    if old_path is not None and old_path != path:
        return "rename"
    return "modify"


def line_diff(
    old: bytes | mmap.mmap | None,
    new: bytes | mmap.mmap | None,
    *,
    operation: Operation | None = None,
    checked: tuple[bool, bool] = (True, True),
    context: int = 3,
    budget: float | None = DEFAULT_BUDGET,
    path: str | None = None,
    hunks: bool = True,
) -> LineDiff:
    """Diff two byte texts or memory maps of any size (None for a missing side).

    `operation` defaults to what the missing sides say (create, delete or modify). `checked`
    says which sides may be binary: a NUL or invalid UTF-8 in old, or in the changed lines of
    new, makes the diff binary (no hunks). `budget` is as in `diff_texts`. `path` (its
    extension) picks the rules of the hunks' function context (`heading`). `hunks` False counts
    the added and removed lines without building hunks (``--numstat``): `counts` gives them.
    Within `shared_budget`, the budget is at most what is left of the shared one.
    """
    if operation is None:
        operation = operation_of(old is not None, new is not None, "", None)
    with _engine_data(old) as old_data, _engine_data(new) as new_data:
        old_bytes = b"" if old_data is None else old_data
        new_bytes = b"" if new_data is None else new_data
        old_checked = checked[0] and old is not None
        new_checked = checked[1] and new is not None
        binary = old_checked and is_binary(old_bytes)
        if new_checked and not old_checked:
            binary = is_binary(new_bytes)
        if binary:
            return _binary(old_bytes, new_bytes, operation)
        with charged(budget) as budget:
            deadline = None if budget is None else time.monotonic() + budget
            if not hunks:
                return _counted(
                    old_bytes, new_bytes, operation, old_checked and new_checked, deadline
                )
            from edittools.diff._heading import Headings
            from edittools.diff._hunks import plain_hunks

            with collector_paused():
                changes, minimal = line_changes(old_bytes, new_bytes, deadline=deadline)
                if old_checked and new_checked and _changed_binary(new_bytes, changes):
                    return _binary(old_bytes, new_bytes, operation)
                heading = Headings(old_bytes, path).above if changes and old_bytes else None
                built = plain_hunks(old_bytes, new_bytes, changes, context=context, heading=heading)
        return LineDiff(operation, built, minimal, binary=False, identical=not changes)


def _counted(
    old: bytes, new: bytes, operation: Operation, check_new: bool, deadline: float | None
) -> LineDiff:
    """The line counts alone. With `check_new`, new's middle is checked for binary content
    (its lines before and after are old's, already checked): one range, which spares locating
    each change in it."""
    bounds = trim_common(old, new)
    _, _, pb, eb = bounds
    if check_new and (new.find(b"\0", pb, eb) >= 0 or not valid_utf8(new, pb, eb)):
        return _binary(old, new, operation)
    with collector_paused():
        added, removed, minimal = line_counts(old, new, deadline=deadline, bounds=bounds)
    identical = not added and not removed
    return LineDiff(operation, [], minimal, False, identical, (added, removed))


@contextmanager
def _engine_data(side: bytes | mmap.mmap | None) -> Iterator[bytes | None]:
    """What the engine diffs for one side: bytes as they are, a memory map seen as `Mapped`
    (whose view of the map ends with the block, so the map's owner can close it)."""
    if not isinstance(side, mmap.mmap):
        yield None if side is None else bytes(side)
        return
    # Mapped has the bytes methods the engine calls, over bounded slices of the map.
    mapped = Mapped(side)
    try:
        yield cast(bytes, mapped)
    finally:
        mapped.release()


def _binary(old: bytes, new: bytes, operation: Operation) -> LineDiff:
    identical = operation in ("modify", "rename") and old == new
    return LineDiff(operation, [], True, binary=True, identical=identical)


def _changed_binary(new_bytes: bytes, changes: list[Change]) -> bool:
    """Say whether the changed lines of new hold a NUL or invalid UTF-8.

    New's unchanged lines are old's bytes, already checked, so only its changed lines need a
    look. When the changes are dense, one pass over the range that covers them all is cheaper
    than a call per change (the unchanged lines inside it are valid and change nothing).
    """
    if not changes:
        return False
    start, end = changes[0].ob0, changes[-1].ob1
    if end - start <= DENSE_CHECK * len(changes):
        return new_bytes.find(b"\0", start, end) >= 0 or not valid_utf8(new_bytes, start, end)
    return any(
        new_bytes.find(b"\0", change.ob0, change.ob1) >= 0
        or not valid_utf8(new_bytes, change.ob0, change.ob1)
        for change in changes
    )
