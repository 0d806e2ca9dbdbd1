"""`undo` of a change to a file over the `max_file_bytes` cap: its replaced spans put back."""

from __future__ import annotations

import os
from contextlib import ExitStack

from edittools._errors import ToolError
from edittools.artifacts import ToolResult
from edittools.change._call import Call
from edittools.change._commit import change_result, commit_all, digest, open_for_change, with_refs
from edittools.change._sentence import summary
from edittools.change._streamed.scan import hash_counting
from edittools.change._streamed.windows import windowed_diff
from edittools.state import Change, Workspace
from sandbox import FileWrite, SandboxError, Splice

__all__ = ["streamed_undo"]


def streamed_undo(ws: Workspace, call: Call, change: Change) -> ToolResult:
    """Undo `change` of a file over the cap by putting its replaced spans back (lock held).

    Possible when the change's new content is kept as a recipe on the old one (a few spans of at
    most 64 KiB of new bytes in all): the file is hashed in one pass and must still be what the
    change wrote; the restored content is then that file with the recipe's spans holding the old
    bytes again, hashed on the same pass, and must be the old content (the undo snapshot's id)
    or nothing is written. Anything else is refused with too_large.
    """
    path = change.path
    recipe = ws.recipe(change.after_digest or "")
    if change.before_blob is None or recipe is None or recipe.base != change.before_blob:
        raise ToolError(
            "too_large",
            f"{path} is over the size cap, and its last change (a replacement of very many "
            "places or of a large text) cannot be undone by splicing spans back. Edit it back "
            "instead.",
            {"path": path},
        )
    spans = []  # in the file as it is now: the change's new bytes, to hold the old ones again
    shift = 0
    try:
        for start, stop, middle in recipe.spans:
            old = ws.sandbox.store.read_range(recipe.base, start, stop)
            spans.append((start + shift, start + shift + len(middle), old))
            shift += len(middle) - (stop - start)
    except SandboxError as exc:
        raise ToolError.from_sandbox(exc) from exc
    with ExitStack() as held:
        # The kernel writes the restored file while the pass below checks and hashes this one;
        # a check that fails closes the writer without a commit, which removes its temp file.
        writer, fd = open_for_change(ws, call, path, held)
        if writer is not None:
            for start, stop, old in spans:
                writer.replace(start, stop, old)
            writer.keep(os.fstat(fd).st_size)
        passing = call.pass_over(path, os.fstat(fd).st_size)
        version, lines, restored = hash_counting(
            fd, spans, chunk=max(ws.options.scan_chunk_bytes, 1), checkpoint=passing
        )
        wrote = all(
            os.pread(fd, len(middle), at) == middle
            for (at, _, _), (_, _, middle) in zip(spans, recipe.spans, strict=True)
        )
        if version.digest != change.after_digest or not wrote:
            raise ToolError(
                "stale_read",
                f"{path} changed after this session's last change to it, so undo would discard "
                "that newer work. Read the file and edit it instead.",
                {"path": path},
            )
        if restored != change.before_blob:
            # The spans read from the snapshot are not what the change replaced: the snapshot
            # was damaged or tampered with. Their bytes are never committed.
            raise ToolError.from_sandbox(
                SandboxError(
                    "blob_corrupt",
                    f"The undo snapshot of {path} no longer holds what the change replaced; the "
                    "file was left as it is. Edit it back instead.",
                    path=path,
                )
            )
        put_back = tuple(spans)
        payload = windowed_diff(fd, version.size, path, put_back, lines)
        restored_content = (
            Splice(put_back, version.size, change.before_blob)
            if writer is None
            else writer.finish(version.size, change.before_blob)
        )
        write = FileWrite(path, restored_content, version)
        new_version = commit_all(ws, call, [write], undoes=change)[0]
    payload = with_refs(ws, payload, version.digest, digest(new_version))
    return change_result(summary("Undid the last change to", payload), payload, None)
