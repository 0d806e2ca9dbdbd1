"""Assemble a `DiffPayload` from changes: hunks, the unified text and the stats, all consistent.

The stats are counted from the very hunks the unified text is printed from, so they cannot disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from edittools.diff._hunks import stats_of, to_models, with_spans
from edittools.diff._line_diff import LineDiff, Operation
from edittools.diff._unified import unified_text

if TYPE_CHECKING:
    from edittools.artifacts import DiffPayload, Hunk

# The models are imported where a payload is built: the plain-data diff (`line_diff`) and the
# command line that prints it never load pydantic.


def payload_of(
    result: LineDiff,
    *,
    path: str,
    old_path: str | None = None,
    old_text: str | None = None,
    new_text: str | None = None,
    similarity: int | None = None,
) -> DiffPayload:
    """The protocol's diff payload of `result` (loads the artifact models).

    `old_text` and `new_text` are the full texts to carry inline (not for binary content);
    `similarity` is a rename's, in percent, when it was measured.
    """
    if result.binary:
        return binary_payload(
            path=path,
            old_path=old_path,
            operation=result.operation,
            identical=result.identical,
            similarity=similarity,
        )
    return text_payload(
        path=path,
        old_path=old_path,
        operation=result.operation,
        hunks=to_models(result.hunks),
        minimal=result.minimal,
        old_text=old_text,
        new_text=new_text,
        similarity=similarity,
    )


def text_payload(
    *,
    path: str,
    old_path: str | None,
    operation: Operation,
    hunks: list[Hunk],
    minimal: bool,
    old_text: str | None,
    new_text: str | None,
    similarity: int | None = None,
) -> DiffPayload:
    """A file-granularity payload for text content."""
    from edittools.artifacts import DiffPayload

    similarity = similarity if operation == "rename" else None
    return DiffPayload(
        path=path,
        operation=operation,
        old_path=old_path if operation == "rename" else None,
        similarity=similarity,
        old=old_text,
        new=new_text,
        hunks=hunks,
        unified=unified_text(
            operation, path, _source(operation, old_path), hunks, similarity=similarity
        ),
        stats=stats_of(hunks),
        minimal=minimal,
    )


def hunks_payload(hunks: list[Hunk], *, path: str) -> DiffPayload:
    """A file-granularity payload of known hunks whose full texts are unknown (a foreign patch).

    Hunks that come without word-level highlights get them, as the engine's own hunks do.
    """
    from edittools.artifacts import DiffPayload

    hunks = with_spans(hunks)

    return DiffPayload(
        path=path,
        hunks=hunks,
        unified=unified_text("modify", path, None, hunks),
        stats=stats_of(hunks),
    )


def binary_payload(
    *,
    path: str,
    old_path: str | None,
    operation: Operation,
    identical: bool,
    similarity: int | None = None,
) -> DiffPayload:
    """A payload for content that is not diffed as text: no hunks and no line counts."""
    from edittools.artifacts import DiffPayload, DiffStats

    similarity = similarity if operation == "rename" else None
    unified = ""
    if not identical or operation != "modify":
        unified = unified_text(
            operation,
            path,
            _source(operation, old_path),
            [],
            binary=not identical,
            similarity=similarity,
        )
    return DiffPayload(
        path=path,
        operation=operation,
        old_path=old_path if operation == "rename" else None,
        similarity=similarity,
        binary=True,
        unified=unified,
        stats=DiffStats(added=0, removed=0),
    )


def _source(operation: Operation, old_path: str | None) -> str | None:
    return old_path if operation == "rename" else None
