"""Settling a batch of event-marked paths into coalesced `FileChange`s, against their baselines.

The worker hands over the paths that are due, with what the events said about each (`Pending`) and
what each holds now. Renames of a file with a baseline become `moved` (following a chain a → b → c
back to the first path that had one); every other path is compared with its baseline. The table is
updated as the changes are decided.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ._baselines import ABSENT, SKIP, Baseline, BaselineTable

__all__ = ["ChangeKind", "FileChange", "Pending", "changes_of"]

ChangeKind = Literal["created", "modified", "deleted", "moved"]


@dataclass(frozen=True)
class FileChange:
    """One coalesced change of one file, made outside the tools (as far as the watcher knows).

    `old` is None for `created`, and for a `modified` file that had no baseline; a stat-only `old`
    (no digest) means the file was known but its earlier content was not read. `new` is None for
    `deleted`. `old_path` is the source of a `moved`.
    """

    kind: ChangeKind
    path: str
    old: Baseline | None
    new: Baseline | None
    old_path: str | None = None


@dataclass
class Pending:
    """Events seen for one path since it was last looked at."""

    first: float
    last: float
    appeared: bool = False
    new_file: bool = False
    writing: bool = False  # written to, and not closed since (where closes are reported)
    sources: list[str] = field(default_factory=list)
    links: set[str] = field(default_factory=set)


def changes_of(
    batch: dict[str, Pending], current: dict[str, object], baselines: BaselineTable
) -> list[FileChange]:
    """Compare each path of a batch with its baseline; moves first, then the rest.

    `current` holds what `look` found at each path of the batch.
    """
    changes: list[FileChange] = []
    done: set[str] = set()
    for dest, pending in batch.items():
        new = current[dest]
        if not pending.sources or not isinstance(new, Baseline):
            continue
        origin = _origin(pending.sources[-1], batch, baselines)
        old = baselines.known(origin) if origin is not None else None
        if origin is None or old is None:
            continue  # the source had no baseline (an editor's temp file): a plain change
        if not old.content_known and old.same_file(new):
            old = new  # a rename keeps inode, size and time: the content is what it is now
        changes.append(FileChange("moved", dest, old, new, old_path=origin))
        baselines.set(dest, new)
        baselines.set(origin, None)
        done.add(dest)
        if origin in batch and current[origin] is not ABSENT:
            batch[origin].appeared = True  # a new file took the moved one's place
        else:
            done.add(origin)
    for rel, pending in batch.items():
        if rel in done or current[rel] is SKIP:
            continue
        change = _compare(rel, baselines.known(rel), current[rel], pending.appeared, baselines)
        if change is not None:
            changes.append(change)
    return changes


def _origin(source: str, batch: dict[str, Pending], baselines: BaselineTable) -> str | None:
    """The first path along a chain of renames (a → b → c) that has a baseline."""
    seen: set[str] = set()
    rel: str | None = source
    while rel is not None and rel not in seen:
        if baselines.known(rel) is not None:
            return rel
        seen.add(rel)
        pending = batch.get(rel)
        rel = pending.sources[-1] if pending is not None and pending.sources else None
    return None


def _compare(
    rel: str, old: Baseline | None, new: object, appeared: bool, baselines: BaselineTable
) -> FileChange | None:
    if not isinstance(new, Baseline):
        baselines.set(rel, None)
        if old is None:
            return None  # a temp file that came and went, or nothing we ever knew
        return FileChange("deleted", rel, old, None)
    baselines.set(rel, new)
    if old is None:
        return FileChange("created" if appeared else "modified", rel, None, new)
    if old.same_file(new):
        return None  # touched, or written back unchanged (or, by stat, not written at all)
    return FileChange("modified", rel, old, new)
