"""The one executor of changes: every changing tool locates, then commits through here.

It owns, once: the commit of planned file changes (compare-and-swap, all or nothing, the undo
history in the same transaction) and its dry run; the writer a streamed change writes through;
the size regime's threshold (`by_bytes`); the syntax vet; the payload's refs and the sentence for
the model. A layout rule keeps `Workspace.commit` and the sandbox's splice writer to this module.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import ExitStack
from typing import overload

from edittools._errors import ToolError
from edittools._placeholders import placeholder_lines, placeholder_message
from edittools.artifacts import DiffPayload, ToolResult
from edittools.artifacts.builders import diff_result
from edittools.change._call import Call
from edittools.diff import diff_texts
from edittools.state import Change, Span, Workspace
from edittools.syntax import SyntaxCheck, check_change, language_of, unchecked
from sandbox import (
    ABSENT,
    Digester,
    FileWrite,
    SandboxError,
    Splice,
    SpliceWriter,
    Staged,
    Version,
    decode,
)


def commit(
    ws: Workspace,
    call: Call,
    path: str,
    before: bytes | None,
    before_version: Version | None,
    after: bytes | Sequence[bytes | memoryview] | Splice | Staged | None,
    *,
    span: Span | None = None,
    prefix: tuple[int, Digester] | None = None,
    on_step: Callable[[tuple[int, Digester]], object] | None = None,
) -> Version | None:
    """Write `after` over `path` (or delete it when None) if it still holds `before`.

    The write is a compare-and-swap against `before_version` (or "must not exist" when the file is
    new), so a concurrent writer is detected, never overwritten. The old bytes go to the undo history
    and the new content becomes what the session has seen, in the same transaction as the write.
    Returns the new version (None for a delete, or in a dry run, see `commit_all`).
    `prefix` is the digest state of the new content's first bytes, when known; `on_step` receives
    its digest states (`FileWrite`).
    """
    expect = ABSENT if before_version is None else before_version
    write = FileWrite(path, after, expect, prefix=prefix, on_step=on_step, base=before, span=span)
    return commit_all(ws, call, [write])[0]


def commit_all(
    ws: Workspace, call: Call, planned: Sequence[FileWrite], *, undoes: Change | None = None
) -> list[Version | None]:
    """Write every planned file or none (`Workspace.commit`); the new versions, None for a delete.

    In a dry run nothing is written and every version is None, but a write the sandbox's rules
    refuse (`.git`, deny patterns) is refused all the same. What a write could not keep of a
    replaced file's metadata is added to `call.unkept`.
    """
    if call.dry_run:
        for p in planned:
            ws.sandbox.check_write(p.path)
        return [None] * len(planned)
    versions = ws.commit(planned, undoes=undoes, stop=call.stop_if_cancelled, actor=call.actor)
    for p, version in zip(planned, versions, strict=True):
        if version is not None:
            call.unkept += [f"{p.path}: {what}" for what in version.unkept]
    return versions


def open_for_change(
    ws: Workspace, call: Call, path: str, held: ExitStack
) -> tuple[SpliceWriter | None, int]:
    """A writer for the streamed change of the large file `path` (None in a dry run) and a
    descriptor to read the file by, both open until `held` closes; a writer not finished and
    committed by then removes its temp file."""
    if call.dry_run:
        return None, held.enter_context(ws.sandbox.open_reader(path)).fileno()
    writer = held.enter_context(ws.sandbox.splice_writer(path))
    return writer, writer.fileno()


BYTES_PATH_MIN = 1 << 20
"""Files up to this size (or up to `syntax_max_bytes`, when larger) are changed as text: decoding
is cheap there, and the syntax check needs the texts. Larger ones take the bytes path (`by_bytes`)."""


def by_bytes(ws: Workspace, size: int) -> bool:
    """Whether a change of a file of `size` bytes, loaded whole, works on its bytes instead of
    decoding it (an edit's exact match, an undo's one span)."""
    return size > max(BYTES_PATH_MIN, ws.options.syntax_max_bytes)


def wants_texts(ws: Workspace, *sizes: int) -> bool:
    """Whether the full old and new texts together fit inline in an artifact."""
    return sum(sizes) <= ws.options.inline_text_bytes


def with_refs(
    ws: Workspace, payload: DiffPayload, old_id: str | None, new_id: str | None
) -> DiffPayload:
    """The payload with the ids of its full contents, where the state holds them.

    Texts are carried by reference: the ids are set whenever the contents can be fetched (the old
    one is the undo snapshot; the new one a recipe on it), whether or not the texts are also
    inline; a payload whose texts were left out is marked truncated. Nothing is stored here.
    """
    update: dict[str, object] = {
        "old_ref": old_id if old_id is not None and ws.has_content(old_id) else None,
        "new_ref": new_id if new_id is not None and ws.has_content(new_id) else None,
    }
    if payload.old is None and payload.new is None and not payload.binary:
        update["truncated"] = True
    return payload.model_copy(update=update)


def with_blobs(
    ws: Workspace, payload: DiffPayload, before: bytes | None, after: bytes | None
) -> DiffPayload:
    """`with_refs` for contents known only as bytes (a review's checkpoint contents): each is
    kept in the blob store (once per call) for its id. Changes made here use `with_refs`."""
    old_id = ws.keep(before) if before is not None else None
    new_id = ws.keep(after) if after is not None else None
    return with_refs(ws, payload, old_id, new_id)


def diff_contents(ws: Workspace, path: str, old: bytes | None, new: bytes | None) -> DiffPayload:
    """The diff of two contents known only as bytes (a review's net diff of a file since a
    checkpoint), each kept in the blob store for its ref (`with_blobs`)."""
    include = wants_texts(ws, len(old or b""), len(new or b""))
    payload = diff_texts(text_or_bytes(old), text_or_bytes(new), path=path, include_texts=include)
    return with_blobs(ws, payload, old, new)


def digest(version: Version | None) -> str | None:
    """The content id of a version, if any."""
    return None if version is None else version.digest


def vet(
    ws: Workspace,
    path: str,
    old: str | bytes | None,
    new: str | bytes | None,
    *,
    may_refuse: bool = True,
) -> SyntaxCheck | None:
    """Check the syntax of `path` changed from `old` to `new`, under the `syntax_check` policy.

    Under `refuse` a change that introduces a syntax error raises `syntax_error` (call this before
    writing); `may_refuse=False` (an undo puts back what the file held) only warns. A new text
    holding an omission placeholder the old one does not is refused (`refuse_placeholders`).
    """
    if may_refuse and ws.options.refuse_placeholders and isinstance(new, str):
        refuse_placeholders(path, old if isinstance(old, str) else "", new, language_of(path))
    policy = ws.options.syntax_check
    if policy == "off" or not isinstance(new, str):
        return None
    check = check_change(
        path,
        old if isinstance(old, str) else None,
        new,
        max_bytes=ws.options.syntax_max_bytes,
        budget=ws.options.syntax_budget,
    )
    if check is not None and check.broken and policy == "refuse" and may_refuse:
        diagnostics = [d.model_dump(mode="json") for d in check.diagnostics]
        raise ToolError(
            "syntax_error",
            check.describe(kept=False),
            {"path": path, "language": check.language, "diagnostics": diagnostics},
        )
    return check


def refuse_placeholders(
    path: str, old: str, new: str, lang: str | None, *, where: str | None = None
) -> None:
    """Refuse `new` (in language `lang`) when it holds placeholder lines `old` does not; `where`
    names the text in the message (default: `path`, whose whole new text `new` is)."""
    found = placeholder_lines(old, new, lang=lang)
    if found:
        raise ToolError(
            "invalid_arguments",
            placeholder_message(found, where or path),
            {"path": path, "reason": "placeholder", "lines": [p.line for p in found]},
        )


def unchecked_note(ws: Workspace, path: str) -> SyntaxCheck | None:
    """The check of a change whose file is over the syntax cap (its texts need not exist)."""
    if ws.options.syntax_check == "off":
        return None
    return unchecked(path, ws.options.syntax_max_bytes)


def with_syntax(payload: DiffPayload, check: SyntaxCheck | None) -> DiffPayload:
    """The payload with the check's diagnostics, if any."""
    if check is None or not check.diagnostics:
        return payload
    return payload.model_copy(update={"diagnostics": list(check.diagnostics)})


def syntax_note(check: SyntaxCheck | None) -> str:
    """The lines a result's value gains when the change broke the syntax, or its check ran out of
    time (else nothing)."""
    if check is None:
        return ""
    if check.broken:
        return "\n" + check.describe(kept=True)
    return "\n" + check.note if check.note else ""


def change_result(value: str, payload: DiffPayload, check: SyntaxCheck | None) -> ToolResult:
    """A one-file change's result: the value, then any syntax warning; the diagnostics on the diff."""
    return diff_result(value + syntax_note(check), with_syntax(payload, check))


@overload
def text_or_bytes(data: bytes) -> str | bytes: ...
@overload
def text_or_bytes(data: None) -> None: ...
@overload
def text_or_bytes(data: bytes | None) -> str | bytes | None: ...
def text_or_bytes(data: bytes | None) -> str | bytes | None:
    """A content as text for diffing and checking, or its bytes when it is not text."""
    if data is None:
        return None
    try:
        return decode(data).text
    except SandboxError:
        return data


def kept_text(ws: Workspace, content: str) -> str | None:
    """A content of the state (by id) as text; None when it is no longer kept, or not text."""
    try:
        text = text_or_bytes(ws.content(content))
    except (SandboxError, ToolError):
        return None
    return None if isinstance(text, bytes) else text


def refuse_nul(text: str, argument: str, path: str) -> None:
    """Refuse new text holding a NUL character: written into a text file, it would make the file
    binary (as git judges it), and no tool would edit it as text again."""
    at = text.find("\0")
    if at < 0:
        return
    raise ToolError(
        "invalid_arguments",
        f"{argument} holds a NUL character (U+0000) at character {at}: written, it would make "
        f"{path} a binary file that no edit can change as text. Nothing was written. Remove it "
        "(or write the language's escape, such as \\0, if that was meant); to write binary "
        "content on purpose, use write.",
        {"path": path, "argument": argument, "at": at},
    )
