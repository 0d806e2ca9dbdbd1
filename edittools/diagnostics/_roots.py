"""The folder a language server takes as the project of a file: its workspace root."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def workspace_root(path: Path, markers: Sequence[str], *, bound: Path) -> Path:
    """The nearest folder above `path` holding one of `markers`, else one holding `.git`, else `bound`.

    The search never leaves `bound` (the sandbox root): a marker above it is not the project's.
    A file outside `bound` gets its own folder.
    """
    folder = path.parent
    try:
        folder.relative_to(bound)
    except ValueError:
        return folder
    chain = [folder, *folder.parents]
    chain = chain[: chain.index(bound) + 1] if bound in chain else [folder]
    for wanted in (tuple(markers), (".git",)):
        for candidate in chain:
            if any((candidate / marker).exists() for marker in wanted):
                return candidate
    return bound
