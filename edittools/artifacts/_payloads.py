"""Payload models of the artifact protocol v1: one per artifact kind, plus their parts.

Models hold data only: no I/O and no rendering. Every model tolerates and keeps extra fields,
because hosts and newer producers may add some.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class WireModel(BaseModel):
    """Base of every protocol model: immutable, populated by name, extra fields kept."""

    model_config = ConfigDict(
        frozen=True,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        extra="allow",
        use_attribute_docstrings=True,
    )


class TextPayload(WireModel):
    """Plain text (also the payload of `markdown`)."""

    text: str
    """The text, shown as is (or rendered as Markdown for `markdown`)."""


class HtmlPayload(WireModel):
    """Untrusted HTML: hosts must sandbox it."""

    html: str
    """The HTML document or fragment."""


class JsonPayload(WireModel):
    """Arbitrary JSON data."""

    data: Any = None
    """Any JSON value."""


class CodePayload(WireModel):
    """A window of a source file, as shown by `read`."""

    text: str
    """The lines of the window, without line-number prefixes."""
    lang: str | None = None
    """Language name for syntax highlighting, when known."""
    filename: str | None = None
    """Path of the file relative to the sandbox root, `/`-separated."""
    start_line: int | None = None
    """1-based number of the first line shown."""
    end_line: int | None = None
    """1-based number of the last line shown."""
    total_lines: int | None = None
    """Number of lines in the whole file."""
    truncated: bool = False
    """True when the window does not show the whole file."""
    text_ref: str | None = None
    """Blob id of the whole content the window was cut from, when the sandbox keeps it. Where
    `text` is left out (empty: an MCP answer, whose text block already carries the window), the
    window is lines `start_line`..`end_line` of that content."""


class TablePayload(WireModel):
    """Rows of cells under named columns."""

    columns: list[str]
    """Column names, in display order."""
    rows: list[list[Any]]
    """One list of cells per row, in column order."""


class Attachment(WireModel):
    """Bytes kept in the blob store, referenced by an opaque id."""

    id: str
    """Opaque blob id to fetch the bytes with."""
    bytes: int
    """Size in bytes."""
    width: int | None = None
    """Width in pixels, for images."""
    height: int | None = None
    """Height in pixels, for images."""


class Image(WireModel):
    """One image: by attachment reference or inline base64."""

    mime: str
    """Media type, such as `image/png`."""
    attachment: Attachment | None = None
    """Reference to the stored bytes."""
    b64: str | None = None
    """The bytes inline, base64-encoded, when small enough."""


class ImagePayload(WireModel):
    """Images, with the path they were read from."""

    images: list[Image]
    """The images, usually one."""
    path: str | None = None
    """Path of the image file relative to the sandbox root."""


class ErrorPayload(WireModel):
    """A failure: stable code, a message saying what to do next, optional structured detail."""

    code: str
    """Stable machine-readable error code, never renamed."""
    message: str
    """A sentence telling the agent what went wrong and what to do next."""
    detail: Any = None
    """Structured detail (matches, closest lines, what changed), or null."""


class ChangedSpan(WireModel):
    """Characters of one line of a hunk that changed against the line it is paired with."""

    line: int
    """Index into the hunk's `lines` of a removed or added line."""
    start: int
    """First changed character, counted in Unicode code points of the text after the marker."""
    end: int
    """One past the last changed character (same counting as `start`)."""


