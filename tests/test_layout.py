"""The project's shape (DESIGN.md "Layout"), checked on the source of every module.

Imports are read from each module's syntax tree, lazy ones inside functions included: every
package sits in a layer that may import only the layers listed for it, no modules import each
other in a circle, a private (`_x`) module or name is used only inside the package that owns it,
and each public package exports exactly its `__all__`.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import subprocess
import sys
import types
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

import edittools
import sandbox

ROOT = Path(edittools.__file__).parent.parent
PACKAGES = ("sandbox", "edittools")

# Each layer and the module prefixes it holds; a module belongs to the longest prefix it matches.
LAYER_OF_PREFIX = {
    "sandbox": "sandbox",
    "edittools._lazy": "base",  # the lazy-name helper every package's __init__ may use
    "edittools._bytesearch": "base",  # SIMD find and count in byte buffers
    "edittools._placeholders": "base",
    "edittools.formatting": "base",  # the project's own formatter, run on one file's text
    "edittools.diagnostics": "diagnostics",  # omission placeholders in a change's new text
    "edittools.artifacts": "artifacts",
    "edittools.diff": "diff",
    "edittools.syntax": "syntax",
    "edittools.state": "state",
    "edittools._errors": "state",
    "edittools._options": "state",
    "edittools._choices": "state",
    "edittools.change": "change",
    "edittools.tools": "tools",
    "edittools._session": "session",
    "edittools.dialects": "dialects",
    "edittools": "facade",  # the package's own __init__: Session, ToolResult, adapt, ...
    "edittools.render": "render",
    "edittools.mcp_server": "mcp_server",
    "edittools.cli": "cli",
    "edittools.__main__": "cli",  # `python -m edittools`: the command line's entry point
}

# Which other layers each layer may import, bottom to top.
MAY_IMPORT: dict[str, frozenset[str]] = {
    "base": frozenset(),
    "sandbox": frozenset(),
    "artifacts": frozenset({"base"}),
    "diff": frozenset({"base", "artifacts"}),
    "syntax": frozenset({"base", "artifacts"}),
    "diagnostics": frozenset({"base"}),
    "state": frozenset({"base", "sandbox", "artifacts", "diff"}),
    "change": frozenset({"base", "sandbox", "artifacts", "diff", "syntax", "diagnostics", "state"}),
    "tools": frozenset(
        {"base", "sandbox", "artifacts", "diff", "syntax", "diagnostics", "state", "change"}
    ),
    "session": frozenset(
        {"base", "sandbox", "artifacts", "diff", "diagnostics", "state", "change", "tools"}
    ),
    "dialects": frozenset({"base", "artifacts", "diff"}),
    "facade": frozenset({"base", "artifacts", "state", "session", "dialects"}),
    "render": frozenset({"base", "artifacts", "diff"}),
    "mcp_server": frozenset(
        {"sandbox", "artifacts", "diff", "tools", "dialects", "facade", "render"}
    ),
    "cli": frozenset(
        {"sandbox", "artifacts", "diff", "tools", "dialects", "facade", "render", "mcp_server"}
    ),
}

FACES = frozenset({"mcp_server", "cli"})
"""They adapt: even `edittools`' own private modules (state, session) are not theirs to import."""


@dataclass(frozen=True)
class Import:
    """One imported module (`target`) and the dotted name the statement reaches (`reached`)."""

    source: str
    target: str
    reached: str
    line: int


