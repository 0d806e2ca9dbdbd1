"""Assemble a `DiffPayload` from changes: hunks, the unified text and the stats, all consistent.

The stats are counted from the very hunks the unified text is printed from, so they cannot disagree.
"""

from __future__ import annotations

from typing import Literal

from edittools.artifacts import DiffPayload, DiffStats, Hunk
from edittools.diff._hunks import stats_of
from edittools.diff._unified import unified_text

Operation = Literal["create", "modify", "delete", "rename"]


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


def text_payload(
    *,
    path: str,
    old_path: str | None,
    operation: Operation,
    hunks: list[Hunk],
    minimal: bool,
    old_text: str | None,
    new_text: str | None,
) -> DiffPayload:
    """A file-granularity payload for text content."""
    return DiffPayload(
        path=path,
        operation=operation,
        old_path=old_path if operation == "rename" else None,
        old=old_text,
        new=new_text,
        hunks=hunks,
        unified=unified_text(operation, path, _source(operation, old_path), hunks),
        stats=stats_of(hunks),
        minimal=minimal,
    )


def hunks_payload(hunks: list[Hunk], *, path: str) -> DiffPayload:
    """A file-granularity payload of known hunks whose full texts are unknown (a foreign patch)."""
    return DiffPayload(
        path=path,
        hunks=hunks,
        unified=unified_text("modify", path, None, hunks),
        stats=stats_of(hunks),
    )


def binary_payload(
    *, path: str, old_path: str | None, operation: Operation, identical: bool
) -> DiffPayload:
    """A payload for content that is not diffed as text: no hunks and no line counts."""
    unified = ""
    if not identical or operation != "modify":
        unified = unified_text(
            operation, path, _source(operation, old_path), [], binary=not identical
        )
    return DiffPayload(
        path=path,
        operation=operation,
        old_path=old_path if operation == "rename" else None,
        binary=True,
        unified=unified,
        stats=DiffStats(added=0, removed=0),
    )


def _source(operation: Operation, old_path: str | None) -> str | None:
    return old_path if operation == "rename" else None
