"""The edit and multi_edit tools: replace strings in a file, exactly or with stated tolerances."""

from __future__ import annotations

import re

from edittools._errors import ToolError
from edittools._workspace import Workspace
from edittools.artifacts import DiffPayload, ToolResult
from edittools.change import (
    ByteSpan,
    Call,
    Lines,
    by_bytes,
    change_result,
    commit,
    digest,
    exact_byte_spans,
    excerpt,
    fresh_or_base,
    line_end,
    line_start,
    lines_of,
    made_elsewhere,
    plain_head,
    read_existing,
    read_existing_deferred,
    refuse_nul,
    resolved,
    splice_spans,
    splice_views,
    stale_if,
    summary,
    unchecked_note,
    vet,
    wants_texts,
    with_refs,
)
from edittools.diff import diff_spans, diff_texts
from edittools.tools._large import streamed_edit, streamed_multi_edit
from edittools.tools._matching import Match, locate
from edittools.tools._params import EditParams, MultiEditParams, WriteParams
from edittools.tools.write import write
from sandbox import Digester, SandboxError, TextDocument, Version, decode

Span = tuple[int, int, str]

_BARE_LF = re.compile(r"(?<!\r)\n")


def edit(ws: Workspace, params: EditParams, call: Call) -> ToolResult:
    """Replace `old_string` with `new_string` in `params.path` (every place with `replace_all`).

    An empty `old_string` creates a missing file with `new_string` as its content. A file over
    the `max_file_bytes` cap is edited by a streamed scan (see `_large`).
    """
    sb = ws.sandbox
    path = resolved(ws, call, params.path)
    refuse_nul(params.new_string, "new_string", path)
    if params.old_string == "":
        if sb.exists(path):
            raise ToolError(
                "exists",
                f"{path} exists, and an empty old_string only creates new files. Give the text "
                "to replace as old_string, or use write to replace the whole file.",
                {"path": path},
            )
        return write(ws, WriteParams(path=path, content=params.new_string), call)
    with sb.lock(path):
        steps: list[tuple[int, Digester]] = []
        try:
            before, pending = read_existing_deferred(ws, path, on_step=steps.append)
        except SandboxError as exc:
            if exc.code != "too_large":
                raise
            return streamed_edit(ws, call, path, params)
        # A large file's exact match is searched on its bytes while another core hashes them
        # (bytes that are what this session last wrote are not hashed at all, see _contents);
        # the new content is hashed from the old one's state below the change.
        proven = pending.ready()
        plain = proven is not None and ws.contents.is_plain(proven.digest)
        byte_spans = _byte_spans(ws, before, params, plain=plain)
        version = pending.result()
        # Judged before the bytes path; a file changed since the read is judged on its region,
        # as text (a text edit judges it after decoding: a read would not help a binary file).
        base = None if byte_spans is None else fresh_or_base(ws, call, path, before, version)
        if base is not None:
            byte_spans = None
        if byte_spans is not None:
            ws.contents.note_states(version.digest, steps)
            payload, shown = _bytes_diff(ws, path, before, version.digest, byte_spans)
            pieces = splice_views(before, byte_spans)
            span = _one_span(before, byte_spans, pieces)
            prefix = ws.contents.state_below(version.digest, byte_spans[0][0])
            new_steps: list[tuple[int, Digester]] = []
            new_version = commit(ws, call, path, before, version, pieces, span=span, prefix=prefix,
                                 on_step=new_steps.append)  # fmt: skip
            if new_version is not None:
                _note_bytes_edit(ws, path, before, version, byte_spans, pieces, new_version)
                ws.contents.note_states(new_version.digest, new_steps)
        else:
            document = decode(before)  # binary or undecodable first: a read would not help
            if base is None:
                base = fresh_or_base(ws, call, path, before, version)

            def located(doc: TextDocument) -> Match:
                return locate(doc.text, params.old_string, params.new_string,
                              replace_all=params.replace_all, tolerant=ws.options.tolerant)  # fmt: skip

            def made(doc: TextDocument) -> tuple[TextDocument, list[Lines]]:
                match = located(doc)
                return splice(doc, match)[0], lines_of(doc.text, match.spans)

            match = (
                located(document) if base is None else stale_if(located, document, path, base, made)
            )
            changed, spans = splice(document, match)
            drift = "" if base is None else made_elsewhere(path, base, document, changed, made)
            after = changed.encode()
            check = vet(ws, path, document.text, changed.text)
            new_version = commit(ws, call, path, before, version, after)
    if byte_spans is not None:
        payload = with_refs(ws, payload, version.digest, digest(new_version))
        first = summary("Edited", payload)
        if len(byte_spans) > 1:
            first = summary(f"Replaced {len(byte_spans)} occurrences in", payload)
        return change_result(f"{first}\n{shown}", payload, unchecked_note(ws, path))
    include = wants_texts(ws, len(before), len(after))
    payload = diff_spans(document.text, spans, path=path, include_texts=include)
    payload = with_refs(ws, payload, version.digest, digest(new_version))
    payload = payload.model_copy(update={"match": match.tier})
    value = _describe(payload, match, changed.text, spans) + drift
    return change_result(value, payload, check)


