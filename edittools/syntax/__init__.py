"""Syntax checks of changed files with tree-sitter: which errors a change introduced.

The file's name picks its language (`language_of`); the grammar package of that language is
imported only when a file of it is first checked. `check_change` parses the old and the new text
and reports the errors only the new text has; `warm_up` parses a file just read in the background,
so that its first change finds a tree to start from, while no tool call (`in_call`) runs.
"""

from edittools.syntax._check import SyntaxCheck, check_change, unchecked
from edittools.syntax._languages import CHECKED_LANGUAGES, language_of
from edittools.syntax._warming import in_call, warm_up

__all__ = [
    "CHECKED_LANGUAGES",
    "SyntaxCheck",
    "check_change",
    "in_call",
    "language_of",
    "unchecked",
    "warm_up",
]
