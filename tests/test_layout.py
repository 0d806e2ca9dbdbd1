"""The project's shape: imports flow one way, public surfaces are exactly their `__all__`."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

import edittools
import sandbox

PUBLIC_PACKAGES = [
    "sandbox",
    "edittools",
    "edittools.artifacts",
    "edittools.diff",
    "edittools.render",
    "edittools.dialects",
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
    assert len(exported) == len(set(exported))
    assert set(exported) == _public_names(module)


def _modules(package: types.ModuleType) -> list[str]:
    return [
        info.name
        for info in pkgutil.walk_packages(package.__path__, prefix=package.__name__ + ".")
        if not info.name.endswith("__main__")
    ]


def test_sandbox_never_imports_edittools() -> None:
    """Every sandbox module, imported alone in a fresh interpreter, loads no edittools module."""
    code = (
        "import importlib, sys\n"
        f"for name in {_modules(sandbox)!r}:\n"
        "    importlib.import_module(name)\n"
        "leaked = sorted(m for m in sys.modules if m.split('.')[0] == 'edittools')\n"
        "print(','.join(leaked))\n"
    )
    root = Path(sandbox.__file__).parent.parent
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    assert out.stdout.strip() == ""


def _imports_of(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


LAYERS = {
    # package: module prefixes it must never import
    "edittools/artifacts": ("edittools.tools", "edittools._session", "edittools._workspace",
                            "edittools.cli", "edittools.mcp_server", "edittools.render",
                            "edittools.diff", "edittools.dialects"),
    "edittools/diff": ("edittools.tools", "edittools._session", "edittools._workspace",
                       "edittools.cli", "edittools.mcp_server", "edittools.render",
                       "edittools.dialects", "sandbox"),
    "edittools/tools": ("edittools._session", "edittools.cli", "edittools.mcp_server",
                        "edittools.render", "edittools.dialects"),
    "edittools/render": ("edittools.tools", "edittools._session", "edittools.cli",
                         "edittools.mcp_server"),
}  # fmt: skip


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_imports_flow_one_way(package: str) -> None:
    """Leaves know no tools, tools know no facade or faces (checked on each module's imports)."""
    root = Path(edittools.__file__).parent.parent
    forbidden = LAYERS[package]
    for path in sorted((root / package).rglob("*.py")):
        where = path.relative_to(root).as_posix()
        bad = {name for name in _imports_of(path) if name.startswith(forbidden)}
        assert not bad, f"{where} imports {sorted(bad)}"


@pytest.mark.parametrize("package", [sandbox, edittools])
def test_packages_ship_py_typed(package: types.ModuleType) -> None:
    assert (Path(package.__file__).parent / "py.typed").is_file()
