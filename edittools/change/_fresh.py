"""Checks every changing tool makes before it writes: the file was read, and has not changed since."""

from __future__ import annotations

import time
from collections.abc import Callable

from edittools._errors import ToolError
from edittools.change._call import Call
from edittools.change._region import Base
from edittools.diff import diff_texts, unified_excerpt
from edittools.state import Workspace
from sandbox import Baseline, Digester, PendingVersion, SandboxError, TextDocument, Version, decode


def resolved(ws: Workspace, call: Call, given: str) -> str:
    """The root-relative path of the file `given` (a path as the agent spelled it) leads to now,
    for a change of it; `stale_read` when the call's reader read it by that name while it led to
    another file (a file replaced by a symlink, a link pointed elsewhere or replaced by a file, a
    folder on the way swapped): its read vouches for the file it showed, not for this one.

    Judged whatever the contents (the other file may hold the very same bytes): where a change
    lands is part of what the read saw. Not judged when reads are not required or staleness is
    off.
    """
    path = ws.sandbox.relpath(given)
    if not ws.options.require_read or ws.options.stale == "off":
        return path
    name = ws.sandbox.name_of(given)
    then = ws.led_to(name, reader=call.reader)
    if then is not None and then != path:
        raise ToolError(
            "stale_read",
            f"{name} resolved to {then} when this session read it, and now resolves to {path} "
            "(a symbolic link on the way was made, changed or removed since): a change by this "
            f"name would land in another file than the one read. Read {name} again, then retry.",
            {"path": path, "read_as": then},
        )
    return path


def read_existing(ws: Workspace, path: str) -> tuple[bytes, Version]:
    """The bytes and version of an existing file, or a `not_found` error that says what to do."""
    try:
        return ws.sandbox.read_bytes(path, max_bytes=ws.options.max_file_bytes)
    except SandboxError as exc:
        raise _not_found(path, exc) from exc


def read_existing_at(ws: Workspace, path: str) -> tuple[str, bytes, Version]:
    """`read_existing` of a path as an agent gave it, with its resolved relative path first (one
    resolution for both)."""
    try:
        return ws.sandbox.read_file(path, max_bytes=ws.options.max_file_bytes)
    except SandboxError as exc:
        if exc.code != "not_found":
            raise
        raise _not_found(ws.sandbox.relpath(path), exc) from exc


def decoded(ws: Workspace, data: bytes, version: Version) -> TextDocument:
    """A read content decoded, its newline counts taken from (and kept in) the content facts of
    its version, so the same content is not counted again."""
    document = decode(data, counts=ws.contents.newline_counts(version.digest))
    ws.contents.note_newline_counts(version.digest, document.newline_counts)
    return document


def read_existing_deferred(
    ws: Workspace, path: str, *, on_step: Callable[[tuple[int, Digester]], object] | None = None
) -> tuple[bytes, PendingVersion]:
    """`read_existing` whose version is hashed while the caller searches the bytes (`on_step`
    receives the states of the hash, see `Sandbox.read_bytes_deferred`) — or not hashed at all
    when the bytes are what the session last wrote there."""
    try:
        return ws.sandbox.read_bytes_deferred(
            path, max_bytes=ws.options.max_file_bytes, known=_written(ws, path), on_step=on_step
        )
    except SandboxError as exc:
        raise _not_found(path, exc) from exc


def _written(ws: Workspace, path: str) -> Callable[[bytes], str | None]:
    """Gives the digest of bytes equal to what the session last wrote to `path` (else None)."""
    return lambda data: ws.contents.written_digest(path, data)


def _not_found(path: str, exc: SandboxError) -> SandboxError | ToolError:
    if exc.code != "not_found":
        return exc
    return ToolError(
        "not_found",
        f"{path} does not exist. Check the path and its spelling, or create the file with write.",
        {"path": path},
    )


def read_if_exists(ws: Workspace, path: str) -> tuple[bytes, Version] | None:
    """The bytes and version of `path`, or None when it does not exist (one read, one hash)."""
    found = read_if_exists_deferred(ws, path)
    return None if found is None else (found[0], found[1].result())


