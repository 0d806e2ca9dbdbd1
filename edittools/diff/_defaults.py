"""Defaults of the engine's public functions, in a module that imports nothing.

A caller can name them before it loads the engine: a tree diff walks both trees while the
engine loads (see `line_diff_dirs`).
"""

DEFAULT_BUDGET = 1.0
"""Seconds the exact (minimal) diff may take before a coarser, still correct one is returned."""
RENAME_THRESHOLD = 0.5
"""Least similarity for a deleted and an added file to count as a rename (git's default)."""