def _byte_spans(
    ws: Workspace,
    before: bytes,
    params: EditParams,
    *,
    plain: bool,
) -> list[ByteSpan] | None:
    """The exact match found on the file's bytes, for a large file; None: take the text path.

    Small files take the text path (cheap there, and their syntax is checked on the texts).
    `plain`: the bytes are known to be plain UTF-8.
    """
    if not by_bytes(ws, len(before)):
        return None
    return exact_byte_spans(
        before,
        params.old_string,
        params.new_string,
        replace_all=params.replace_all,
        plain=plain,
    )


def _note_bytes_edit(
    ws: Workspace,
    path: str,
    before: bytes,
    version: Version,
    spans: list[ByteSpan],
    pieces: list[bytes | memoryview],
    new_version: Version,
) -> None:
    """Keep what the next change of the file can reuse: line counts and digest states below the
    change, plainness, the content."""
    ws.contents.carry(version.digest, new_version.digest, spans[0][0])
    ws.contents.note_plain(version.digest)  # exact_byte_spans checked it (or knew it)
    if plain_head(pieces):
        ws.contents.note_plain(new_version.digest)
    ws.contents.note_written(path, new_version.digest, before, spans)


def _one_span(before: bytes, spans: list[ByteSpan], pieces: list[bytes | memoryview]) -> ByteSpan:
    """The one byte span that covers every replaced span (what the state records).

    `pieces` is the new content as `splice_views` gave it: when that is already one joined piece
    (many spans), the covering span's new bytes are cut from it instead of spliced again.
    """
    if len(spans) == 1:
        return spans[0]
    start, stop = spans[0][0], spans[-1][1]
    if len(pieces) == 1:
        new_stop = stop + len(pieces[0]) - len(before)
        return start, stop, bytes(pieces[0][start:new_stop])
    return start, stop, splice_spans(before[start:stop], [(s - start, e - start, r)
                                                          for s, e, r in spans])  # fmt: skip


def _bytes_diff(
    ws: Workspace, path: str, before: bytes, before_id: str, spans: list[ByteSpan]
) -> tuple[DiffPayload, str]:
    """The diff of an edit applied on bytes (whose content id is `before_id`) and the changed
    lines numbered, as the text path gives them."""
    start, end, inserted = spans[0]
    first_line = ws.contents.line_of(before_id, before, start)
    size = len(before) + sum(len(r) - (e - s) for s, e, r in spans)
    include = wants_texts(ws, len(before), size)
    payload = diff_spans(before, spans, path=path, include_texts=include, first_line=first_line,
                         binary=False)  # fmt: skip
    payload = payload.model_copy(update={"match": "exact"})
    # The first change with three lines around it, as the new file reads: a window of the old
    # bytes wide enough for three new lines after it, with the replacements inside it applied.
    first = line_start(before, start, back=3)
    removed_lines = before.count(b"\n", start, end)
    last = line_end(before, max(end - 1, start), ahead=3 + removed_lines * len(spans))
    inside = [(s - first, e - first, r) for s, e, r in spans if s < last]
    last = max(last, line_end(before, max(inside[-1][1] - 1, 0) + first))
    window = splice_spans(before[first:last], inside).decode("utf-8")
    at = len(before[first:start].decode("utf-8"))
    number = first_line - before.count(b"\n", first, start)
    return payload, excerpt(window, at, at + len(inserted.decode("utf-8")), first_line=number)


