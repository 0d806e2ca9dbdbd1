"""Definitions in a source file: what they are, their dotted paths, and the bytes they span.

One walk of the tree tree-sitter parsed (through `_trees.parse`, the package's one native
boundary) finds, for each language, the nodes that define something: functions, methods,
classes and their kin. A definition's span takes in what belongs to it: Python decorators (the
`decorated_definition` around it), Rust attributes, and the comments directly above it with no
blank line between (doc comments in every language), up to one that holds code put away
(`# old_call(x)`, `// foo();`): that is not a word about the definition, and goes on standing
where it is when the definition is replaced. Names are cut from our own bytes by byte
range, never read through the binding. No queries: the grammars' `tags.scm` files filter with
text predicates, which the binding evaluates by reading node text.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from edittools.syntax._languages import grammar
from edittools.syntax._trees import parse

PARSE_SECONDS = 2.0
"""How long finding the definitions of one file may parse before it gives up (`OutOfTime`)."""

# Node type -> kind, per language. A container's children are walked with its name on the path.
_DEFINITIONS: dict[str, dict[str, str]] = {
    "python": {
        "function_definition": "function",
        "class_definition": "class",
        "decorated_definition": "",  # kind and name from its definition
    },
    "javascript": {
        "function_declaration": "function",
        "generator_function_declaration": "function",
        "class_declaration": "class",
        "method_definition": "method",
        "variable_declarator": "function",  # only with a function or class as its value
    },
    "typescript": {
        "function_declaration": "function",
        "generator_function_declaration": "function",
        "class_declaration": "class",
        "abstract_class_declaration": "class",
        "method_definition": "method",
        "abstract_method_signature": "method",
        "interface_declaration": "interface",
        "type_alias_declaration": "type",
        "enum_declaration": "enum",
        "internal_module": "namespace",
        "variable_declarator": "function",
    },
    "go": {
        "function_declaration": "function",
        "method_declaration": "method",
        "type_spec": "type",
    },
    "rust": {
        "function_item": "function",
        "function_signature_item": "function",
        "struct_item": "struct",
        "enum_item": "enum",
        "union_item": "union",
        "trait_item": "trait",
        "mod_item": "module",
        "type_item": "type",
        "macro_definition": "macro",
        "impl_item": "",  # a container only: its functions are `Type.name`
    },
    "java": {
        "class_declaration": "class",
        "interface_declaration": "interface",
        "enum_declaration": "enum",
        "record_declaration": "record",
        "annotation_type_declaration": "annotation",
        "method_declaration": "method",
        "constructor_declaration": "constructor",
    },
    "c": {
        "function_definition": "function",
        "struct_specifier": "struct",
        "union_specifier": "union",
        "enum_specifier": "enum",
    },
    "cpp": {
        "function_definition": "function",
        "struct_specifier": "struct",
        "union_specifier": "union",
        "enum_specifier": "enum",
        "class_specifier": "class",
        "namespace_definition": "namespace",
    },
    "ruby": {
        "method": "method",
        "singleton_method": "method",
        "class": "class",
        "module": "module",
    },
    "bash": {"function_definition": "function"},
}
_DEFINITIONS["tsx"] = _DEFINITIONS["typescript"]
_DEFINITIONS["jsx"] = _DEFINITIONS["javascript"]

SYMBOL_LANGUAGES = frozenset(_DEFINITIONS)
"""Languages whose definitions `outline` finds."""

_WRAPPERS = {"export_statement", "template_declaration", "decorated_definition"}
"""Nodes whose span a definition directly inside takes as its own."""
_LEADING = {"comment", "line_comment", "block_comment", "attribute_item", "decorator"}
"""Nodes directly above a definition (no blank line between) that belong to it."""
_NEEDS_BODY = {"struct_specifier", "union_specifier", "enum_specifier", "class_specifier"}
"""C and C++ specifiers name a type where they use it too; only those with a body define it."""
_FUNCTION_VALUES = {
    "arrow_function",
    "function_expression",
    "function",
    "generator_function",
    "class",
}


@dataclass(frozen=True)
class Symbol:
    """One definition: its `kind`, own `name`, dotted `path` and byte span in the source."""

    kind: str
    name: str
    path: str
    """The names of the definitions it is inside and its own, joined by dots (`Parser.parse`)."""
    start: int
    """Where it begins, its decorators, attributes and doc comments included."""
    end: int
    first_line: int
    """1-based line of `start`."""
    last_line: int
    """1-based line of its last byte."""
    body: tuple[int, int] | None
    """The byte span of its body (a block, or braces and what is between), when it has one."""
    depth: int
    """How many definitions it is inside."""


class NoSymbols(Exception):
    """The language has no definitions this module knows of."""


def outline(language: str, source: bytes) -> list[Symbol]:
    """Every definition of `source` (a file of `language`), in file order.

    Raises NoSymbols for a language with no definitions known here, and `OutOfTime` when the
    parse takes longer than `PARSE_SECONDS`.
    """
    kinds = _DEFINITIONS.get(language)
    compiled = grammar(language) if kinds is not None else None
    if kinds is None or compiled is None:
        raise NoSymbols(language)
    tree = parse(compiled, source, time.monotonic() + PARSE_SECONDS)
    return list(_walk(tree.root_node, kinds, source, language))


_Visit = tuple[Node, tuple[str, ...], str]
"""A node to look at, the names of the definitions it is inside, and the innermost one's kind."""


