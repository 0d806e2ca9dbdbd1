"""The static HTML report: one self-contained page with a card per tool result.

Each change is a diff card (path, `+N -M`, granularity, operation, unified and side-by-side
views, syntax colouring); an error card lays out its message (closest lines as code, the hint
as text) with the raw detail folded away; an image card shows the image; other kinds get
simple cards. Every piece of input text is
made visible (`visible`) and then escaped; attribute values are chosen from fixed sets or built
from counters, never taken from input.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from html import escape
from typing import Any

from pygments.lexer import Lexer

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
from edittools.render._errors import error_body
from edittools.render._hunks import (
    Row,
    diagnostic_text,
    diagnostics_on_hunks,
    hunk_rows,
    hunks_of,
    split_pairs,
)
from edittools.render._images import ImageLoader, figures
from edittools.render._page import page
from edittools.render._sanitize import visible
from edittools.render._syntax import highlight_lines, lexer_for
from edittools.render._terminal import diff_labels, image_line

_OPERATIONS = {"create", "modify", "delete", "rename"}
_ROW_CLASS = {"context": "ctx", "add": "add", "remove": "del", "note": "note"}
_MARKER = {"context": " ", "add": "+", "remove": "-", "note": ""}


def _text(value: str) -> str:
    return escape(visible(value), quote=True)


@dataclass
class _Report:
    """Counts gathered while the cards are built, for the summary and the file list."""

    max_lines: int
    load_image: ImageLoader | None = None
    prefix: str = "card"
    cards: int = 0
    added: int = 0
    removed: int = 0
    errors: int = 0
    paths: list[tuple[str, str]] = field(default_factory=list)  # (card id, escaped path)

    def next_id(self) -> str:
        self.cards += 1
        return f"{self.prefix}-{self.cards}"


def render_report(
    events: Iterable[ToolResult | StreamEvent],
    *,
    title: str,
    max_lines: int = 5000,
    load_image: ImageLoader | None = None,
    net: ToolResult | None = None,
) -> str:
    """Return a self-contained HTML page showing each result as a card, with a summary.

    The page loads nothing from anywhere; its Content-Security-Policy admits only its own style
    sheet and script, and images inlined as ``data:`` URIs. Diffs longer than `max_lines` rows
    are cut with a note saying how much. `load_image` returns an image attachment's bytes by
    its id (e.g. from the state's blob store); without it, attached images show their text.
    With `net` (the result of `Session.changes`) the page has a second view beside the
    step-by-step cards: the net change of each file.
    """
    return report_page(events, title=title, max_lines=max_lines, load_image=load_image, net=net)[0]


@dataclass(frozen=True)
class ReportCounts:
    """The counts a report page's summary shows, for a caller to repeat them word for word."""

    files: int
    changes: int
    added: int
    removed: int
    errors: int
    results: int

    def sentence(self) -> str:
        """The summary as plain text: ``2 files changed in 3 changes, +5 -1, 0 errors, 4 results``."""
        return (
            f"{_plural(self.files, 'file')} changed in {_plural(self.changes, 'change')}, "
            f"+{self.added} -{self.removed}, {_plural(self.errors, 'error')}, "
            f"{_plural(self.results, 'result')}"
        )


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def report_page(
    events: Iterable[ToolResult | StreamEvent],
    *,
    title: str,
    max_lines: int = 5000,
    load_image: ImageLoader | None = None,
    net: ToolResult | None = None,
) -> tuple[str, ReportCounts]:
    """Like `render_report`, and the counts its summary shows (those of the steps)."""
    report = _Report(max_lines=max_lines, load_image=load_image)
    cards = [_result_card(event, report) for event in events]
    counts = ReportCounts(
        files=len({path for _, path in report.paths}),
        changes=len(report.paths),
        added=report.added,
        removed=report.removed,
        errors=report.errors,
        results=len(cards),
    )
    files, changes, errors = counts.files, counts.changes, counts.errors
    summary = (
        f'<p class="summary"><span class="files">{files} file{"" if files == 1 else "s"}</span>'
        f' changed in <span class="changes">{changes}</span>'
        f" change{'' if changes == 1 else 's'}, "
        f'<span class="count-add">+{counts.added}</span> '
        f'<span class="count-del">-{counts.removed}</span>, '
        f'<span class="errors">{errors}</span> error{"" if errors == 1 else "s"}, '
        f'<span class="results">{len(cards)}</span> result{"" if len(cards) == 1 else "s"}</p>'
    )
    toc = "".join(f'<li><a href="#{cid}">{path}</a></li>' for cid, path in report.paths)
    toolbar = (
        '<div class="toolbar"><button type="button" data-set-view="unified">Unified</button>'
        '<button type="button" data-set-view="split">Side by side</button></div>'
    )
    main = "\n".join(cards)
    if net is not None:
        toolbar += (
            '<div class="toolbar panes"><button type="button" data-set-pane="steps">Step by step'
            '</button><button type="button" data-set-pane="net">Net changes</button></div>'
        )
        main = (
            f'<section class="pane" id="steps" data-pane="steps">\n{main}\n</section>\n'
            f"{_net_pane(net, max_lines)}"
        )
    body = (
        f"<header><h1>{_text(title)}</h1>{summary}"
        f"{f'<ol class=toc>{toc}</ol>' if toc else ''}{toolbar}</header>\n"
        "<main>\n" + main + "\n</main>"
    )
    return page(title_html=_text(title), body_html=body), counts


def _net_pane(net: ToolResult, max_lines: int) -> str:
    """The net-changes view: one card per file, its content at the checkpoint against now."""
    report = _Report(max_lines=max_lines, prefix="net")
    payload = getattr(net.artifact, "payload", None)
    if isinstance(payload, ChangesetPayload) and not net.is_error:
        files = payload.files
        lead = net.value.splitlines()[0] if net.value else ""
        body = "".join(_diff_card(file, report, "") for file in files)
        if not files:
            body = '<p class="note">No changes.</p>'
    else:  # a failed review (an unknown checkpoint...): its message, as any other result
        lead, body = "", _result_card(net, report)
    note = f'<p class="note">{_text(lead)}</p>' if lead else ""
    return (
        f'<section class="pane" id="net" data-pane="net"><h2 class="pane-title">Net changes</h2>'
        f"{note}{body}</section>"
    )


def _result_card(result: ToolResult | StreamEvent, report: _Report) -> str:
    tool = ""
    if isinstance(result, StreamEvent):
        tool = f'<span class="tool">{_text(result.name)} · {_text(result.id)}</span>'
    artifact = result.artifact
    failed = result.is_error or (artifact is not None and artifact.kind == "error")
    report.errors += failed
    if (
        artifact is None
        or isinstance(artifact, FutureArtifact)
        or artifact.version != PROTOCOL_VERSION
    ):
        note = ""
        if artifact is not None:
            note = f"artifact version {int(artifact.version)} is not shown; its text follows"
        kind = "error" if failed else "text"
        return _simple_card(kind, "error" if failed else "result", tool, _pre(result.value), note)
    payload = artifact.payload
    if isinstance(payload, DiffPayload):
        return _diff_card(payload, report, tool)
    if isinstance(payload, ChangesetPayload):
        return _changeset(payload, report, tool)
    heading = artifact.title or artifact.kind
    if isinstance(payload, ErrorPayload):
        body = error_body(payload.message, payload.detail)
        return _simple_card("error", f"error {payload.code}", tool, body)
    if isinstance(payload, CodePayload):
        return _simple_card("code", payload.filename or heading, tool, _code_table(payload))
    if isinstance(payload, ImagePayload):
        shown = figures(payload, report.load_image)
        return _simple_card(
            "image", payload.path or heading, tool, shown + _pre(image_line(payload).plain)
        )
    if isinstance(payload, TextPayload):
        return _simple_card(artifact.kind, heading, tool, _pre(payload.text))
    if isinstance(payload, JsonPayload):
        return _simple_card("json", heading, tool, _pre(_json(payload.data)))
    if isinstance(payload, TablePayload):
        return _simple_card("table", heading, tool, _grid(payload))
    return _simple_card("html", heading, tool, _pre(payload.html), "HTML source, not rendered")


def _simple_card(kind: str, heading: str, tool: str, body: str, note: str = "") -> str:
    # `kind` comes from the fixed set of artifact kinds the caller matched on.
    note_html = f'<p class="note">{_text(note)}</p>' if note else ""
    return (
        f'<article class="card {kind}"><div class="card-head">{tool}'
        f"<h2>{_text(heading)}</h2></div>{note_html}{body}</article>"
    )


def _pre(text: str) -> str:
    return f'<pre class="text">{_text(text)}</pre>'


def _json(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False, default=str)


def _grid(payload: TablePayload) -> str:
    head = "".join(f"<th>{_text(str(c))}</th>" for c in payload.columns)
    rows = "".join(
        "<tr>"
        + "".join(f"<td>{_text(c if isinstance(c, str) else _json(c))}</td>" for c in row)
        + "</tr>"
        for row in payload.rows
    )
    return f'<table class="grid"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'


def _code_table(payload: CodePayload) -> str:
    lines = visible(payload.text).removesuffix("\n").split("\n")
    coloured = highlight_lines(lines, lexer_for(filename=payload.filename, lang=payload.lang))
    start = payload.start_line or 1
    rows = "".join(
        f'<tr><td class="num">{start + i}</td><td class="code">{html}</td></tr>'
        for i, html in enumerate(coloured)
    )
    return f'<table class="lines code">{rows}</table>'


def _changeset(payload: ChangesetPayload, report: _Report, tool: str) -> str:
    count = len(payload.files)
    heading = (
        f"<h2>{tool + ' ' if tool else ''}changeset: {count} file{'' if count == 1 else 's'} "
        f'<span class="count-add">+{payload.stats.added}</span> '
        f'<span class="count-del">-{payload.stats.removed}</span></h2>'
    )
    cards = "".join(_diff_card(file, report, "") for file in payload.files)
    return f'<section class="changeset">{heading}{cards}</section>'


def _diff_card(payload: DiffPayload, report: _Report, tool: str) -> str:
    card_id = report.next_id()
    path = _text(payload.path)
    report.paths.append((card_id, path))
    report.added += payload.stats.added
    report.removed += payload.stats.removed
    operation = payload.operation if payload.operation in _OPERATIONS else "modify"
    granularity = "snippet" if payload.granularity == "snippet" else "file"
    badges = [
        f'<span class="badge granularity-{granularity}">{granularity}</span>',
        f'<span class="badge operation-{operation}">{operation}</span>',
    ]
    badges += [
        f'<span class="badge warn">{_text(label)}</span>'
        for label in diff_labels(payload)
        if label != "snippet"
    ]
    stats = (
        ""
        if payload.binary
        else f'<span class="count-add">+{int(payload.stats.added)}</span> '
        f'<span class="count-del">-{int(payload.stats.removed)}</span>'
    )
    head = f'<div class="card-head">{tool}<h2>{path}</h2>{stats}{"".join(badges)}</div>'
    return (
        f'<article class="card diff" id="{card_id}">{head}{_diff_body(payload, report)}</article>'
    )


def _diff_body(payload: DiffPayload, report: _Report) -> str:
    hunks = hunks_of(payload)
    if payload.binary:
        return '<p class="note">Binary file; no line diff.</p>'
    if not hunks:
        return '<p class="note">No line changes.</p>'
    lexer = lexer_for(filename=payload.path)
    unified: list[str] = []
    split: list[str] = []
    shown = 0
    total = sum(len(h.lines) for h in hunks)
    placed, loose = diagnostics_on_hunks(payload.diagnostics, hunks)
    notes = "".join(
        f'<p class="{_diagnostic_class(d)}">{_text(diagnostic_text(d))}</p>' for d in loose
    )
    for hunk, on_hunk in zip(hunks, placed, strict=True):
        if shown >= report.max_lines:
            break
        rows = hunk_rows(hunk)[: report.max_lines - shown]
        shown += len(rows)
        header = _text(hunk_header(hunk))
        unified.append(f'<tr class="hunk"><td colspan="3">{header}</td></tr>')
        split.append(f'<tr class="hunk"><td colspan="4">{header}</td></tr>')
        rows = _as_html(rows, lexer)
        unified.extend(_unified_row(row) for row in rows)
        split.extend(_split_row(left, right) for left, right in split_pairs(rows))
        for d in on_hunk:
            text = f'class="{_diagnostic_class(d)}">{_text(diagnostic_text(d))}</td></tr>'
            unified.append(f'<tr class="diagnostic"><td colspan="3" {text}')
            split.append(f'<tr class="diagnostic"><td colspan="4" {text}')
    cut = ""
    if shown < total:
        cut = f'<p class="note">{total - shown} more lines not shown.</p>'
    return (
        f'{notes}<table class="lines unified">{"".join(unified)}</table>'
        f'<table class="lines split">{"".join(split)}</table>{cut}'
    )


def _diagnostic_class(diagnostic: Diagnostic) -> str:
    return "diag-error" if diagnostic.severity == "error" else "diag-note"


def _as_html(rows: list[Row], lexer: Lexer | None) -> list[Row]:
    """Return the rows with their text as escaped, coloured HTML.

    Each side of a hunk is coloured as one text, so multi-line strings and comments stay whole.
    """
    html: dict[int, str] = {}
    for side in (("context", "remove"), ("add",)):
        picked = [i for i, row in enumerate(rows) if row.role in side]
        texts = [visible(rows[i].text) for i in picked]
        marks = [_visible_marks(rows[i].text, rows[i].marks) for i in picked]
        lines = highlight_lines(texts, lexer, marks)
        html.update(zip(picked, lines, strict=True))
    return [replace(row, text=html.get(i) or _text(row.text)) for i, row in enumerate(rows)]


def _visible_marks(text: str, marks: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """Ranges of `text` moved to where they fall in ``visible(text)`` (a few controls widen)."""
    if not marks or visible(text) == text:
        return marks
    return tuple((len(visible(text[:a])), len(visible(text[:b]))) for a, b in marks)


def _num(number: int | None) -> str:
    return f'<td class="num">{"" if number is None else int(number)}</td>'


def _unified_row(row: Row) -> str:
    marker = f'<span class="marker">{_MARKER[row.role]}</span>'
    return (
        f'<tr class="{_ROW_CLASS[row.role]}">{_num(row.old_no)}{_num(row.new_no)}'
        f'<td class="code">{marker}{row.text}</td></tr>'
    )


def _split_row(left: Row | None, right: Row | None) -> str:
    old = _half(left, left.old_no if left else None)
    new = _half(right, right.new_no if right else None)
    return f"<tr>{old}{new}</tr>"


def _half(row: Row | None, number: int | None) -> str:
    if row is None:
        return '<td class="num empty"></td><td class="code empty"></td>'
    return f'{_num(number)}<td class="code {_ROW_CLASS[row.role]}">{row.text}</td>'
