"""The edit and multi_edit tools: replace strings in a file, exactly or with stated tolerances.

Each only locates its change (`edittools.change.execute` makes it): the text path finds
`old_string` with the matching tiers, the bytes path an exact match in a large file's bytes,
and a file over the cap takes a streamed pass (`change.streamed_edit`).
"""

from __future__ import annotations

from edittools._errors import ToolError
from edittools.artifacts import ToolResult
from edittools.change import (
    ByteSpan,
    Call,
    OnBytes,
    Placed,
    apply,
    exact_byte_spans,
    execute,
    lines_of,
    refuse_nul,
    resolved,
    streamed_edit,
    streamed_multi_edit,
)
from edittools.state import Workspace
from edittools.tools._params import EditParams, MultiEditParams, WriteParams
from edittools.tools.matching import Match, locate
from edittools.tools.write import write
from sandbox import TextDocument


def edit(ws: Workspace, params: EditParams, call: Call) -> ToolResult:
    """Replace `old_string` with `new_string` in `params.path` (every place with `replace_all`).

    An empty `old_string` creates a missing file with `new_string` as its content. A file over
    the `max_file_bytes` cap is edited by a streamed scan (`change.streamed_edit`).
    """
    sb = ws.sandbox
    path = resolved(ws, call, params.path)
    if params.old_string == "":
        refuse_nul(params.new_string, "new_string", path)
        if sb.exists(path):
            raise ToolError(
                "exists",
                f"{path} exists, and an empty old_string only creates new files. Give the text "
                "to replace as old_string, or use write to replace the whole file.",
                {"path": path},
            )
        return write(ws, WriteParams(path=path, content=params.new_string), call)

    def located(document: TextDocument) -> Placed:
        match = locate(document.text, params.old_string, params.new_string,
                       replace_all=params.replace_all, tolerant=ws.options.tolerant)  # fmt: skip
        spans = _spans(match)
        return Placed(spans, _edited(path, len(spans)), lines_of(document.text, match.spans),
                      tolerances=[match.tier], match=match.tier)  # fmt: skip

    def on_bytes(data: bytes, plain: bool) -> list[ByteSpan] | None:
        return exact_byte_spans(data, params.old_string, params.new_string,
                                replace_all=params.replace_all, plain=plain)  # fmt: skip

    return execute(ws, call, path, located, new_text={"new_string": params.new_string},
                   on_bytes=OnBytes(on_bytes, lambda count: _edited(path, count)),
                   streamed=lambda: streamed_edit(ws, call, path, params.old_string,
                                                  params.new_string,
                                                  replace_all=params.replace_all))  # fmt: skip


def _spans(match: Match) -> list[tuple[int, int, str]]:
    """A match's places with their replacements, as `Placed` spans."""
    return [(s, e, r) for (s, e), r in zip(match.spans, match.replacements, strict=True)]


def _edited(path: str, count: int) -> str:
    return f"Edited {path}" if count == 1 else f"Replaced {count} occurrences in {path}"


def multi_edit(ws: Workspace, params: MultiEditParams, call: Call) -> ToolResult:
    """Apply several edits to one file in order, on the text in memory: all of them or none.

    A file over the `max_file_bytes` cap takes exact edits by a streamed pass
    (`change.streamed_multi_edit`).
    """
    path = resolved(ws, call, params.path)

    def located(document: TextDocument) -> Placed:
        changed, tiers = _apply_edits(ws, path, document, params)
        if changed.text == document.text:
            raise ToolError(
                "no_change",
                f"The edits together leave {path} as it was, so nothing was written.",
                {"path": path},
            )
        tier = next((t for t in tiers if t != "exact"), "exact")
        headline = f"Applied {len(params.edits)} edits to {path}"
        return Placed((), headline, tolerances=tiers, whole=changed, match=tier)

    new_text = {f"edits[{k}].new_string": e.new_string for k, e in enumerate(params.edits, 1)}
    return execute(ws, call, path, located, new_text=new_text,
                   streamed=lambda: streamed_multi_edit(ws, call, path, params.edits))  # fmt: skip


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
        spans = _spans(match)
        document = apply(document, Placed(spans, ""))[0]
        tiers.append(match.tier)
    return document, tiers