def _walk(root: Node, kinds: dict[str, str], source: bytes, language: str) -> Iterator[Symbol]:
    """The definitions under `root`, in file order. The walk keeps its own stack: a generated
    file (a table of nested initialisers) can be deeper than Python's recursion allows."""
    stack: list[_Visit] = [(child, (), "") for child in reversed(root.named_children)]

    def visit(node: Node, outer: tuple[str, ...], container: str) -> None:
        stack.extend((child, outer, container) for child in reversed(node.named_children))

    while stack:
        child, outer, container = stack.pop()
        kind = kinds.get(child.type)
        if kind is None:
            visit(child, outer, container)
            continue
        definition = _definition(child)
        kind = kind or kinds.get(definition.type, "")
        name = _name(definition, source, language)
        if name is None:
            visit(child, outer, container)
            continue
        if not kind:  # a container only (a Rust impl): its members carry its name
            visit(_body_node(definition) or definition, (*outer, *name.split(".")), "impl")
            continue
        if kind == "function" and container in {"class", "impl", "struct", "trait", "interface"}:
            kind = "method"
        if language == "go" and definition.type == "method_declaration":
            receiver = _receiver(definition, source)
            path = (*outer, receiver, name) if receiver else (*outer, name)
        else:
            path = (*outer, *name.split("."))
        body = _body(definition)
        if body is None and definition.type in _NEEDS_BODY:
            continue  # `struct timespec *t`: a use of a type, not its definition
        span = _span(child)
        start = _lead(span, source)
        yield Symbol(
            kind=kind,
            name=path[-1],
            path=".".join(path),
            start=start,
            end=span.end_byte,
            first_line=source.count(b"\n", 0, start) + 1,
            last_line=span.end_point[0] + 1 - (1 if span.end_point[1] == 0 else 0),
            body=body,
            depth=len(outer),
        )
        members = _body_node(definition)
        if members is not None:
            visit(members, path, kind)


def _definition(node: Node) -> Node:
    """The node that defines, inside a wrapper (Python's decorated definition)."""
    if node.type == "decorated_definition":
        inner = node.child_by_field_name("definition")
        if inner is not None:
            return inner
    return node


def _span(node: Node) -> Node:
    """The node whose span a definition takes: a wrapper around it (export, template), else
    itself; a declarator's whole declaration (`const f = () => ...`)."""
    parent = node.parent
    alone = parent is not None and parent.named_child_count == 1
    if parent is not None and alone and node.type in {"variable_declarator", "type_spec"}:
        node, parent = parent, parent.parent  # `const f = () => ...`, `type T struct{}`
    while parent is not None and parent.type in _WRAPPERS:
        node, parent = parent, parent.parent
    return node


def _lead(node: Node, source: bytes) -> int:
    """Where a definition's span begins once the comments and attributes directly above it
    (no blank line between) are taken in; always at the start of a line."""
    start = node.start_byte
    line_start = source.rfind(b"\n", 0, start) + 1
    if source[line_start:start].strip():
        return start  # code before it on its line: it starts where it starts
    sibling = node.prev_named_sibling
    line = node.start_point[0]
    while sibling is not None and sibling.type in _LEADING:
        end_row, end_column = sibling.end_point
        last = end_row - 1 if end_column == 0 else end_row  # a line comment takes its newline
        if last != line - 1:
            break  # a blank line between, or a comment closing the line of the code before
        begin = source.rfind(b"\n", 0, sibling.start_byte) + 1
        if source[begin : sibling.start_byte].strip():
            break  # it ends a line of other code
        if "comment" in sibling.type and _put_away(source[sibling.start_byte : sibling.end_byte]):
            break  # code put away in a comment, not a word about this definition
        start, line = sibling.start_byte, sibling.start_point[0]
        sibling = sibling.prev_named_sibling
    return source.rfind(b"\n", 0, start) + 1


