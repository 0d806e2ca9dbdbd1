"""A patch's file names as the tree holds them: leading folders removed, as ``patch -p`` does."""

from __future__ import annotations

from dataclasses import replace

from edittools.diff import FilePatch, strip_components
from edittools.state import Workspace
from sandbox import SandboxError


def strip_to_existing(ws: Workspace, patches: list[FilePatch]) -> tuple[list[FilePatch], int]:
    """Find the files of a patch written for a tree with more leading folders, as ``patch -p``.

    When a file the patch changes or deletes is missing, the fewest leading folders whose
    removal makes every such file exist are removed from every name in the patch. Returns the
    patches and how many folders were removed (0: the names stand as written).
    """
    changed = [patch for patch in patches if patch.op != "add"]
    if all(_exists(ws, patch.path) for patch in changed):
        return patches, 0
    depth = min(patch.path.count("/") for patch in changed)
    for count in range(1, depth + 1):
        if all(_exists(ws, _drop(patch.path, count)) for patch in changed):
            return [_moved(patch, count) for patch in patches], count
    return patches, 0


def _moved(patch: FilePatch, count: int) -> FilePatch:
    move_to = None if patch.move_to is None else _drop(patch.move_to, count)
    return replace(patch, path=_drop(patch.path, count), move_to=move_to)


def _drop(path: str, count: int) -> str:
    # A name too short to lose `count` folders keeps its file name.
    return strip_components(path, count) or path.rsplit("/", 1)[-1]


def _exists(ws: Workspace, path: str) -> bool:
    try:
        return ws.sandbox.exists(path)
    except SandboxError:
        return False  # outside the root or denied: staging reports it in full
