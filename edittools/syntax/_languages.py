"""A file's language, guessed from its name, and the grammar package that parses it: one table."""

from __future__ import annotations

import functools
import importlib
import os
import threading
from pathlib import PurePosixPath

from tree_sitter import Language, Query

_BY_SUFFIX = {
    ".py": "python", ".pyi": "python", ".js": "javascript", ".mjs": "javascript",
    ".cjs": "javascript", ".jsx": "jsx", ".ts": "typescript", ".mts": "typescript",
    ".cts": "typescript", ".tsx": "tsx", ".json": "json",
    ".md": "markdown", ".markdown": "markdown", ".rst": "rst", ".html": "html", ".htm": "html",
    ".css": "css", ".scss": "scss", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp",
    ".cxx": "cpp", ".hh": "cpp", ".hpp": "cpp", ".hxx": "cpp",
    ".rs": "rust", ".go": "go", ".java": "java", ".kt": "kotlin", ".rb": "ruby", ".php": "php",
    ".sh": "bash", ".bash": "bash", ".zsh": "bash", ".toml": "toml", ".yaml": "yaml",
    ".yml": "yaml", ".xml": "xml", ".sql": "sql", ".swift": "swift", ".cs": "csharp",
    ".lua": "lua", ".r": "r", ".ini": "ini", ".cfg": "ini", ".txt": "text",
}  # fmt: skip
_BY_NAME = {
    "Makefile": "make", "Dockerfile": "dockerfile", "CMakeLists.txt": "cmake",
    "Gemfile": "ruby", "Rakefile": "ruby", "Cargo.lock": "toml", "Pipfile": "toml",
}  # fmt: skip

# Languages with a grammar: the package (a wheel that ships the compiled grammar) and the
# function in it that returns the language. JSX parses with the JavaScript grammar.
_GRAMMARS = {
    "python": ("tree_sitter_python", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "jsx": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "json": ("tree_sitter_json", "language"),
    "yaml": ("tree_sitter_yaml", "language"),
    "toml": ("tree_sitter_toml", "language"),
    "html": ("tree_sitter_html", "language"),
    "css": ("tree_sitter_css", "language"),
    "go": ("tree_sitter_go", "language"),
    "rust": ("tree_sitter_rust", "language"),
    "c": ("tree_sitter_c", "language"),
    "cpp": ("tree_sitter_cpp", "language"),
    "java": ("tree_sitter_java", "language"),
    "ruby": ("tree_sitter_ruby", "language"),
    "bash": ("tree_sitter_bash", "language"),
    "markdown": ("tree_sitter_markdown", "language"),
}

# Nodes a grammar accepts empty although the language does not, captured under the name that
# says what is wrong: tree-sitter's Python grammar takes a body that lost its indentation for an
# empty block, without an ERROR node.
_MUST_NOT_BE_EMPTY = {"python": "(block) @expected_an_indented_block"}

# Languages whose statements a change can be re-checked by alone (see `_fragments`): Python's
# blocks are lines at one indentation, so a statement's lines parse on their own.
_FRAGMENTS = frozenset({"python"})

CHECKED_LANGUAGES = frozenset(_GRAMMARS)
"""Names of the languages whose syntax can be checked."""

_loaded: dict[str, Language] = {}
_queries: dict[str, Query] = {}
_loading = threading.Lock()


def _forked() -> None:
    # Another thread of the host may have been loading a grammar when the process forked.
    global _loading
    _loading = threading.Lock()


os.register_at_fork(after_in_child=_forked)


@functools.lru_cache(maxsize=1024)  # asked several times a call, of the same few paths
def language_of(path: str) -> str | None:
    """The language name for `path`, or None when the name says nothing."""
    name = PurePosixPath(path).name
    if name in _BY_NAME:
        return _BY_NAME[name]
    return _BY_SUFFIX.get(PurePosixPath(name).suffix.lower())


def grammar(language: str) -> Language | None:
    """The grammar of `language`, imported on first use; None when there is none."""
    found = _loaded.get(language)
    if found is not None or language not in _GRAMMARS:
        return found
    module_name, function = _GRAMMARS[language]
    with _loading:
        if language not in _loaded:
            try:
                module = importlib.import_module(module_name)
                _loaded[language] = Language(getattr(module, function)())
            except (ImportError, ValueError):
                # A missing grammar, or one built for another ABI: no check rather than a
                # failing tool.
                return None
    return _loaded[language]


def checks_fragments(language: str) -> bool:
    """Whether a change of `language` may be checked on the statement it touched alone."""
    return language in _FRAGMENTS


def empty_nodes_query(language: str) -> Query | None:
    """A query that captures the nodes of `language` that are errors when empty, if any."""
    source = _MUST_NOT_BE_EMPTY.get(language)
    found = _queries.get(language)
    if source is None or found is not None:
        return found
    compiled = grammar(language)
    if compiled is None:
        return None
    with _loading:
        return _queries.setdefault(language, Query(compiled, source))