class Hunk(WireModel):
    """One hunk of a line diff.

    Starts are 1-based (or name the line before an empty range) and null at snippet granularity.
    `lines` hold the marker (' ', '-', '+') then the line without its newline; a
    `\\ No newline at end of file` line follows a line that has no final newline.
    """

    old_start: int | None
    """First old line of the hunk; null when unknown (snippet granularity)."""
    old_lines: int
    """Number of old lines the hunk covers."""
    new_start: int | None
    """First new line of the hunk; null when unknown (snippet granularity)."""
    new_lines: int
    """Number of new lines the hunk covers."""
    lines: list[str]
    """Marked lines: ' ' context, '-' removed, '+' added."""
    heading: str | None = None
    """Function context, as git prints after the `@@` header: the nearest line above the hunk
    that opens a function, class or other section (for Python a `def` or `class` line; by
    default a line starting with a letter, `_` or `$`); null when none was found or looked for."""
    spans: list[ChangedSpan] | None = None
    """Word-level highlights: in each change block the removed and added lines are paired in
    order, and each pair's differing characters are listed here, in line order. A pair with
    nothing in common has none. Null when not computed (see `spans_skipped`)."""
    spans_skipped: Literal["long_lines", "large_hunk", "budget"] | None = None
    """Why `spans` are missing or incomplete: `long_lines` (some pair has a line over 1,000
    characters and was left out), `large_hunk` (over 1,000 lines: no spans), `budget` (the diff
    had spent its highlighting allowance; the rest of the hunk is left out); null otherwise."""


class DiffStats(WireModel):
    """Lines added and removed, counted from the hunks."""

    added: int
    """Number of '+' lines."""
    removed: int
    """Number of '-' lines."""


class Diagnostic(WireModel):
    """A finding about the changed file, such as a syntax error the change introduced."""

    line: int | None = None
    """1-based line in the new text where it starts; null for a note on the whole file."""
    column: int | None = None
    """1-based column (in characters) where it starts; null when not known."""
    end_line: int | None = None
    """1-based line where it ends; null when not known."""
    message: str
    """What is wrong, in one sentence."""
    severity: Literal["error", "warning", "info"] = "error"
    """`error` for a finding; `info` for a note, such as a check that was skipped."""
    source: str
    """What produced it, such as `syntax`."""


class DiffPayload(WireModel):
    """A change to one file."""

    path: str
    """Path relative to the sandbox root, `/`-separated (the new path of a rename)."""
    operation: Literal["create", "modify", "delete", "rename"] = "modify"
    """What happened to the file."""
    old_path: str | None = None
    """The old path of a rename."""
    similarity: int | None = None
    """How alike a rename's two contents are, in percent (as git's `-M`), when it was found by
    comparing them; null otherwise."""
    granularity: Literal["file", "snippet"] = "file"
    """`file` when built from full texts; `snippet` when only the edited strings were known."""
    old: str | None = None
    """Full old text; null when not captured or over the inline cap."""
    new: str | None = None
    """Full new text; null when not captured or over the inline cap."""
    truncated: bool = False
    """True when `old`/`new` were left out; fetch them by `old_ref`/`new_ref`."""
    old_ref: str | None = None
    """Opaque blob id of the full old text, when stored (`Session.blob`, or an MCP resource)."""
    new_ref: str | None = None
    """Opaque blob id of the full new text, when stored (`Session.blob`, or an MCP resource)."""
    binary: bool = False
    """True when the file is not text; hunks are then empty."""
    hunks: list[Hunk] = Field(default_factory=list)
    """The hunks, in file order."""
    unified: str = ""
    """Git-compatible unified diff text."""
    stats: DiffStats = Field(default_factory=lambda: DiffStats(added=0, removed=0))
    """Line counts computed from the hunks."""
    minimal: bool = True
    """False when a fast path gave a correct but not minimal diff."""
    match: str | None = None
    """How an edit's `old_string` was found: `exact` or the tolerance used."""
    diagnostics: list[Diagnostic] = Field(default_factory=list)
    """Findings about the new text, such as syntax errors the change introduced."""
    external: bool = False
    """True when the file was also changed outside the tools (in a net diff since a checkpoint)."""


class ChangesetPayload(WireModel):
    """A change over several files, all committed together."""

    files: list[DiffPayload]
    """One diff payload per file."""
    stats: DiffStats
    """Sum of the files' stats."""
