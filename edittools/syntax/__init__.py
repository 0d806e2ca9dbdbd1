"""Syntax checks of changed files with tree-sitter: which errors a change introduced.

The file's name picks its language (`language_of`); the grammar package of that language is
imported only when a file of it is first checked. `check_change` parses the old and the new text
and reports the errors only the new text has, within a time budget. `outline` finds a file's
definitions (`Symbol`s) in the languages of `SYMBOL_LANGUAGES`.
"""

from edittools.syntax._check import SyntaxCheck, check_change, unchecked
from edittools.syntax._languages import CHECKED_LANGUAGES, language_of
from edittools.syntax._symbols import SYMBOL_LANGUAGES, NoSymbols, Symbol, outline
from edittools.syntax._trees import OutOfTime

__all__ = [
    "CHECKED_LANGUAGES",
    "SYMBOL_LANGUAGES",
    "NoSymbols",
    "OutOfTime",
    "Symbol",
    "SyntaxCheck",
    "check_change",
    "language_of",
    "outline",
    "unchecked",
]
