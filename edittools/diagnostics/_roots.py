"""The folder a language server takes as the project of a file: its workspace root."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path


def workspace_root(path: Path, markers: Sequence[str], *, bound: Path) -> Path:
    """The nearest folder above `path` holding one of `markers`, else one holding `.git`, else `bound`.

    The search never leaves `bound` (the sandbox root): a marker above it is not the project's.
    A file outside `bound` gets its own folder.
    """
    chain = _chain(path, bound)
    if chain is None:
        return path.parent
    for wanted in (tuple(markers), (".git",)):
        for candidate in chain:
            if any((candidate / marker).exists() for marker in wanted):
                return candidate
    return bound


def configured(path: Path, marks: Sequence[str], *, bound: Path) -> bool:
    """Whether a folder from `path`'s up to `bound` holds one of `marks`: a file, or a table of
    `pyproject.toml` written `pyproject.toml:tool.ruff` (a project's choice of a checker)."""
    chain = _chain(path, bound)
    return chain is not None and any(
        _marked(candidate, mark) for candidate in chain for mark in marks
    )


def _chain(path: Path, bound: Path) -> list[Path] | None:
    """The folders from `path`'s up to `bound`, nearest first; None when `path` is outside it."""
    folder = path.parent
    try:
        folder.relative_to(bound)
    except ValueError:
        return None
    chain = [folder, *folder.parents]
    return chain[: chain.index(bound) + 1] if bound in chain else [folder]


def _marked(folder: Path, mark: str) -> bool:
    name, _, table = mark.partition(":")
    if not table:
        return (folder / name).exists()
    try:
        data: object = tomllib.loads((folder / name).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    for key in table.split("."):
        if not isinstance(data, dict) or key not in data:
            return False
        data = data[key]
    return True
