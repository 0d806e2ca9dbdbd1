"""Messages in the words of the surface in use: its parameter names, commands and hints.

The tools word their hints and errors in the catalogue's names (`old_string`, `offset=`, `read`,
`write`, `replace_all`). A surface that names these otherwise, or lacks one, rewrites the
sentences the tools produce, so a model is never told to use a parameter its tool refuses.
Only message lines are rewritten: lines that show a file (numbered lines, diff lines) are
left exactly as they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from edittools.artifacts import ErrorArtifact, ToolResult

Replacement = str | Callable[[re.Match[str]], str]

_FILE_LINE = re.compile(r"\s*\d+\t|[-+ @\\]")
"""A line that shows a file: numbered (`   12\\t...`), or a diff line."""


@dataclass(frozen=True)
class Wording:
    """A surface's rewrites of the tools' sentences: (pattern, replacement) in order."""

    rewrites: tuple[tuple[re.Pattern[str], Replacement], ...] = ()

    def text(self, text: str) -> str:
        """`text` with every message line rewritten; file lines kept."""
        if not self.rewrites:
            return text
        lines = text.split("\n")
        for index, line in enumerate(lines):
            if line and not _FILE_LINE.match(line):
                for pattern, replacement in self.rewrites:
                    line = pattern.sub(replacement, line)
                lines[index] = line
        return "\n".join(lines)

    def result(self, result: ToolResult) -> ToolResult:
        """`result` with its value and error message in these words."""
        if not self.rewrites:
            return result
        update: dict[str, object] = {"value": self.text(result.value)}
        artifact = result.artifact
        if isinstance(artifact, ErrorArtifact):
            message = self.text(artifact.payload.message)
            payload = artifact.payload.model_copy(update={"message": message})
            update["artifact"] = artifact.model_copy(update={"payload": payload})
        return result.model_copy(update=update)


def _rules(*pairs: tuple[str, Replacement]) -> Wording:
    return Wording(tuple((re.compile(pattern), replacement) for pattern, replacement in pairs))


def _view_range_rest(match: re.Match[str]) -> str:
    return f"Use view_range=[{match[1]}, -1] to see more."


def _view_range_window(match: re.Match[str]) -> str:
    first, count = int(match[1]), int(match[2])
    return f"View a smaller range, e.g. view_range=[{first}, {first + count - 1}]."


def _tail_rest(match: re.Match[str]) -> str:
    last, total = int(match[2]), int(match[3])
    return f"[Showing lines {match[1]}-{last} of {total}. Use tail={total - last} to read the rest."


_NO_REPLACE_ALL = (r",? or set replace_all to change every match\.", ".")

PLAIN = Wording()
"""Our own surface: the tools' words as they are."""

TEXT_EDITOR = _rules(
    (r"Use offset=(\d+) to read more\.", _view_range_rest),
    (r"Read a smaller range, e\.g\. offset=(\d+) limit=(\d+)\.", _view_range_window),
    (r"read it in ranges with offset\s+and limit", "view it in parts with view_range"),
    _NO_REPLACE_ALL,
    (r"\bold_string\b", "old_str"),
    (r"\bnew_string\b", "new_str"),
    (r"\bRead (it|the file)\b", r"View \1"),
    (r"\b(has not been|last) read\b", r"\1 viewed"),
    (r"recorded as read, so you may write it", "recorded as viewed, so you may change it"),
    (r"create the file with write\b", "make it with the create command"),
    (r"\buse write to\b", "use create to"),
    (r"\bwith write, edit or apply_patch\b", "with create, str_replace or insert"),
)
"""The Anthropic text editor: `view`/`create`/`str_replace`, `old_str`, `view_range`."""

CLAUDE_CODE = _rules(
    (r"create the file with write\b", "create the file with Write"),
    (r"\buse write to\b", "use Write to"),
    (r"\bRead it (first|again)\b", r"Read it \1 with Read"),
    (r"\bwith write, edit or apply_patch\b", "with Write or Edit"),
)
"""Claude Code: `Read`, `Write`, `Edit`, with the catalogue's parameter names."""

MCP_FILESYSTEM = _rules(
    (r"\[Showing lines (\d+)-(\d+) of (\d+)\. Use offset=\d+ to read more\.", _tail_rest),
    (r"Read a smaller range, e\.g\. offset=\d+ limit=(\d+)\.", r"Read fewer lines, e.g. head=\1."),
    (r"read it in ranges with offset\s+and limit", "read parts of it with head or tail"),
    _NO_REPLACE_ALL,
    (r"\bold_string\b", "oldText"),
    (r"\bnew_string\b", "newText"),
    (r"create the file with write\b", "create the file with write_file"),
    (r"\buse write to\b", "use write_file to"),
    (r"\bRead it (first|again)\b", r"Read it \1 with read_text_file"),
    (r"\bwith write, edit or apply_patch\b", "with write_file or edit_file"),
)
"""The reference filesystem server: `read_text_file` (head/tail), `write_file`, `edit_file`."""

CODEX = _rules(
    (r"create the file with write\b", "add it with a '*** Add File:' section"),
    (r"\bwith write, edit or apply_patch\b", "with apply_patch"),
)
"""Codex: one `apply_patch` tool."""
