"""Which formatter a project configures for a file: the nearest config between its folder and
the root decides, and a file no config covers has none."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PYTHON = frozenset({".py", ".pyi"})
PRETTIER = frozenset(
    {
        ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".css", ".scss", ".less",
        ".json", ".json5", ".md", ".markdown", ".yaml", ".yml", ".html", ".vue", ".graphql",
    }
)  # fmt: skip
GO = frozenset({".go"})
RUST = frozenset({".rs"})
C_FAMILY = frozenset({".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx"})

_PRETTIER_CONFIGS = (
    ".prettierrc", ".prettierrc.json", ".prettierrc.json5", ".prettierrc.yaml",
    ".prettierrc.yml", ".prettierrc.toml", ".prettierrc.js", ".prettierrc.cjs",
    ".prettierrc.mjs", ".prettierrc.ts", ".prettierrc.cts", ".prettierrc.mts",
    "prettier.config.js", "prettier.config.cjs", "prettier.config.mjs", "prettier.config.ts",
    "prettier.config.cts", "prettier.config.mts",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Formatter:
    """A formatter the project configures for one file, and how to run it on stdin."""

    name: str
    """What the project chose: `ruff`, `black`, `prettier`, `gofmt`, `rustfmt`, `clang-format`."""
    program: str
    """The executable's name, looked up in the project's environments and on `PATH`."""
    args: tuple[str, ...]
    """The arguments after the program: they read the text from stdin and write it to stdout."""
    config: Path
    """The file whose settings chose it (`pyproject.toml`, `.prettierrc`, `go.mod`, ...)."""


def find_formatter(root: Path, path: Path) -> Formatter | None:
    """The formatter the project under `root` configures for `path`, or None.

    `path` (absolute, or relative to `root`) need not exist. The folders from the file's own up
    to `root` are searched in turn and the nearest config wins; a file outside `root` has none.
    """
    root = root.resolve()
    path = path if path.is_absolute() else root / path
    try:
        folder = path.parent.resolve().relative_to(root)
    except ValueError:
        return None
    folders = [root / folder, *(root / p for p in folder.parents)]
    suffix = path.suffix.lower()
    finder = _FINDERS.get(suffix)
    return None if finder is None else finder(folders, path)


def _python(folders: list[Path], path: Path) -> Formatter | None:
    for folder in folders:
        ruff_toml = _nearest([folder], ".ruff.toml", "ruff.toml")
        pyproject = folder / "pyproject.toml"
        tool = _table(_toml(pyproject) if pyproject.is_file() else None, "tool")
        ruff_table = tool.get("ruff")
        # A format section says the most; black beside a ruff section for linting formats.
        if ruff_toml is not None and "format" in (_toml(ruff_toml) or {}):
            return _ruff(path, ruff_toml)
        if isinstance(ruff_table, dict) and "format" in ruff_table:
            return _ruff(path, pyproject)
        if "black" in tool:
            args = ("-q", "--stdin-filename", str(path), "-")
            return Formatter("black", "black", args, pyproject)
        if ruff_toml is not None:
            return _ruff(path, ruff_toml)
        if ruff_table is not None:
            return _ruff(path, pyproject)
    return None


def _ruff(path: Path, config: Path) -> Formatter:
    return Formatter("ruff", "ruff", ("format", "--stdin-filename", str(path), "-"), config)


def _prettier(folders: list[Path], path: Path) -> Formatter | None:
    for folder in folders:
        config = next((folder / n for n in _PRETTIER_CONFIGS if (folder / n).is_file()), None)
        package = folder / "package.json"
        if config is None and package.is_file() and "prettier" in _json_object(package):
            config = package
        if config is not None:
            return Formatter("prettier", "prettier", ("--stdin-filepath", str(path)), config)
    return None


def _gofmt(folders: list[Path], path: Path) -> Formatter | None:
    module = _nearest(folders, "go.mod")
    return None if module is None else Formatter("gofmt", "gofmt", (), module)


def _rustfmt(folders: list[Path], path: Path) -> Formatter | None:
    manifest = _nearest(folders, "Cargo.toml")
    if manifest is None:
        return None
    config = _nearest(folders, "rustfmt.toml", ".rustfmt.toml") or manifest
    args = ("--emit", "stdout", "--edition", _edition(manifest, folders))
    return Formatter("rustfmt", "rustfmt", args, config)


def _edition(manifest: Path, folders: list[Path]) -> str:
    """The Rust edition a package's manifest sets (or inherits from its workspace)."""
    edition = _table(_toml(manifest), "package").get("edition")
    if isinstance(edition, dict) and edition.get("workspace"):
        for candidate in _all(folders[folders.index(manifest.parent) :], "Cargo.toml"):
            workspace = _table(_table(_toml(candidate), "workspace"), "package")
            if isinstance(workspace.get("edition"), str):
                return str(workspace["edition"])
    return edition if isinstance(edition, str) else "2015"  # cargo's default


def _clang_format(folders: list[Path], path: Path) -> Formatter | None:
    config = _nearest(folders, ".clang-format", "_clang-format")
    if config is None:
        return None
    return Formatter("clang-format", "clang-format", (f"--assume-filename={path}",), config)


def _nearest(folders: list[Path], *names: str) -> Path | None:
    return next(_all(folders, *names), None)


def _all(folders: list[Path], *names: str) -> Iterator[Path]:
    for folder in folders:
        for name in names:
            if (folder / name).is_file():
                yield folder / name


def _toml(path: Path) -> dict[str, Any] | None:
    """A TOML file's table; None when it cannot be read or parsed (a broken config is none)."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None


def _table(table: dict[str, Any] | None, key: str) -> dict[str, Any]:
    """`table[key]` when it is a table, else an empty one."""
    found = (table or {}).get(key)
    return found if isinstance(found, dict) else {}


def _json_object(path: Path) -> dict[str, Any]:
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


_FINDERS: dict[str, Callable[[list[Path], Path], Formatter | None]] = {
    **dict.fromkeys(PYTHON, _python),
    **dict.fromkeys(PRETTIER, _prettier),
    **dict.fromkeys(GO, _gofmt),
    **dict.fromkeys(RUST, _rustfmt),
    **dict.fromkeys(C_FAMILY, _clang_format),
}