def multi_edit(ws: Workspace, params: MultiEditParams, call: Call) -> ToolResult:
    """Apply several edits to one file in order, on the text in memory: all of them or none.

    A file over the `max_file_bytes` cap takes exact edits by a streamed pass (see
    `_large`).
    """
    sb = ws.sandbox
    path = resolved(ws, call, params.path)
    for number, operation in enumerate(params.edits, start=1):
        refuse_nul(operation.new_string, f"edits[{number}].new_string", path)
    with sb.lock(path):
        try:
            before, version = read_existing(ws, path)
        except SandboxError as exc:
            if exc.code != "too_large":
                raise
            return streamed_multi_edit(ws, call, path, params.edits)
        original = decode(before)
        base = fresh_or_base(ws, call, path, before, version)

        def applied(doc: TextDocument) -> tuple[TextDocument, list[str]]:
            return _apply_edits(ws, path, doc, params)

        def made(doc: TextDocument) -> tuple[TextDocument, list[Lines]]:
            return applied(doc)[0], []  # the lines replaced are the region (and must match)

        document, tiers = (
            applied(original) if base is None else stale_if(applied, original, path, base, made)
        )
        drift = "" if base is None else made_elsewhere(path, base, original, document, made)
        after = document.encode()
        if after == before:
            raise ToolError(
                "no_change",
                f"The edits together leave {path} as it was, so nothing was written.",
            )
        check = vet(ws, path, original.text, document.text)
        new_version = commit(ws, call, path, before, version, after)
    include = wants_texts(ws, len(before), len(after))
    payload = diff_texts(original.text, document.text, path=path, include_texts=include)
    tier = next((t for t in tiers if t != "exact"), "exact")
    payload = with_refs(ws, payload, version.digest, digest(new_version))
    payload = payload.model_copy(update={"match": tier})
    value = summary(f"Applied {len(params.edits)} edits to", payload)
    if tier != "exact":
        value += f" Matched with tolerance: {', '.join(sorted(set(tiers) - {'exact'}))}."
    return change_result(value + drift, payload, check)


def _apply_edits(
    ws: Workspace, path: str, document: TextDocument, params: MultiEditParams
) -> tuple[TextDocument, list[str]]:
    """`document` with the edits applied in order, and the tier each matched with."""
    tiers = []
    for number, operation in enumerate(params.edits, start=1):
        try:
            match = locate(
                document.text,
                operation.old_string,
                operation.new_string,
                replace_all=operation.replace_all,
                tolerant=ws.options.tolerant,
            )
        except ToolError as exc:
            raise ToolError(
                exc.code,
                f"Edit {number} of {len(params.edits)} failed, so no edit was applied and "
                f"{path} is unchanged. {exc.message}",
                {**(exc.detail or {}), "edit_index": number - 1},
            ) from exc
        document, _ = splice(document, match)
        tiers.append(match.tier)
    return document, tiers


def splice(document: TextDocument, match: Match) -> tuple[TextDocument, list[Span]]:
    """Put each replacement into its span, all in one pass over the text.

    Returns the new document and the spans as `(start, end, inserted text)` in the old text, with
    the inserted text in the file's own newline style.
    """
    spans: list[Span] = [
        (start, end, _in_style(replacement, document.newline))
        for (start, end), replacement in zip(match.spans, match.replacements, strict=True)
    ]
    if document.bom and spans and spans[0][0] == 0 and spans[0][2].startswith("\ufeff"):
        spans[0] = (0, spans[0][1], spans[0][2][1:])  # the file's own BOM: the diff shows none
    if len(spans) == 1:
        # One span: the document updates its newline counts from the span alone.
        start, end, piece = spans[0]
        return document.splice(start, end, piece), spans
    return document.with_text(splice_spans(document.text, spans)), spans


def _in_style(replacement: str, newline: str) -> str:
    """Bare `\\n` of a replacement in the file's dominant newline style."""
    return replacement if newline == "\n" else _BARE_LF.sub(newline, replacement)


def _describe(payload: DiffPayload, match: Match, new_text: str, spans: list[Span]) -> str:
    """What the model reads: the change's size, the tolerance used, the changed lines numbered."""
    lines = [summary("Edited", payload)]
    if len(spans) > 1:
        lines[0] = summary(f"Replaced {len(spans)} occurrences in", payload)
    if match.tier != "exact":
        lines.append(f"Matched with tolerance: {match.tier.replace('_', ' ')}.")
    # Offsets of the first change in the new text: earlier spans do not shift it.
    start, _, inserted = spans[0]
    lines.append(excerpt(new_text, start, start + len(inserted)))
    return "\n".join(lines)
