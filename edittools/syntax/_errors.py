"""The syntax errors in a parsed tree: its ERROR and MISSING nodes, as line ranges."""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node, Query, QueryCursor, Tree

_MAX_ERRORS = 200  # a hopelessly broken file need not be walked to its end
_QUOTED = 40


@dataclass(frozen=True)
class SyntaxFault:
    """One place that does not parse: 0-based rows, byte columns, and what is wrong there."""

    start_row: int
    start_byte: int
    end_row: int
    end_column: int
    message: str


def faults(
    tree: Tree, source: bytes, empty: Query | None = None, within: tuple[int, int] | None = None
) -> list[SyntaxFault]:
    """The ERROR and MISSING nodes of `tree`, the parse of `source`, outermost only, in file order.

    Only subtrees that contain an error are visited, so a clean tree costs nothing. `empty`
    captures nodes that are errors when empty; they are looked for in the byte range `within`
    only (the changed region: that query walks the tree).
    """
    found: list[SyntaxFault] = []
    if empty is not None and within is not None:
        cursor = QueryCursor(empty)
        cursor.set_byte_range(*within)
        for name, nodes in cursor.captures(tree.root_node).items():
            message = name.replace("_", " ")
            found += [_fault(n, message) for n in nodes if n.start_byte == n.end_byte]
    stack: list[Node] = [tree.root_node]
    while stack and len(found) < _MAX_ERRORS:
        node = stack.pop()
        if node.is_missing:
            found.append(_fault(node, f"missing {_token(node)}"))
        elif node.is_error:
            found.append(_fault(node, _unexpected(node, source)))
        elif node.has_error:
            stack.extend(reversed(node.children))
    return sorted(found, key=lambda fault: fault.start_byte)


def _fault(node: Node, message: str) -> SyntaxFault:
    end = node.end_point
    return SyntaxFault(node.start_point.row, node.start_byte, end.row, end.column, message)


def _token(node: Node) -> str:
    kind = node.type
    return kind if kind.isidentifier() else f"'{kind}'"


def _unexpected(node: Node, source: bytes) -> str:
    """Say where the text that does not parse begins, quoting its first line (shortened).

    The text is cut from `source` by the node's range, never read through the binding.
    """
    text = source[node.start_byte : node.end_byte].decode("utf-8", "replace").strip()
    first = text.split("\n", 1)[0].strip()
    if not first:
        return "does not parse"
    if len(first) > _QUOTED:
        first = first[: _QUOTED - 3] + "..."
    return f"does not parse from '{first}'" if "\n" in text else f"'{first}' does not parse here"