@cache
def modules() -> dict[str, Path]:
    """Every module of the project's packages by dotted name, packages by their own name."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports_of(name: str) -> Iterator[Import]:
    """The project modules `name` imports, anywhere in its source (lazy imports too)."""
    path = modules()[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield from _project(name, alias.name, alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            for alias in node.names:
                reached = f"{origin}.{alias.name}"
                target = reached if reached in modules() else origin
                yield from _project(name, target, reached, node.lineno)


def _project(source: str, target: str, reached: str, line: int) -> Iterator[Import]:
    if target.split(".")[0] in PACKAGES:
        yield Import(source, _known(target), reached, line)


def _known(target: str) -> str:
    """The module a dotted name lands in (`import a.b.c` where c is a name lands in a.b)."""
    while target not in modules() and "." in target:
        target = target.rpartition(".")[0]
    return target


def layer(name: str) -> str:
    prefix = max(
        (p for p in LAYER_OF_PREFIX if name == p or name.startswith(p + ".")),
        key=len,
    )
    return LAYER_OF_PREFIX[prefix]


def private_owner(dotted: str) -> str | None:
    """The package that owns a private name (the part before the first `_x`), or None if public."""
    parts = dotted.split(".")
    for i, part in enumerate(parts):
        if part.startswith("_") and not (part.startswith("__") and part.endswith("__")):
            return ".".join(parts[:i])
    return None


def inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def all_imports() -> list[Import]:
    return [imp for name in modules() for imp in imports_of(name)]


def layer_violations(imports: list[Import]) -> list[str]:
    bad = []
    for imp in imports:
        src, dst = layer(imp.source), layer(imp.target)
        if src == dst:
            continue
        if dst not in MAY_IMPORT[src]:
            bad.append(f"{imp.source}:{imp.line} ({src}) imports {imp.target} ({dst})")
    return bad


def privacy_violations(imports: list[Import]) -> list[str]:
    bad = []
    for imp in imports:
        owner = private_owner(imp.reached)
        if owner is None:
            continue
        # A face may reach only its own privates, not even those of `edittools` itself.
        own = inside(imp.source, owner) and not (
            layer(imp.source) in FACES and not inside(owner, _package_of(imp.source))
        )
        if not own:
            bad.append(f"{imp.source}:{imp.line} reaches {imp.reached}, private to {owner}")
    return bad


def _package_of(name: str) -> str:
    """The face package a module belongs to (`edittools.cli._tools` -> `edittools.cli`)."""
    return ".".join(name.split(".")[:2])


def cycles(imports: list[Import]) -> list[list[str]]:
    """The import circles among modules (strongly connected groups of more than one module)."""
    graph: dict[str, set[str]] = {name: set() for name in modules()}
    for imp in imports:
        if imp.target != imp.source:
            graph[imp.source].add(imp.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm; the graph is a few hundred modules
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


def test_every_module_is_in_a_layer() -> None:
    assert set(MAY_IMPORT) == set(LAYER_OF_PREFIX.values())
    for name in modules():
        assert layer(name) in MAY_IMPORT, name


def test_imports_reach_only_the_layers_below() -> None:
    """Each layer imports only what the table allows: leaves know no tools, tools no faces."""
    assert layer_violations(all_imports()) == []


def test_no_module_imports_another_packages_private_modules() -> None:
    """Private modules and names are for their own package; faces use public surfaces only."""
    assert privacy_violations(all_imports()) == []


def test_no_import_circles_among_modules() -> None:
    assert cycles(all_imports()) == []


def calling_modules(names: frozenset[str], *, methods_only: bool = False) -> list[str]:
    """Modules that call a function or method of one of `names`, in any spelling (`os.fork`,
    `fork`), or only as a method (`ws.commit`, not a function of that name)."""
    found = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            called = node.func if isinstance(node, ast.Call) else None
            spelled = (
                called.attr
                if isinstance(called, ast.Attribute)
                else called.id
                if isinstance(called, ast.Name) and not methods_only
                else None
            )
            if spelled in names:
                found.append(name)
                break
    return found


def function_callers(names: frozenset[str]) -> list[str]:
    """Modules that call one of `names` as a plain function (`summary(...)`, not `x.summary()`)."""
    found = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in names
            ):
                found.append(name)
                break
    return found


def test_only_the_command_line_forks() -> None:
    """A library call never forks its host (a host with threads, an MCP server, must not be
    forked by a library): only the process that owns the command line may."""
    assert calling_modules(frozenset({"fork", "forkpty"})) == ["edittools.cli._forked"]


def test_only_the_executor_commits() -> None:
    """Every changing tool locates; one module commits (`Workspace.commit`, whose only caller
    is the executor, and the sandbox's streamed writer), so a dry run or a cancel is honoured
    in one place."""
    callers = calling_modules(frozenset({"commit", "splice_writer"}), methods_only=True)
    assert [n for n in callers if not n.startswith("sandbox")] == ["edittools.change._commit"]
    callers = calling_modules(frozenset({"commit_files"}), methods_only=True)
    assert [n for n in callers if not n.startswith("sandbox")] == ["edittools.state._workspace"]


CHANGE = "edittools.change"
"""The package that owns a change's flow: every rule below keeps one of its parts there."""


def _outside_change(found: list[str]) -> list[str]:
    """The edittools modules of `found` that are not under `edittools/change/`."""
    return [n for n in found if n.startswith("edittools") and not inside(n, CHANGE)]


def importers_of(names: frozenset[str]) -> list[str]:
    """Modules that import one of `names` from the change package (by any path into it)."""
    return sorted(
        {
            imp.source
            for imp in all_imports()
            if inside(imp.target, CHANGE) and imp.reached.rpartition(".")[2] in names
        }
    )


def test_only_the_change_package_commits() -> None:
    """`commit`, `commit_all` and `Workspace.commit` are called only under `change/` (tools
    locate or plan; the change package writes), and only it imports them."""
    names = frozenset({"commit", "commit_all"})
    assert _outside_change(calling_modules(names)) == []
    assert _outside_change(importers_of(names)) == []


def too_large_catchers() -> list[str]:
    """Modules that compare an error's code with `too_large` (how a size regime is decided:
    `except SandboxError as exc: if exc.code != "too_large": raise`)."""
    found = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(
                isinstance(side, ast.Constant) and side.value == "too_large"
                for side in (node.left, *node.comparators)
            ):
                found.append(name)
                break
    return found


READS_OVER_THE_CAP = "edittools.tools.read"
"""`read` is no change: a file over the cap is read in ranges, the read's own regime."""


def test_only_the_change_package_decides_the_size_regime() -> None:
    """A file over the cap goes to a streamed pass, or is refused, in one package; so does the
    choice of the bytes path for a large file loaded whole (`by_bytes`)."""
    catchers = _outside_change(too_large_catchers())
    assert catchers == [READS_OVER_THE_CAP]
    assert _outside_change(calling_modules(frozenset({"by_bytes"}))) == []
    assert _outside_change(importers_of(frozenset({"by_bytes", "BYTES_PATH_MIN"}))) == []


def content_fact_readers() -> list[str]:
    """Modules that use the workspace's content facts (`ws.contents.line_of(...)`: a method of
    `KnownContents` on an attribute named `contents`)."""
    from edittools.state import KnownContents

    methods = {m for m in vars(KnownContents) if not m.startswith("_")}
    found = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in methods
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "contents"
            ):
                found.append(name)
                break
    return found


