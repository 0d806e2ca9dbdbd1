"""Syntax checks of changed files with tree-sitter: which errors a change introduced.

The file's name picks its language (`language_of`); the grammar package of that language is
imported only when a file of it is first checked. `check_change` parses the old and the new text
and reports the errors only the new text has, within a time budget.
"""

from edittools.syntax._check import SyntaxCheck, check_change, unchecked
from edittools.syntax._languages import CHECKED_LANGUAGES, language_of

__all__ = [
    "CHECKED_LANGUAGES",
    "SyntaxCheck",
    "check_change",
    "language_of",
    "unchecked",
]
