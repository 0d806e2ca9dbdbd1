"""Where a formatter's executable is found: the environment edittools runs in, the project's
`node_modules/.bin`, then `PATH` (as the caller's environment has it)."""

from __future__ import annotations

import os
import shutil
import sysconfig
from collections.abc import Mapping
from pathlib import Path


def find_program(program: str, *, root: Path, folder: Path, env: Mapping[str, str]) -> str | None:
    """The executable `program` for a file in `folder` under `root`, or None when not found.

    The scripts folder of this interpreter's environment comes first (a formatter installed
    beside edittools, such as ruff in its virtualenv), then each `node_modules/.bin` from
    `folder` up to `root` (prettier as the project pins it), then `env`'s `PATH`.
    """
    places = [Path(sysconfig.get_path("scripts"))]
    places += [f / "node_modules" / ".bin" for f in [folder, *folder.parents] if _within(f, root)]
    for place in places:
        found = shutil.which(program, path=str(place))
        if found is not None:
            return found
    return shutil.which(program, path=env.get("PATH", os.defpath))


def _within(folder: Path, root: Path) -> bool:
    return folder == root or root in folder.parents
