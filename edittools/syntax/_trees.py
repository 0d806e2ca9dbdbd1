"""Parsing with tree-sitter, reusing the tree of the text a change started from.

The last few parsed texts keep their trees, so the next change to the same file re-parses
incrementally (`Tree.edit`): on a large file that costs a fraction of a full parse.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from tree_sitter import Language, Parser, Point, Tree

Span = tuple[int, int, int]

_KEEP = 8  # trees kept: one per recently changed file, for its next change

# By path, with the text parsed: comparing texts is a memcmp, while hashing one as a key would
# cost more than the check it serves on a large file.
_trees: OrderedDict[str, tuple[Language, bytes, Tree]] = OrderedDict()
_guard = threading.Lock()


def kept_tree(language: Language, path: str, source: bytes) -> Tree | None:
    """The tree kept for `path` if it is the parse of `source`, else None; the caller gets a copy."""
    with _guard:
        kept = _trees.get(path)
        if kept is None or kept[0] is not language or kept[1] != source:
            return None
        _trees.move_to_end(path)
        return kept[2].copy()


def keep_tree(language: Language, path: str, source: bytes, tree: Tree) -> None:
    """Keep `tree`, the parse of `source`, for the next change to `path`."""
    with _guard:
        _trees[path] = (language, source, tree)
        _trees.move_to_end(path)
        while len(_trees) > _KEEP:
            _trees.popitem(last=False)


def parse(language: Language, source: bytes) -> Tree:
    """A full parse of `source`."""
    return Parser(language).parse(source)


def reparse(language: Language, old: bytes, old_tree: Tree, new: bytes, span: Span) -> Tree:
    """Parse `new` reusing `old_tree`, the tree of `old`; `span` says where they differ.

    `old_tree` is edited in place to describe the change, then handed to the parser.
    """
    start, old_end, new_end = span
    old_tree.edit(
        start_byte=start,
        old_end_byte=old_end,
        new_end_byte=new_end,
        start_point=point_at(old, start),
        old_end_point=point_at(old, old_end),
        new_end_point=point_at(new, new_end),
    )
    return Parser(language).parse(new, old_tree)


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


def point_at(source: bytes, offset: int) -> Point:
    """Row and byte column of `offset`."""
    row = source.count(b"\n", 0, offset)
    return Point(row, offset - (source.rfind(b"\n", 0, offset) + 1))
