"""A change re-checked by parsing only the statement it touched, not the whole file (Python).

Tree-sitter's incremental re-parse of a one-line change still costs milliseconds on a large Python
file (tens of them where it reuses little), so a change inside one statement is first checked on
that statement alone: its lines, old and new, are parsed as a fragment, behind a header that opens
a block at their indentation and followed by a statement at that indentation that closes them. A
new fragment that parses cleanly, when the old one did and neither left the block, is a change that
introduced no error: the text around is untouched, and a clean fragment leaves the parser where
the old one did (no bracket, string or line continuation left open, no block left unfinished, no
line outdented past its first). Any doubt answers None, and the caller parses the file.

The statement is found in the kept tree. The change is not parsed into that tree: the tree is only
moved (`Tree.edit`), and the statement's bytes become a region whose nodes are stale, so a later
change inside it re-checks the region, and one elsewhere uses the nodes around, still exact.
A change to a compound statement's header (`def f(x):`) is checked on the header alone, closed by a
statement at its body's indentation.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from tree_sitter import Node, Query

from edittools.syntax._errors import faults
from edittools.syntax._trees import Kept, Region, Span, move, parse

_OPENER = b"if 1:\n"  # opens a block at whatever indentation the fragment's first line has
_CLOSER = b"pass"
_STATEMENT_PARENTS = frozenset({"block", "module"})
_DEFINITIONS = frozenset({"function_definition", "class_definition"})
_MAX_FRAGMENT = 32 * 1024  # past this a fragment costs about what the incremental re-parse does
_TRIES = 3  # statements tried, innermost first, before the whole file is parsed


def recheck(
    kept: Kept, empty: Query | None, new: bytes, span: Span, deadline: float
) -> Kept | None:
    """`kept` moved to `new` when a statement around the change `span` still parses, else None.

    The innermost statements (or the region) around the change are tried in turn, parsed old and
    new, each on its own; the first clean in both answers, with the tree moved and the statement's
    new bytes marked as a region. The kept tree is edited only when the answer is not None.
    """
    start, old_end, new_end = span
    shift = new_end - old_end
    for region in _regions(kept, span)[:_TRIES]:
        moved = replace(region, end=region.end + shift)
        if _clean(kept, empty, kept.source, region, deadline) and _clean(
            kept, empty, new, moved, deadline
        ):
            break
    else:
        return None
    move(kept.tree, kept.source, new, span)
    regions = [
        r if r.end <= start else replace(r, start=r.start + shift, end=r.end + shift)
        for r in kept.regions
        if r != region
    ]
    return Kept(kept.language, new, kept.tree, (*regions, moved))


def _regions(kept: Kept, span: Span) -> list[Region]:
    """The bytes that may be re-checked for `span`, smallest first: a region it lies in, or the
    statements around it."""
    start, old_end, _ = span
    for region in kept.regions:
        if region.start <= start and old_end <= region.end:
            return [region] if _closed(kept.source, region) else []
        if region.start < old_end and start < region.end:
            return []
    # An insertion at the end of a statement's line lies between nodes, and a change in a comment
    # after a statement lies in a node of its own: the statement that starts the line holds them.
    line = kept.source.rfind(b"\n", 0, start) + 1
    first = line + len(kept.source[line:start]) - len(kept.source[line:start].lstrip(b" \t"))
    found: set[Region] = set()
    for low, high in {(start, old_end), (max(0, start - 1), old_end), (first, first)}:
        found.update(_around(kept, span, low, high))
    return sorted((r for r in found if r.end - r.start <= _MAX_FRAGMENT),
                  key=lambda r: r.end - r.start)  # fmt: skip


def _around(kept: Kept, span: Span, low: int, high: int) -> Iterator[Region]:
    """The regions of the statements holding the bytes `low`..`high`, innermost first."""
    node: Node | None = kept.tree.root_node.descendant_for_byte_range(low, high)
    while node is not None and node.parent is not None:
        region = _statement(kept, node, span)
        if region is not None:
            yield region
        node = node.parent


def _statement(kept: Kept, node: Node, span: Span) -> Region | None:
    """`node` as a region when it is a whole statement on whole lines that holds `span`."""
    parent = node.parent
    if parent is None or parent.type not in _STATEMENT_PARENTS:
        return None
    source = kept.source
    if not _starts_line(source, node.start_byte) or span[0] < node.start_byte:
        return None
    header = _header(kept, node, span)
    if header is not None:
        return header
    # To the end of its last line: a comment after it there, or a statement after a semicolon.
    end = _line_end(source, node.end_byte)
    if span[1] > end:
        return None
    if node.has_changes or any(r.start < end and node.start_byte < r.end for r in kept.regions):
        return None  # the tree is stale inside it: its bounds are not to be trusted
    region = Region(node.start_byte, end, _indent(source, node.start_byte))
    return region if _closed(source, region) else None


def _header(kept: Kept, node: Node, span: Span) -> Region | None:
    """The header of the compound statement `node`, up to its body's first line, when the change
    lies there: checked on its own, closed by a statement at the body's indentation."""
    body = _first_body(node)
    if body is None:
        return None
    source = kept.source
    body_line = source.rfind(b"\n", 0, body.start_byte) + 1
    if span[1] >= body_line or body_line <= node.start_byte:
        return None  # the change reaches the body, or the body shares the header's line
    # The header's bounds are exact unless an earlier change reached them (the tree marks the
    # statement changed whatever change inside it: only those at or before its body's start count).
    if any(r.start <= body.start_byte and node.start_byte <= r.end for r in kept.regions):
        return None
    region = Region(node.start_byte, body_line - 1, _indent(source, body.start_byte), header=True)
    return region if _closed(source, region) else None