def test_only_the_change_package_reads_the_content_facts() -> None:
    """The facts that spare passes over large contents (`Workspace.contents`: digest states,
    line counts, plainness, the last write) are kept by the state and used by `change/` alone."""
    readers = [n for n in content_fact_readers() if not inside(n, "edittools.state")]
    assert _outside_change(readers) == []
    assert any(inside(n, CHANGE) for n in readers)


def test_only_the_change_package_builds_refs() -> None:
    """A diff's refs to its full contents (`with_refs`, `with_blobs`) are set in one package."""
    names = frozenset({"with_refs", "with_blobs"})
    assert _outside_change(calling_modules(names)) == []
    assert _outside_change(importers_of(names)) == []


def test_only_the_change_package_words_the_change_sentence() -> None:
    """The one sentence a change's value starts with (`sentence`, `summary`: counts, the coarse
    note, the tolerances) is worded under `change/`. Called as functions: a method of that name
    on another object (a render's counts) is not the change's sentence."""
    names = frozenset({"sentence", "summary"})
    assert _outside_change(function_callers(names)) == []
    assert _outside_change(importers_of(names)) == []


def test_only_the_large_file_homes_read_by_offset_or_map() -> None:
    """Files are read by offset or mapped only by the sandbox, the streamed changes of files
    over the cap (`change/_streamed`), and `diff_files`, the diff layer's reader of two files (it
    stands below the sandbox, and diffs files outside any root)."""
    readers = calling_modules(frozenset({"pread", "preadv", "mmap"}))
    homes = [n for n in readers if not n.startswith(("sandbox", "edittools.change._streamed."))]
    assert homes == ["edittools.diff._files"]
    assert any(n.startswith("edittools.change._streamed.") for n in readers)


