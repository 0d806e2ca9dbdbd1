"""Terminal views of tool results (rich): diffs, code, text, errors, changesets, images, stats.

Every view is a rich renderable built from a model; input text is turned into `Text` objects
and never parsed as rich markup. Colour follows the console: rich turns it off when output is
not a terminal or `NO_COLOR` is set.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.markdown import Markdown
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from edittools.artifacts import (
    PROTOCOL_VERSION,
    ChangesetPayload,
    CodePayload,
    Diagnostic,
    DiffPayload,
    ErrorPayload,
    FutureArtifact,
    ImagePayload,
    JsonPayload,
    StreamEvent,
    TablePayload,
    TextPayload,
    ToolResult,
)
from edittools.diff import hunk_header
from edittools.render._hunks import (
    classify_unified,
    diagnostic_text,
    diagnostics_on_hunks,
    hunks_of,
    marks_of,
)
from edittools.render._sanitize import segments, visible

_ROLE_STYLE = {
    "header": "bold dim",
    "hunk": "cyan",
    "context": "",
    "add": "green",
    "remove": "red",
    "note": "dim",
}


def diff_labels(payload: DiffPayload) -> list[str]:
    """Return the words that qualify a diff beyond its stats, in display order.

    `snippet` for a snippet-level diff, the operation when it is not a plain modification,
    `binary`, the match tolerance when the edit did not match exactly, `non-minimal`, and
    `texts not kept` when the full texts are neither inline nor kept by reference (texts left
    out but fetchable by `old_ref`/`new_ref` are no loss: the diff is whole either way), and
    `changed outside the tools` for a net review's file that something else changed too.
    """
    labels: list[str] = []
    if payload.granularity == "snippet":
        labels.append("snippet")
    if payload.operation == "rename":
        alike = "" if payload.similarity is None else f" ({payload.similarity}% alike)"
        labels.append(f"rename {payload.old_path or '?'} -> {payload.path}{alike}")
    elif payload.operation == "create":
        labels.append("new file")
    elif payload.operation == "delete":
        labels.append("deleted")
    if payload.binary:
        labels.append("binary")
    if payload.match and payload.match != "exact":
        labels.append(f"match: {payload.match}")
    if not payload.minimal:
        labels.append("non-minimal")
    kept = payload.old_ref is not None or payload.new_ref is not None
    if payload.truncated and not kept and payload.granularity != "snippet":
        labels.append("texts not kept")  # the diff is whole; the files' full texts are not
    if payload.external:
        labels.append("changed outside the tools")
    return labels


def diff_header(payload: DiffPayload) -> Text:
    """Return the one-line header of a diff: `path  +N -M` then its labels."""
    header = Text()
    header.append(visible(payload.path), style="bold")
    if not payload.binary:
        header.append("  ")
        header.append(f"+{payload.stats.added}", style="green")
        header.append(" ")
        header.append(f"-{payload.stats.removed}", style="red")
    for label in diff_labels(payload):
        header.append("  ")
        header.append(visible(label), style="yellow")
    return header


class DiffView:
    """A diff payload as its header and the coloured unified diff."""

    def __init__(self, payload: DiffPayload) -> None:
        self.payload = payload

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield diff_header(self.payload)
        hunks = hunks_of(self.payload)
        placed, loose = diagnostics_on_hunks(self.payload.diagnostics, hunks)
        yield from (_diagnostic_line(d) for d in loose)
        placed.append([])  # so that "the hunk before the first" and any extra hunk have none
        marks = [marks_of(h) for h in hunks]
        hunk = -1  # each hunk's diagnostics follow its last line
        at = 0  # index of the line in its hunk
        for role, line in _unified_lines(self.payload):
            if role == "hunk":
                yield from (_diagnostic_line(d) for d in placed[hunk])
                hunk = min(hunk + 1, len(placed) - 1)
                at = 0
            elif 0 <= hunk < len(hunks):
                ranges = marks[hunk].get(at)
                same = at < len(hunks[hunk].lines) and hunks[hunk].lines[at] == line
                at += 1
                if ranges and same:
                    yield _marked_line(line, ranges, _ROLE_STYLE[role])
                    continue
            yield Text(visible(line), style=_ROLE_STYLE[role], no_wrap=False)
        yield from (_diagnostic_line(d) for d in placed[hunk])


def _marked_line(line: str, ranges: list[tuple[int, int]], style: str) -> Text:
    """A removed or added line with its changed words in reverse video."""
    text = Text(line[:1], style=style, no_wrap=False)
    for piece, marked in segments(line[1:], ranges):
        text.append(piece, style=f"{style} reverse" if marked else style)
    return text


def _diagnostic_line(diagnostic: Diagnostic) -> Text:
    style = "bold red" if diagnostic.severity == "error" else "yellow"
    return Text("! " + visible(diagnostic_text(diagnostic)), style=style)


def _unified_lines(payload: DiffPayload) -> list[tuple[str, str]]:
    if payload.unified:
        return list(classify_unified(payload.unified))
    lines: list[tuple[str, str]] = []
    for hunk in payload.hunks:
        lines.append(("hunk", hunk_header(hunk)))
        for line in hunk.lines:
            marker = line[:1]
            role = {"+": "add", "-": "remove", "\\": "note"}.get(marker, "context")
            lines.append((role, line))
    return lines


class ChangesetView:
    """A change over several files: a summary line, then one diff section per file."""

    def __init__(self, payload: ChangesetPayload) -> None:
        self.payload = payload

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        files = len(self.payload.files)
        summary = Text(f"changeset: {files} file{'s' if files != 1 else ''}  ", style="bold")
        summary.append(f"+{self.payload.stats.added}", style="green")
        summary.append(" ")
        summary.append(f"-{self.payload.stats.removed}", style="red")
        yield summary
        for index, payload in enumerate(self.payload.files):
            if index:
                yield Text("")
            yield DiffView(payload)


def code_view(payload: CodePayload) -> RenderableType:
    """Return a code payload as numbered, syntax-coloured lines, with where it sits in the file."""
    text = visible(payload.text)
    lexer = payload.lang or (
        Syntax.guess_lexer(payload.filename, text) if payload.filename else "text"
    )
    syntax = Syntax(
        text.removesuffix("\n"),
        lexer,
        line_numbers=True,
        start_line=payload.start_line or 1,
        word_wrap=True,
        theme="ansi_dark",
    )
    caption = _code_caption(payload)
    return Group(caption, syntax) if caption.plain else syntax


def _code_caption(payload: CodePayload) -> Text:
    caption = Text(style="dim")
    if payload.filename:
        caption.append(visible(payload.filename), style="bold")
    if payload.start_line is not None and payload.end_line is not None:
        of_total = f" of {payload.total_lines}" if payload.total_lines is not None else ""
        caption.append(f"  lines {payload.start_line}-{payload.end_line}{of_total}")
    if payload.truncated:
        caption.append("  truncated")
    return caption


def error_view(payload: ErrorPayload) -> Text:
    """Return an error as `error <code>: <message>` in red."""
    text = Text(style="red")
    text.append("error ", style="bold red")
    text.append(visible(payload.code), style="bold red")
    text.append(": ")
    text.append(visible(payload.message))
    return text


def image_line(payload: ImagePayload) -> Text:
    """Return a one-line description of images: path, type, size in pixels and bytes."""
    parts: list[str] = []
    for image in payload.images:
        part = image.mime
        attachment = image.attachment
        if attachment is not None:
            if attachment.width is not None and attachment.height is not None:
                part += f" {attachment.width}x{attachment.height}"
            part += f" {attachment.bytes} bytes"
        elif image.b64 is not None:
            part += f" {len(image.b64) * 3 // 4} bytes inline"
        parts.append(part)
    text = Text("image", style="magenta")
    if payload.path:
        text.append(" ")
        text.append(visible(payload.path), style="bold")
    if parts:
        text.append(": " + visible(", ".join(parts)))
    return text


def _table_view(columns: list[str], rows: list[list[Any]]) -> Table:
    table = Table()
    # Headers go through add_column: Table(*headers) takes only strings and Column objects.
    for column in columns:
        table.add_column(Text(visible(str(column))))
    for row in rows:
        table.add_row(*(Text(visible(_cell(c))) for c in row))
    return table


def _cell(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


class ResultView:
    """A ToolResult or stream event shown by its artifact kind, falling back to its text value."""

    def __init__(self, result: ToolResult | StreamEvent) -> None:
        self.result = result

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        result = self.result
        if isinstance(result, StreamEvent):
            title = Text("● ", style="dim")
            title.append(visible(result.name), style="bold")
            title.append(f"  {visible(result.id)}", style="dim")
            yield title
        yield self._body()

    def _body(self) -> RenderableType:
        result = self.result
        artifact = result.artifact
        # A later protocol version may mean other things by the same fields: show the value.
        if (
            artifact is None
            or isinstance(artifact, FutureArtifact)
            or artifact.version != PROTOCOL_VERSION
        ):
            style = "red" if result.is_error else ""
            return Text(visible(result.value), style=style)
        payload = artifact.payload
        if isinstance(payload, DiffPayload):
            return DiffView(payload)
        if isinstance(payload, ChangesetPayload):
            return ChangesetView(payload)
        if isinstance(payload, ErrorPayload):
            return error_view(payload)
        if isinstance(payload, CodePayload):
            return code_view(payload)
        if isinstance(payload, ImagePayload):
            return image_line(payload)
        if isinstance(payload, TextPayload):
            if artifact.kind == "markdown":
                return Markdown(visible(payload.text), hyperlinks=False)
            return Text(visible(payload.text), style="red" if result.is_error else "")
        if isinstance(payload, TablePayload):
            return _table_view(payload.columns, payload.rows)
        if isinstance(payload, JsonPayload):
            return Text(visible(json.dumps(payload.data, indent=2, ensure_ascii=False)))
        # html is untrusted markup: show the source, never interpret it.
        return Text(visible(payload.html), style="dim")


def render_result(result: ToolResult | StreamEvent, console: Console) -> None:
    """Print a ToolResult or stream event to `console` in the form that suits its artifact."""
    console.print(ResultView(result), highlight=False)


class StatView:
    """Per-file change counts and bars, like `git diff --stat`, with a summary line."""

    def __init__(self, payloads: Iterable[DiffPayload]) -> None:
        self.payloads = list(payloads)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        names = [visible(_stat_name(p)) for p in self.payloads]
        counts = [
            "Bin" if p.binary else str(p.stats.added + p.stats.removed) for p in self.payloads
        ]
        name_width = max((len(n) for n in names), default=0)
        count_width = max((len(c) for c in counts), default=0)
        most = max((p.stats.added + p.stats.removed for p in self.payloads), default=0)
        bar_room = max(options.max_width - name_width - count_width - 5, 10)
        for payload, name, count in zip(self.payloads, names, counts, strict=True):
            line = Text(f" {name.ljust(name_width)} | {count.rjust(count_width)}")
            plus, minus = (
                (0, 0)
                if payload.binary
                else _bar(payload.stats.added, payload.stats.removed, most, bar_room)
            )
            if plus or minus:
                line.append(" ")
                line.append("+" * plus, style="green")
                line.append("-" * minus, style="red")
            yield line
        yield Text(" " + stat_summary(self.payloads))


def _stat_name(payload: DiffPayload) -> str:
    if payload.operation == "rename" and payload.old_path:
        return f"{payload.old_path} => {payload.path}"
    return payload.path


def _bar(added: int, removed: int, most: int, room: int) -> tuple[int, int]:
    """Scale a file's +/- bar to the room left, keeping a non-zero side visible (as git does)."""
    if most <= room:
        return added, removed
    total = added + removed
    width = max(1, total * room // most) if total else 0
    plus = added * width // total if total else 0
    if added and not plus:
        plus = 1
    minus = width - plus
    if removed and not minus:
        minus = 1
        plus = max(plus - 1, 1 if added else 0)
    return plus, minus


def stat_summary(payloads: Iterable[DiffPayload]) -> str:
    """Return git's summary line: `N files changed, A insertions(+), R deletions(-)`."""
    items = list(payloads)
    added = sum(p.stats.added for p in items)
    removed = sum(p.stats.removed for p in items)
    parts = [f"{len(items)} file{'' if len(items) == 1 else 's'} changed"]
    if added or not removed:
        parts.append(f"{added} insertion{'' if added == 1 else 's'}(+)")
    if removed or not added:
        parts.append(f"{removed} deletion{'' if removed == 1 else 's'}(-)")
    return ", ".join(parts)


def render_stat(payloads: Iterable[DiffPayload], console: Console) -> None:
    """Print a `git diff --stat` style summary of diff payloads to `console`."""
    console.print(StatView(payloads), highlight=False)
