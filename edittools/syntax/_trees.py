"""Parsing with tree-sitter, and the trees kept for the next change of a recently seen file.

Every parse goes through `parse`, the one native boundary of this package (see
docs/native-boundaries.md): the parser reads the source through a callback that returns new
`bytes` objects, which the binding holds while it reads them, never a view of a buffer that could be
released or resized; a deadline halts it (the binding honours its progress callback only for a
callback source). Nothing reads a node's text through the binding (`Node.text` calls the read
callback again and frees the result before reading it): text is cut from our own bytes by range.

The last few parsed texts keep their trees, so the next change to the same file need not parse it
from scratch: it re-checks only the statements it touched (`_fragments`), or re-parses
incrementally (`Tree.edit`), which on a large file costs a fraction of a full parse.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from tree_sitter import Language, Parser, Point, Tree

Span = tuple[int, int, int]

_KEEP = 8  # trees kept: one per recently changed file, for its next change
_CHUNK = 64 * 1024  # bytes handed to the parser per read


class OutOfTime(Exception):
    """A parse was halted at its deadline."""


@dataclass(frozen=True)
class Region:
    """Bytes of a kept text that were changed and re-checked on their own since its tree was
    parsed: the tree's nodes inside are stale, its nodes around have been moved by `Tree.edit`."""

    start: int
    end: int
    closer: bytes
    """The indentation of the line that follows the region (what closes it)."""
    header: bool = False
    """Whether the region is a compound statement's header, its closer standing for the body."""


@dataclass(frozen=True)
class Kept:
    """A text, its tree, and the regions where the tree no longer describes the text."""

    language: Language
    source: bytes
    tree: Tree
    regions: tuple[Region, ...] = ()


# By path, with the text parsed: comparing texts is a memcmp, while hashing one as a key would
# cost more than the check it serves on a large file.
_trees: OrderedDict[str, Kept] = OrderedDict()
_guard = threading.Lock()


def take(language: Language, path: str, source: bytes) -> Kept | None:
    """Remove and return what is kept for `path` if it is the parse of `source`, else None.

    Taken, not shared: the caller edits the tree and keeps the outcome again.
    """
    with _guard:
        kept = _trees.get(path)
        if kept is None or kept.language is not language or kept.source != source:
            return None
        del _trees[path]
        return kept


def keep(path: str, kept: Kept) -> None:
    """Keep `kept` for the next change to `path`."""
    with _guard:
        _trees[path] = kept
        _trees.move_to_end(path)
        while len(_trees) > _KEEP:
            _trees.popitem(last=False)


def holds(path: str, source: bytes) -> bool:
    """Whether a tree of `source` is kept for `path`."""
    with _guard:
        kept = _trees.get(path)
        return kept is not None and kept.source == source


def exact(kept: Kept, deadline: float) -> Tree:
    """The tree of `kept.source` with no stale region: re-parsed incrementally if it has some."""
    if not kept.regions:
        return kept.tree
    return parse(kept.language, kept.source, deadline, kept.tree)


def parse(language: Language, source: bytes, deadline: float, old_tree: Tree | None = None) -> Tree:
    """Parse `source` (reusing `old_tree`, already edited to match it, when given).

    Raises `OutOfTime` once `time.monotonic()` passes `deadline`.
    """

    def read(offset: int, _point: Point) -> bytes:
        # A new bytes object: the binding keeps it alive until its next read.
        return source[offset : offset + _CHUNK]

    def halt(_offset: int, _has_error: bool) -> bool:
        return time.monotonic() > deadline

    parser = Parser(language)
    try:
        if old_tree is None:
            tree = parser.parse(read, progress_callback=halt)
        else:
            tree = parser.parse(read, old_tree, progress_callback=halt)
    except ValueError as exc:  # the binding's word for a halted parse
        raise OutOfTime from exc
    if tree is None:
        raise OutOfTime
    return tree


def reparse(
    language: Language, old: bytes, old_tree: Tree, new: bytes, span: Span, deadline: float
) -> Tree:
    """Parse `new` reusing `old_tree`, the tree of `old`; `span` says where they differ.

    `old_tree` is edited in place to describe the change, then handed to the parser.
    """
    move(old_tree, old, new, span)
    return parse(language, new, deadline, old_tree)


def move(tree: Tree, old: bytes, new: bytes, span: Span) -> None:
    """Tell `tree`, a tree of `old`, that `span` changed it into `new` (no parsing)."""
    start, old_end, new_end = span
    row = old.count(b"\n", 0, start)  # once: the ends' rows count on from it
    tree.edit(
        start_byte=start,
        old_end_byte=old_end,
        new_end_byte=new_end,
        start_point=Point(row, start - (old.rfind(b"\n", 0, start) + 1)),
        old_end_point=_point_after(old, start, row, old_end),
        new_end_point=_point_after(new, start, row, new_end),
    )


def _point_after(source: bytes, start: int, row: int, offset: int) -> Point:
    """The point of `offset` in `source`, given the row of `start` (before it)."""
    row += source.count(b"\n", start, offset)
    return Point(row, offset - (source.rfind(b"\n", 0, offset) + 1))


def changed_span(old: bytes, new: bytes) -> Span:
    """Where `old` and `new` differ: the start, and the end in each, after the common suffix.

    Found by halving with bulk compares of byte slices (memoryview compares go item by item).
    """
    low, high = 0, min(len(old), len(new))
    while low < high:
        middle = (low + high + 1) // 2
        if old[low:middle] == new[low:middle]:
            low = middle
        else:
            high = middle - 1
    start = low
    low, high = 0, min(len(old), len(new)) - start
    while low < high:
        middle = (low + high + 1) // 2
        if old[len(old) - middle : len(old) - low] == new[len(new) - middle : len(new) - low]:
            low = middle
        else:
            high = middle - 1
    return start, len(old) - low, len(new) - low