def read_if_exists_deferred(
    ws: Workspace, path: str, *, on_step: Callable[[tuple[int, Digester]], object] | None = None
) -> tuple[bytes, PendingVersion] | None:
    """`read_if_exists` whose version is hashed while the caller works on the bytes (`on_step`
    receives the states of the hash), or not hashed at all when the bytes are what the session
    last wrote there."""
    try:
        return ws.sandbox.read_bytes_deferred(
            path, max_bytes=ws.options.max_file_bytes, known=_written(ws, path), on_step=on_step
        )
    except SandboxError as exc:
        if exc.code == "not_found":
            return None
        raise


def ensure_fresh(
    ws: Workspace,
    call: Call,
    path: str,
    data: bytes | None,
    version: Version,
    *,
    must_have_read: bool = True,
) -> None:
    """Refuse a change unless the session read `path` and its content is still what it read.

    Staleness is judged by content (its digest), never by mtime, so formatters touching a file
    without changing it cause no false alarms. A real change is shown as a diff (unless `data` is
    None: a file too large to hold, whose refusal names no lines). With
    `must_have_read` off (patches, whose context lines check the content themselves) a file never
    read passes, but one that changed since it was read is still refused. Under the `off` stale
    policy a changed file passes too. The whole-file rule; see `fresh_or_base` for the region one.
    """
    record = _changed_since_read(ws, call, path, version, must_have_read)
    if record is not None and ws.options.stale != "off":
        known = None if data is None else ws.seen_bytes(record)
        raise _stale(path, known, data, changed_by(ws, path, version))


def fresh_or_base(
    ws: Workspace,
    call: Call,
    path: str,
    data: bytes,
    version: Version,
    *,
    must_have_read: bool = True,
) -> Base | None:
    """None when `path` may be changed as it is now (`ensure_fresh` passes); under the `region`
    stale policy, the content the session read when the file changed since (the caller makes its
    change there and merges it onto the file as it is, see `_region`); else `stale_read`."""
    record = _changed_since_read(ws, call, path, version, must_have_read)
    if record is None or ws.options.stale == "off":
        return None
    known = ws.seen_bytes(record)
    by = changed_by(ws, path, version)
    if ws.options.stale == "region" and known is not None:
        return Base(known, by)
    raise _stale(path, known, data, by)


def changed_by(ws: Workspace, path: str, version: Version) -> str:
    """Who made `path` hold `version`, as the words after "changed": " by agent `x` 2 minutes
    ago", " by the tools (in another session) ...", or " outside the tools"."""
    found = ws.writer_of(path, version.digest)
    if found is None:
        return " outside the tools"
    actor, when = found
    who = f" by agent `{actor}`" if actor else " by the tools (in another session)"
    return f"{who} {_ago(time.time() - when)}"


def _ago(seconds: float) -> str:
    if seconds < 2:
        return "just now"
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute"), (1, "second")):
        if seconds >= size:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if count != 1 else ''} ago"
    return "just now"


def _changed_since_read(
    ws: Workspace, call: Call, path: str, version: Version, must_have_read: bool
) -> Baseline | None:
    """The call's reader's record of `path` when the file changed since (None: unchanged, or
    not judged); `not_read` when it was never read and must have been."""
    if not ws.options.require_read:
        return None
    record = ws.seen(path, reader=call.reader)
    if record is None:
        if not must_have_read:
            return None
        raise ToolError(
            "not_read",
            f"{path} has not been read {_by_whom(call)}. Read it first, then retry the change.",
            {"path": path},
        )
    return None if record.digest == version.digest else record


def _stale(path: str, known: bytes | None, data: bytes | None, by: str) -> ToolError:
    """The refusal of a change of a file that changed since it was read, with that diff."""
    if known is None or data is None:
        return ToolError(
            "stale_read",
            f"{path} changed{by} since this session last read it. Read it again, then retry.",
            {"path": path},
        )
    payload = diff_texts(known, data, path=path, include_texts=False)
    shown = unified_excerpt(payload.unified)
    return ToolError(
        "stale_read",
        f"{path} changed{by} since this session last read it (+{payload.stats.added} "
        f"-{payload.stats.removed} since then). Read it again, then retry.\n{shown}",
        {"path": path, "diff": payload.model_dump(mode="json", by_alias=True)},
    )


def _by_whom(call: Call) -> str:
    """Whose reads a `not_read` judged: the agent's, or the session's when it has no name."""
    return "in this session" if call.actor is None else f"by agent `{call.actor}`"