_DOC_MARKS = (b"///", b"//!", b"/**", b"/*!", b"#:")
"""How doc comments begin where a language marks them (Rust, Javadoc, JSDoc, Doxygen, Sphinx)."""
_MARKERS = re.compile(rb"^\s*(?:#+|//+!?|/\*+!?|\*+(?!/))?\s*(.*?)\s*(?:\*+/)?\s*$")
"""A line of a comment: its comment markers, then its text."""
_CODE = re.compile(
    rb"""[;{}]$                                  # ends a statement, opens or closes a block
    | ^[\w.$:>\[\]-]+\s*\(.*\)$                # a call and nothing else: old_call(x)
    | ^[\w.$\[\]]+\s*[-+*/%|&^]?=(?!=)          # an assignment: y = compute(x)
    | ^(?:def|class|if|elif|else|for|while|with|try|except)\b.*:$  # a Python block's header""",
    re.VERBOSE,
)
"""A line of a comment that reads as code, not as words."""


def _put_away(comment: bytes) -> bool:
    """Whether a comment directly above a definition holds code put away (`# old_call(x)`,
    `// foo();`) rather than words about the definition. Comments a language marks as doc
    (`///`, `/**`) are words; any other is code when one of its lines reads as code. Such a
    comment is not part of the definition: replacing or removing it leaves the code there."""
    if comment.startswith(_DOC_MARKS) and not comment.startswith(b"/**/"):
        return False
    for line in comment.split(b"\n"):
        found = _MARKERS.match(line)
        if found is not None and _CODE.search(found.group(1)):
            return True
    return False


def _body_node(definition: Node) -> Node | None:
    """The node holding a definition's members or statements, when it has one."""
    body = definition.child_by_field_name("body")
    if body is None and definition.type == "variable_declarator":
        value = definition.child_by_field_name("value")
        return value.child_by_field_name("body") if value is not None else None
    if body is None:  # Ruby classes and modules, Go type specs: the members' node
        for child in definition.named_children:
            if child.type in {"body_statement", "field_declaration_list", "struct_type"}:
                return child
    return body


def _body(definition: Node) -> tuple[int, int] | None:
    body = _body_node(definition)
    return None if body is None else (body.start_byte, body.end_byte)


def _name(node: Node, source: bytes, language: str) -> str | None:
    """A definition's own name as the file spells it (C++ `Foo::bar` as `Foo.bar`); None for a
    node that defines nothing nameable (an anonymous struct, a variable that holds no function)."""
    if node.type == "variable_declarator":
        value = node.child_by_field_name("value")
        if value is None or value.type not in _FUNCTION_VALUES:
            return None
    if node.type == "impl_item":
        named = node.child_by_field_name("type")
    elif language in {"c", "cpp"} and node.type == "function_definition":
        named = _declared(node)
    else:
        named = node.child_by_field_name("name")
    if named is None:
        return None
    text = source[named.start_byte : named.end_byte].decode("utf-8", "replace")
    if node.type == "impl_item":
        text = text.split("<", 1)[0]
    return text.replace("::", ".").strip() or None


def _declared(node: Node) -> Node | None:
    """The name a C or C++ function definition declares, through its declarators."""
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type not in {
        "identifier",
        "field_identifier",
        "qualified_identifier",
        "destructor_name",
        "operator_name",
    }:
        declarator = declarator.child_by_field_name("declarator")
    return declarator


def _receiver(node: Node, source: bytes) -> str | None:
    """The type a Go method is declared on (`func (f *Foo) Bar()`: `Foo`)."""
    receiver = node.child_by_field_name("receiver")
    if receiver is None:
        return None
    for parameter in receiver.named_children:
        kind = parameter.child_by_field_name("type")
        while kind is not None and kind.type in {"pointer_type", "generic_type"}:
            inner = kind.named_children[0] if kind.named_children else None
            kind = inner
        if kind is not None:
            return source[kind.start_byte : kind.end_byte].decode("utf-8", "replace")
    return None
