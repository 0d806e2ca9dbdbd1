"""Patches: parsing them (unified diffs and Codex-style patches) and placing one file's part.

`parse_patch` reads either form into `FilePatch` sections; `apply_file_patch` places a section's
hunks in a file's text (exact context first, then the line tiers `edit` uses) and `hunk_regions`
names the lines they rely on; `strip_to_existing` finds the files of a patch made for a tree
with more leading folders, as ``patch -p`` does.
"""

from edittools.tools.patch._names import strip_to_existing
from edittools.tools.patch._patch import (
    PATCH_TIERS,
    FilePatch,
    PatchHunk,
    apply_file_patch,
    hunk_regions,
    parse_patch,
)

__all__ = [
    "PATCH_TIERS",
    "FilePatch",
    "PatchHunk",
    "apply_file_patch",
    "hunk_regions",
    "parse_patch",
    "strip_to_existing",
]