_SQL = re.compile(
    r"\b(?:SELECT\b.*\bFROM|INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|"
    r"CREATE\s+(?:TABLE|INDEX))\b"
)  # upper case, as every statement here is written: prose that says "select ... from" passes


def sql_modules() -> list[str]:
    """Modules with a string literal that reads as SQL (a query, a change of rows, a table)."""
    found = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            literal = node.value if isinstance(node, ast.Constant) else None
            if isinstance(literal, str) and _SQL.search(literal):
                found.append(name)
                break
    return found


def test_only_the_state_package_has_sql() -> None:
    """One owner of the state database's schema and queries: `sandbox.state`. The workspace,
    journal, checkpoints and the sandbox's intents call its functions."""
    outside = [n for n in sql_modules() if not n.startswith("sandbox.state")]
    assert outside == []
    assert "sandbox.state.schema" in sql_modules()


def test_lazy_imports_inside_functions_are_seen() -> None:
    """The reader finds an import inside a function (the CLI imports the MCP server lazily)."""
    lazy = [i for i in imports_of("edittools.cli._tools") if i.target == "edittools.mcp_server"]
    assert lazy


PUBLIC_PACKAGES = [
    "sandbox",
    "edittools",
    "edittools.artifacts",
    "edittools.diff",
    "edittools.state",
    "edittools.change",
    "edittools.tools",
    "edittools.render",
    "edittools.dialects",
    "edittools.mcp_server",
    "edittools.syntax",
    "edittools.formatting",
    "edittools.diagnostics",
]


def _public_names(module: types.ModuleType) -> set[str]:
    """Names a package binds that are not private, not submodules and not `__future__` leftovers."""
    return {
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and not isinstance(value, types.ModuleType)
        and name != "annotations"
    }


@pytest.mark.parametrize("name", PUBLIC_PACKAGES)
def test_all_is_exactly_the_public_names(name: str) -> None:
    """Each package exports what `__all__` lists, no more and no less (ruff keeps it sorted)."""
    module = importlib.import_module(name)
    exported = list(module.__all__)
    for export in exported:  # a package may bind its names on first use
        getattr(module, export)
    assert len(exported) == len(set(exported))
    assert set(exported) == _public_names(module)


def _sandbox_modules() -> list[str]:
    return [
        info.name
        for info in pkgutil.walk_packages(sandbox.__path__, prefix="sandbox.")
        if not info.name.endswith("__main__")
    ]


def test_sandbox_never_imports_edittools() -> None:
    """Every sandbox module, imported alone in a fresh interpreter, loads no edittools module."""
    code = (
        "import importlib, sys\n"
        f"for name in {_sandbox_modules()!r}:\n"
        "    importlib.import_module(name)\n"
        "leaked = sorted(m for m in sys.modules if m.split('.')[0] == 'edittools')\n"
        "print(','.join(leaked))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == ""


@pytest.mark.parametrize("package", [sandbox, edittools])
def test_packages_ship_py_typed(package: types.ModuleType) -> None:
    assert (Path(package.__file__).parent / "py.typed").is_file()
