"""`diff_texts` and `diff_buffers`: the whole-file diff of two versions of one file."""

from __future__ import annotations

import mmap
from typing import TYPE_CHECKING

from edittools.diff._defaults import DEFAULT_BUDGET
from edittools.diff._errors import DiffError
from edittools.diff._line_diff import line_diff, operation_of
from edittools.diff._lines import decode, to_bytes
from edittools.diff._payload import payload_of

if TYPE_CHECKING:
    from edittools.artifacts import DiffPayload


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
    return _diff(
        None if old is None else to_bytes(old),
        None if new is None else to_bytes(new),
        checked=(isinstance(old, bytes), isinstance(new, bytes)),
        originals=(old, new),
        path=path,
        old_path=old_path,
        context=context,
        include_texts=include_texts,
        budget=budget,
    )


def diff_buffers(
    old: bytes | mmap.mmap | None,
    new: bytes | mmap.mmap | None,
    *,
    path: str,
    old_path: str | None = None,
    context: int = 3,
    include_texts: bool = False,
    budget: float | None = DEFAULT_BUDGET,
) -> DiffPayload:
    """Diff two versions of a file held as bytes or memory maps, of any size.

    The result equals ``diff_texts`` of the same bytes (payload, hunks, unified text, stats).
    A memory map is never copied whole: common stretches are compared in bounded slices, and
    only the changed regions and their context are split into lines, so a pair of files larger
    than memory diffs in little more memory than its hunks. The caller maps the files and keeps
    the maps open for the call (the engine does no I/O). `include_texts` (off by default here)
    decodes both full texts into the payload, which is only sensible for texts that fit.
    """
    if old is None and new is None:
        raise DiffError("no_content", "Give at least one of old and new; both were None.")
    return _diff(
        old,
        new,
        checked=(True, True),
        originals=(old, new),
        path=path,
        old_path=old_path,
        context=context,
        include_texts=include_texts,
        budget=budget,
    )


def _diff(
    old_data: bytes | mmap.mmap | None,
    new_data: bytes | mmap.mmap | None,
    *,
    checked: tuple[bool, bool],
    originals: tuple[object, object],
    path: str,
    old_path: str | None,
    context: int,
    include_texts: bool,
    budget: float | None,
) -> DiffPayload:
    """The payload of `line_diff`; `checked` says which sides are bytes to test for binary."""
    operation = operation_of(old_data is not None, new_data is not None, path, old_path)
    result = line_diff(
        old_data,
        new_data,
        operation=operation,
        checked=checked,
        context=context,
        budget=budget,
        path=path,
    )
    if not include_texts or result.binary:
        return payload_of(result, path=path, old_path=old_path)
    return payload_of(
        result,
        path=path,
        old_path=old_path,
        old_text=_text(originals[0]),
        new_text=_text(originals[1]),
    )


def _text(original: object) -> str | None:
    if isinstance(original, str):
        return original
    if isinstance(original, bytes):
        return decode(original)
    if isinstance(original, mmap.mmap):
        return decode(original[:])
    return None
