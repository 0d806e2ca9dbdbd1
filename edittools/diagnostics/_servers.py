"""The language servers the checks run, which files each covers, and where to find them.

A server is found in the project's own environment first (its `.venv/bin`, its
`node_modules/.bin`), then in the directories the caller adds, then in the environment edittools
runs in (`sys.prefix/bin`), then on `PATH`. A language none of whose servers is found has no
checker: the caller keeps its syntax check.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

LANGUAGE_OF_SUFFIX = {
    ".py": "python",
    ".pyi": "python",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "typescriptreact",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascriptreact",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hh": "cpp",
    ".hpp": "cpp",
    ".hxx": "cpp",
    ".go": "go",
}
"""The LSP language identifier of each file suffix the servers below check."""

_TYPESCRIPT = frozenset({"typescript", "typescriptreact", "javascript", "javascriptreact"})


@dataclass(frozen=True)
class ServerSpec:
    """One language server: how to start it, what it checks, and what marks its project's root."""

    name: str
    """The name the model sees beside each of its diagnostics (`[ruff]`)."""
    command: tuple[str, ...]
    """The executable's name and its arguments for LSP over stdio."""
    languages: frozenset[str]
    """The LSP language identifiers it checks."""
    root_markers: tuple[str, ...]
    """Files or folders whose presence marks the folder the server should take as its root."""
    diagnostics_via: Literal["lsp", "tsserver"] = "lsp"
    """How a version's diagnostics are asked for: `lsp` pulls them where the server offers
    `textDocument/diagnostic` and else waits for the push of that version; `tsserver` asks
    typescript-language-server's tsserver for them (the server pushes nothing for a clean file)."""
    initialization_options: dict[str, object] = field(default_factory=dict)
    """Sent in `initialize`."""
    settings: dict[str, object] = field(default_factory=dict)
    """Answers to the server's `workspace/configuration` by section: the fallbacks of settings
    the project's own files do not make (those win)."""
    configured_by: tuple[str, ...] = ()
    """What says a project uses this checker: a file (`ruff.toml`), or a table of
    `pyproject.toml` (`pyproject.toml:tool.ruff`)."""


_PYTHON_ROOTS = ("pyproject.toml", "setup.py", "setup.cfg", "pyrightconfig.json", "ruff.toml")

SERVERS: tuple[ServerSpec, ...] = (
    ServerSpec(
        "ruff",
        ("ruff", "server"),
        frozenset({"python"}),
        _PYTHON_ROOTS,
        configured_by=("ruff.toml", ".ruff.toml", "pyproject.toml:tool.ruff"),
    ),
    ServerSpec(
        "basedpyright",
        ("basedpyright-langserver", "--stdio"),
        frozenset({"python"}),
        _PYTHON_ROOTS,
        # basedpyright's own default ("recommended") reports what most projects do not check;
        # pyright's default is the fallback, a project's [tool.basedpyright] mode wins.
        settings={"basedpyright": {"analysis": {"typeCheckingMode": "standard"}}},
        configured_by=(
            "pyrightconfig.json",
            "pyproject.toml:tool.basedpyright",
            "pyproject.toml:tool.pyright",
        ),
    ),
    ServerSpec(
        "typescript",
        ("typescript-language-server", "--stdio"),
        _TYPESCRIPT,
        ("tsconfig.json", "jsconfig.json", "package.json"),
        diagnostics_via="tsserver",
        configured_by=("tsconfig.json", "jsconfig.json"),
    ),
    ServerSpec(
        "clangd",
        ("clangd", "--log=error", "--background-index=false"),
        frozenset({"c", "cpp"}),
        ("compile_commands.json", "compile_flags.txt", ".clangd"),
        configured_by=("compile_commands.json", "compile_flags.txt", ".clangd"),
    ),
    ServerSpec(
        "gopls", ("gopls",), frozenset({"go"}), ("go.work", "go.mod"), configured_by=("go.mod",)
    ),
)
"""The servers checked files go to, every one found for the file's language."""


def language_of(path: Path) -> str | None:
    """The LSP language identifier of `path`, or None if no server here checks its kind."""
    return LANGUAGE_OF_SUFFIX.get(path.suffix.lower())


def servers_for(language: str, servers: Sequence[ServerSpec] = SERVERS) -> list[ServerSpec]:
    """The servers that check `language`, in the order of `servers`."""
    return [spec for spec in servers if language in spec.languages]


def search_dirs(root: Path, extra: Sequence[Path], environment: Path | None) -> list[Path]:
    """The folders searched for a server's executable, before `PATH`, most local first."""
    local = [root / ".venv" / "bin", root / "node_modules" / ".bin"]
    runs_in = [environment if environment is not None else Path(sys.prefix) / "bin"]
    return [*local, *extra, *runs_in]


def find_executable(name: str, dirs: Sequence[Path]) -> Path | None:
    """The executable `name` in the first of `dirs` that holds it, else on `PATH`, else None."""
    for folder in dirs:
        candidate = folder / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            # Absolute: the server starts in its root, where a relative path means another file.
            return candidate.absolute()
    found = shutil.which(name)
    return Path(found).absolute() if found else None