def _first_body(node: Node) -> Node | None:
    """The block of a compound statement's first clause (a decorated definition's too)."""
    for child in node.children:
        if child.type == "block":
            return child
        if child.type in _DEFINITIONS:
            return _first_body(child)
    return None


def _clean(kept: Kept, empty: Query | None, source: bytes, region: Region, deadline: float) -> bool:
    """Whether the region's lines of `source`, as a fragment, parse with no error and end where
    their closer does, inside the block the opener opened."""
    line = source.rfind(b"\n", 0, region.start) + 1
    lines = source[line : _line_end(source, region.end)]
    indent = source[line : region.start]
    if _first_code_indent(lines) not in (indent, None):
        return False  # the change indented or outdented the first line: the block is another
    if lines.rstrip(b"\r").endswith(b"\\"):
        return False  # it would continue into its closer, where the file continues elsewhere
    opener = _OPENER if indent else b""
    fragment = b"".join((opener, lines, b"\n", region.closer, _CLOSER, b"\n"))
    tree = parse(kept.language, fragment, deadline)
    root = tree.root_node
    if root.has_error or faults(tree, fragment, empty, (0, len(fragment))):
        return False
    statements = _statements(root)
    if opener:
        if len(statements) != 1 or statements[0].type != "if_statement":
            return False
        block = statements[0].child_by_field_name("consequence")
        statements = [] if block is None else _statements(block)
    if not statements or statements[-1].end_byte != len(fragment) - 1:
        return False
    # A header's closer is the body of its one statement; a statement region's is a statement.
    return len(statements) == 1 if region.header else statements[-1].type == "pass_statement"


def _first_code_indent(lines: bytes) -> bytes | None:
    """The indentation of the first line of code (not blank, not a comment) in `lines`."""
    for line in lines.split(b"\n"):
        code = line.lstrip(b" \t")
        if code.strip() and not code.startswith(b"#"):
            return line[: len(line) - len(code)]
    return None


def _statements(node: Node) -> list[Node]:
    return [n for n in node.named_children if n.type != "comment"]


def _closed(source: bytes, region: Region) -> bool:
    """Whether the text around the region does not depend on how it ends: the line before does
    not continue into it, and (after statements) the next line of code is not indented deeper
    than the region's first. A header's next line is its body, as its closer stands for."""
    line = source.rfind(b"\n", 0, region.start) + 1
    if line and source[max(0, line - 3) : line - 1].rstrip(b"\r").endswith(b"\\"):
        return False
    if region.header:
        return True
    indent = source[line : region.start]
    at = _line_end(source, region.end)
    while at < len(source):
        next_line = at + 1
        at = _line_end(source, next_line)
        code = source[next_line:at].lstrip(b" \t")
        if code.strip() and not code.startswith(b"#"):
            return indent.startswith(source[next_line : at - len(code)])
    return True


def _starts_line(source: bytes, offset: int) -> bool:
    line = source.rfind(b"\n", 0, offset) + 1
    return not source[line:offset].strip(b" \t")


def _indent(source: bytes, offset: int) -> bytes:
    """The whitespace before `offset` on its line."""
    return source[source.rfind(b"\n", 0, offset) + 1 : offset]


def _line_end(source: bytes, offset: int) -> int:
    end = source.find(b"\n", offset)
    return len(source) if end < 0 else end
