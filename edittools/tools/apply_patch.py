"""The apply_patch tool: unified diffs and Codex-style patches over many files, all or nothing."""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass, replace

from edittools._errors import ToolError
from edittools.artifacts import DiffPayload, ToolResult
from edittools.artifacts.builders import changeset_result, diff_result
from edittools.change import (
    COARSE_NOTE,
    Base,
    Call,
    Lines,
    Overlap,
    StreamedPatch,
    already_made,
    already_note,
    diagnosed,
    diagnostics_note,
    ensure_fresh,
    execute_staged,
    formatted,
    fresh_or_base,
    made_elsewhere,
    merge,
    read_existing,
    read_for_patch,
    resolved,
    stale_if,
    syntax_note,
    text_or_bytes,
    vet,
    wants_texts,
    with_diagnostics,
    with_syntax,
)
from edittools.diff import diff_texts
from edittools.state import Workspace
from edittools.syntax import SyntaxCheck
from edittools.tools._params import ApplyPatchParams
from edittools.tools.patch import (
    FilePatch,
    apply_file_patch,
    hunk_regions,
    parse_patch,
    strip_to_existing,
)
from sandbox import ABSENT, FileWrite, SandboxError, TextDocument, Version, decode

_LETTER = {"create": "A", "modify": "M", "delete": "D", "rename": "R"}


@dataclass(frozen=True)
class _Staged:
    """One file's change, fully computed in memory before anything is written."""

    writes: tuple[FileWrite, ...]
    """The files to write: `data` None deletes; `expect` ABSENT creates (a file over the cap has
    no `base`, and its `data` is a `Splice` of it, or the `Staged` file already written)."""
    payload: DiffPayload
    note: str = ""
    """A syntax warning for the model, when the change broke the file's syntax."""
    extra: tuple[DiffPayload, ...] = ()
    """Further files the section changed (a file moved onto another: the source's removal)."""
    held: bool = False
    """The file already held the section's change (made by another actor since the read):
    nothing to write."""


def apply_patch(
    ws: Workspace, params: ApplyPatchParams, call: Call, *, overwrite: bool = False
) -> ToolResult:
    """Apply every file section of `params.patch`, or none of them.

    Each file is staged in memory first (context verified, new bytes computed); then all files
    are committed together under their locks: all of them change or none, even across a crash.
    An added file, or a file moved onto a path, that already exists is refused unless `overwrite`
    (as Codex does): then the result shows what the replaced content became.
    """
    sb = ws.sandbox
    patches = parse_patch(params.patch, strip=params.strip)
    if not patches:
        raise ToolError(
            "invalid_patch", "The patch changes no file. Give at least one file section."
        )
    removed = 0
    if params.strip is None:
        patches, removed = strip_to_existing(ws, patches)
    paths = []  # each is written, created or removed: a refused one fails before any write
    for patch in patches:
        paths.append(sb.check_write(patch.path))
        if patch.move_to is not None:
            paths.append(sb.check_write(patch.move_to))
    if len(set(paths)) != len(paths):
        raise ToolError(
            "invalid_patch",
            "The patch names the same file more than once. Give each file one section.",
        )
    with ExitStack() as locks:
        for path in sorted(set(paths)):
            locks.enter_context(sb.lock(path))
        staged = [_stage(ws, call, patch, locks, overwrite=overwrite) for patch in patches]
        writes = [write for item in staged for write in item.writes]
        payloads = [p for item in staged for p in (item.payload, *item.extra)]
        payloads = execute_staged(ws, call, writes, payloads)
    if all(item.held for item in staged):
        value = "Nothing was written: the patch was already applied." + "".join(
            item.note for item in staged
        )
    else:
        value = _describe(payloads) + "".join(item.note for item in staged)
    if removed:
        value += (
            f"\nThe patch's file names were not found as written: their first {removed} "
            f"folder{'s' if removed > 1 else ''} were removed to find them (as patch -p does)."
        )
    if len(payloads) == 1:
        return diff_result(value, payloads[0])
    return changeset_result(value, payloads)


def apply_patch_overwriting(ws: Workspace, params: ApplyPatchParams, call: Call) -> ToolResult:
    """`apply_patch` where adding or moving onto an existing file replaces it, as Codex does."""
    return apply_patch(ws, params, call, overwrite=True)


