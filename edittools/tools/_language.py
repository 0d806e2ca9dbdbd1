"""A file's language for syntax colouring, guessed from its name."""

from __future__ import annotations

from pathlib import PurePosixPath

_BY_SUFFIX = {
    ".py": "python", ".pyi": "python", ".js": "javascript", ".mjs": "javascript",
    ".cjs": "javascript", ".jsx": "jsx", ".ts": "typescript", ".tsx": "tsx", ".json": "json",
    ".md": "markdown", ".rst": "rst", ".html": "html", ".htm": "html", ".css": "css",
    ".scss": "scss", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp",
    ".rs": "rust", ".go": "go", ".java": "java", ".kt": "kotlin", ".rb": "ruby", ".php": "php",
    ".sh": "bash", ".bash": "bash", ".zsh": "bash", ".toml": "toml", ".yaml": "yaml",
    ".yml": "yaml", ".xml": "xml", ".sql": "sql", ".swift": "swift", ".cs": "csharp",
    ".lua": "lua", ".r": "r", ".ini": "ini", ".cfg": "ini", ".txt": "text",
}  # fmt: skip
_BY_NAME = {"Makefile": "make", "Dockerfile": "dockerfile", "CMakeLists.txt": "cmake"}


def language_of(path: str) -> str | None:
    """The language name for `path`, or None when the name says nothing."""
    name = PurePosixPath(path).name
    if name in _BY_NAME:
        return _BY_NAME[name]
    return _BY_SUFFIX.get(PurePosixPath(name).suffix.lower())
