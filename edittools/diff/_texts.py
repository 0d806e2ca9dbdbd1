"""`diff_texts`: the whole-file diff of two versions of one file."""

from __future__ import annotations

import time

from edittools.artifacts import DiffPayload
from edittools.diff._changes import Change
from edittools.diff._collector import collector_paused
from edittools.diff._engine import line_changes
from edittools.diff._errors import DiffError
from edittools.diff._hunks import build_hunks
from edittools.diff._lines import decode, is_binary, to_bytes, valid_utf8
from edittools.diff._payload import Operation, binary_payload, operation_of, text_payload

DEFAULT_BUDGET = 1.0
"""Seconds the exact (minimal) diff may take before a coarser, still correct one is returned."""

# Bytes of new per change below which the binary check scans the whole changed range at once.
DENSE_CHECK = 4096


def diff_texts(
    old: str | bytes | None,
    new: str | bytes | None,
    *,
    path: str,
    old_path: str | None = None,
    context: int = 3,
    include_texts: bool = True,
    budget: float | None = DEFAULT_BUDGET,
) -> DiffPayload:
    """Diff two versions of a file into a diff payload with hunks, unified text and stats.

    `old` None means the file is created, `new` None that it is deleted; an `old_path` other than
    `path` makes it a rename. Bytes that contain NUL or are not UTF-8 are binary: no hunks, no
    line counts, and git's "Binary files ... differ" line. The hunks are minimal unless the exact
    search is predicted to take longer than `budget` seconds (None: no limit); then a coarser diff
    that still applies is returned with ``minimal`` False. The prediction comes from the density
    of changes seen so far, so the budget is a soft bound, met on realistic text. Large texts are
    diffed around their differences only: identical stretches are skipped at memory speed and
    each difference gets an exact diff of a window of lines, committed at the next run of 32 equal
    lines (checked against exact Myers and GNU ``diff --minimal`` in the tests, not a proof).
    `include_texts` puts both full texts in the payload.
    """
    if old is None and new is None:
        raise DiffError("no_content", "Give at least one of old and new; both were None.")
    operation = operation_of(old is not None, new is not None, path, old_path)
    old_bytes = b"" if old is None else to_bytes(old)
    new_bytes = b"" if new is None else to_bytes(new)
    old_checked = isinstance(old, bytes)
    binary = old_checked and is_binary(old_bytes)
    if isinstance(new, bytes) and not old_checked:
        binary = is_binary(new_bytes)
    if binary:
        return _binary(old_bytes, new_bytes, path, old_path, operation)
    deadline = None if budget is None else time.monotonic() + budget
    with collector_paused():
        changes, minimal = line_changes(old_bytes, new_bytes, deadline=deadline)
        if old_checked and isinstance(new, bytes) and _changed_binary(new_bytes, changes):
            return _binary(old_bytes, new_bytes, path, old_path, operation)
        return text_payload(
            path=path,
            old_path=old_path,
            operation=operation,
            hunks=build_hunks(old_bytes, new_bytes, changes, context=context),
            minimal=minimal,
            old_text=_text(old, old_bytes) if include_texts else None,
            new_text=_text(new, new_bytes) if include_texts else None,
        )


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


def _binary(
    old_bytes: bytes, new_bytes: bytes, path: str, old_path: str | None, operation: Operation
) -> DiffPayload:
    return binary_payload(
        path=path,
        old_path=old_path,
        operation=operation,
        identical=old_bytes == new_bytes and operation in ("modify", "rename"),
    )


def _text(original: str | bytes | None, data: bytes) -> str | None:
    if original is None:
        return None
    if isinstance(original, str):
        return original
    return decode(data)