def _replaced(
    ws: Workspace,
    call: Call,
    path: str,
    after: bytes,
    payload: DiffPayload,
    check: SyntaxCheck | None = None,
) -> _Staged | None:
    """The staged overwrite of existing file `path` with `after`; None when it does not exist.

    `check` is the syntax check already made of the new content (a moved file's, against its
    source); without one, the new content is checked against what `path` held.
    """
    if not ws.sandbox.exists(path):
        return None
    before, version = read_existing(ws, path)
    ensure_fresh(ws, call, path, before, version, must_have_read=False)
    old, new = text_or_bytes(before), text_or_bytes(after)
    found = None
    if check is None:  # a moved file's diagnostics were asked of its source's text
        check = vet(ws, path, old, new)
        found = diagnosed(ws, call, path, old, new)
    include = wants_texts(ws, len(before), len(after))
    replaced = diff_texts(old, new, path=path, include_texts=include)
    replaced = with_diagnostics(replaced.model_copy(update={"match": payload.match}), found)
    return _Staged(
        (FileWrite(path, after, version, base=before),),
        with_syntax(replaced, check),
        syntax_note(check) + diagnostics_note(found),
    )


def _stage(
    ws: Workspace, call: Call, patch: FilePatch, held: ExitStack, *, overwrite: bool
) -> _Staged:
    """The writes and the diff of one file section; `held` keeps what must stay open until the
    commit (a large file's new content, written while it was read)."""
    path = resolved(ws, call, patch.path)
    if patch.op == "add":
        return _added(ws, call, path, patch, overwrite=overwrite)
    if patch.op == "delete" or patch.move_to is not None:
        _refuse_link(ws, patch, path)
    read = read_for_patch(ws, call, path, patch, held)
    if isinstance(read, StreamedPatch):
        return _Staged((read.write,), read.payload)
    before, version = read
    # Deleting or moving a file is judged on the whole file; an update on the lines it touches.
    whole = patch.op == "delete" or patch.move_to is not None
    if whole:
        ensure_fresh(ws, call, path, before, version, must_have_read=False)
    base = None if whole else fresh_or_base(ws, call, path, before, version, must_have_read=False)
    if patch.op == "delete":
        old = text_or_bytes(before)
        payload = diff_texts(old, None, path=path, include_texts=wants_texts(ws, len(before)))
        return _Staged((FileWrite(path, None, version, base=before),), payload)
    return _updated(ws, call, path, patch, before, version, base, overwrite=overwrite)


def _added(ws: Workspace, call: Call, path: str, patch: FilePatch, *, overwrite: bool) -> _Staged:
    """An add section: a new file (or, with `overwrite`, one put over an existing file)."""
    document, shown = formatted(ws, path, TextDocument.new(patch.new_content or ""))
    after = document.encode()
    told = "" if shown is None else shown.describe()
    if overwrite:
        replaced = _replaced(ws, call, path, after, DiffPayload(path=path))
        if replaced is not None:
            return replace(replaced, note=told + replaced.note)
    if ws.sandbox.exists(path):
        raise ToolError(
            "exists",
            f"The patch adds {path}, which already exists. Use an update section to change "
            "it, or delete it first.",
            {"path": path},
        )
    check = vet(ws, path, None, document.text)
    found = diagnosed(ws, call, path, None, document.text)
    payload = diff_texts(None, document.text, path=path, include_texts=wants_texts(ws, len(after)))
    payload = with_diagnostics(payload, found)
    note = told + syntax_note(check) + diagnostics_note(found)
    return _Staged((FileWrite(path, after, ABSENT),), with_syntax(payload, check), note)


def _updated(
    ws: Workspace,
    call: Call,
    path: str,
    patch: FilePatch,
    before: bytes,
    version: Version,
    base: Base | None,
    *,
    overwrite: bool,
) -> _Staged:
    """An update section (hunks, and a move when it names one) of the file `before` holds;
    `base` is the content read when the file changed since (the region rule)."""
    sb = ws.sandbox
    document = decode(before)

    def patched(doc: TextDocument) -> tuple[str, str]:
        return apply_file_patch(doc.text, patch)

    def made(doc: TextDocument) -> tuple[TextDocument, list[Lines]]:
        ours = patched(doc)[0]
        return doc.with_text(ours), hunk_regions(doc.text, patch)

    def merged(doc: TextDocument) -> tuple[str, str]:
        """The patch on the file as it is now; where a context line it did not need to be found
        changed since the read (so it is not found as written), both changes applied to the
        content read, as a three-way merge does. Where they meet, the patch's own error."""
        try:
            return patched(doc)
        except ToolError as exc:
            if base is None:
                raise
            try:
                read = decode(base.data)
            except SandboxError:
                raise exc from None
            ours, tier = patched(read)
            try:
                return merge(read.text, ours, doc.text, hunk_regions(read.text, patch)), tier
            except Overlap:
                raise exc from None

    if base is not None and patch.move_to is None and already_made(base, document, made):
        return _held(ws, call, path, (before, version), document, base)
    try:
        new_text, tier = (
            patched(document) if base is None else stale_if(merged, document, path, base, made)
        )
    except ToolError as exc:
        raise _naming(path, exc) from exc
    changed = document.with_text(new_text)
    drift = "" if base is None else made_elsewhere(path, base, document, changed, made)
    written_as = path if patch.move_to is None else sb.relpath(patch.move_to)
    changed, shown = formatted(ws, written_as, changed)
    drift += "" if shown is None else shown.describe()
    after = changed.encode()
    check = vet(ws, written_as, document.text, changed.text)
    found = diagnosed(ws, call, written_as, document.text, changed.text)
    drift += diagnostics_note(found)
    include = wants_texts(ws, len(before), len(after))
    if patch.move_to is None:
        payload = diff_texts(document.text, changed.text, path=path, include_texts=include)
        writes: tuple[FileWrite, ...] = (FileWrite(path, after, version, base=before),)
    else:
        target = resolved(ws, call, patch.move_to)
        if overwrite and sb.exists(target):
            return _moved_over(ws, call, path, before, version, target, after, tier, check)
        if sb.exists(target):
            raise ToolError(
                "exists",
                f"The patch moves {path} to {target}, which already exists. Delete it first or "
                "choose another name.",
                {"path": target},
            )
        payload = diff_texts(
            document.text, changed.text, path=target, old_path=path, include_texts=include
        )
        writes = (FileWrite(target, after, ABSENT), FileWrite(path, None, version, base=before))
    payload = with_diagnostics(payload.model_copy(update={"match": tier}), found)
    return _Staged(writes, with_syntax(payload, check), syntax_note(check) + drift)


def _held(
    ws: Workspace,
    call: Call,
    path: str,
    read: tuple[bytes, Version],
    document: TextDocument,
    base: Base,
) -> _Staged:
    """A section whose change the file already holds (another actor made it since the read):
    nothing to write, the file noted as seen as it is."""
    if not call.dry_run:
        ws.note_seen(path, *read, reader=call.reader)
    payload = diff_texts(document.text, document.text, path=path, include_texts=False)
    return _Staged((), payload, "\n" + already_note(path, base), held=True)


def _naming(path: str, exc: ToolError) -> ToolError:
    """The patch logic's error naming the file once (its own message usually names it)."""
    message = exc.message if path in exc.message else f"{path}: {exc.message}"
    return ToolError(exc.code, message, {**(exc.detail or {}), "path": path})


def _refuse_link(ws: Workspace, patch: FilePatch, path: str) -> None:
    """Refuse to delete or move `patch.path` when it names a symbolic link (to `path`).

    Following the link would remove its target, which the patch does not name; removing the
    link alone would lose it on an undo or a rollback, which restore files, not links.
    """
    named = ws.sandbox.relpath(patch.path, follow=False)
    if named != path:
        verb = "deletes" if patch.op == "delete" else "moves"
        raise ToolError(
            "not_a_file",
            f"The patch {verb} {named}, which is a symbolic link to {path}. Patches change "
            "files, not links: update the file itself, or remove the link with another tool.",
            {"path": named},
        )


def _moved_over(
    ws: Workspace,
    call: Call,
    path: str,
    before: bytes,
    version: Version,
    target: str,
    after: bytes,
    tier: str,
    check: SyntaxCheck | None,
) -> _Staged:
    """A move onto existing file `target`: the target's change (what it held, what it holds
    now) and the source's removal, staged together."""
    match = DiffPayload(path=target, match=tier)
    into = _replaced(ws, call, target, after, match, check)
    assert into is not None  # the caller saw the target exist under its lock
    include = wants_texts(ws, len(before))
    removed = diff_texts(text_or_bytes(before), None, path=path, include_texts=include)
    writes = (*into.writes, FileWrite(path, None, version, base=before))
    return _Staged(writes, into.payload, into.note, extra=(removed,))


def _describe(payloads: list[DiffPayload]) -> str:
    added = sum(p.stats.added for p in payloads)
    removed = sum(p.stats.removed for p in payloads)
    noun = "file" if len(payloads) == 1 else "files"
    lines = [f"Applied the patch to {len(payloads)} {noun} (+{added} -{removed})."]
    for p in payloads:
        name = (
            p.path if p.old_path is None or p.operation != "rename" else f"{p.old_path} -> {p.path}"
        )
        lines.append(f"  {_LETTER[p.operation]} {name} +{p.stats.added} -{p.stats.removed}")
    tolerances = sorted({p.match for p in payloads if p.match is not None and p.match != "exact"})
    if tolerances:
        lines.append(f"Context matched with tolerance: {', '.join(tolerances)}.")
    coarse = sum(not p.minimal for p in payloads)
    if coarse:
        lines.append(f"{coarse} of the diffs: {COARSE_NOTE}")
    return "\n".join(lines)
