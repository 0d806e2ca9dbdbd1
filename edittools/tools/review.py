"""Net review since a checkpoint: the net diff per file, rewind, and hunk-by-hunk reject/accept.

A file's net diff compares its content at the checkpoint with its content now, whatever steps lay
between. A file whose content differs from what the tools last recorded of it was changed outside
them: its net diff says so (`external`), and rewind refuses to overwrite it without `force`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from edittools._errors import ToolError
from edittools.artifacts import DiffPayload, Hunk, ToolResult
from edittools.artifacts.builders import changeset_result, text_result
from edittools.change import (
    Call,
    Overlap,
    Whole,
    diff_contents,
    execute_all,
    kept_text,
    merge,
    read_if_exists,
    text_or_bytes,
)
from edittools.diff import hunks_payload, unified_excerpt
from edittools.state import Snapshot, Workspace, hunk_key
from edittools.tools._params import (
    AcceptParams,
    ChangesParams,
    HunkRef,
    RejectParams,
    RewindParams,
)
from sandbox import SandboxError, Version, decode

_LINE = re.compile(r"(?<=\n)")


@dataclass(frozen=True)
class _Net:
    """One file changed since a checkpoint: its content then and now, and whether it was changed
    outside the tools since they last recorded it."""

    path: str
    then: bytes | None
    now: bytes | None
    version: Version | None
    external: bool
    recorded: bytes | None


def changes(ws: Workspace, params: ChangesParams, call: Call) -> ToolResult:
    """The net diff of every file the tools changed since the checkpoint, as a changeset; with
    `by`, of each file that agent changed, its own changes alone (the hunks `reject` with `by`
    counts), or the whole net diff where they cannot be told apart from later ones."""
    since = _since(ws, params.since)
    files = []
    chosen = None if params.by is None else ws.checkpoints.changed_by(since, params.by)
    mark = 0 if params.by is None else ws.checkpoints.change_mark(since)
    mixed: set[str] = set()
    for net in _nets(ws, since):
        if chosen is not None and net.path not in chosen:
            continue
        then = net.then
        if params.by is not None:
            try:
                then = _taken_back(ws, mark, net.path, params.by)[2]
            except ToolError:  # met by later changes, or not kept: the whole net diff
                mixed.add(net.path)
        payload = diff_contents(ws, net.path, then, net.now)
        if not params.include_accepted:
            kept = _unaccepted(ws, since, payload)
            if kept is None:
                continue
            payload = kept
        if net.external:
            payload = _marked(payload)
        files.append(payload)
    by = "" if params.by is None else f" by agent `{params.by}`"
    if not files:
        return changeset_result(f"No changes{by} since checkpoint {since}.", [])
    lines = [f"Net changes{by} since checkpoint {since}:"]
    for p in files:
        note = " (also changed outside the tools)" if _is_external(p) else ""
        if p.path in mixed:
            note += " (the whole net diff: these changes meet later ones)"
        lines.append(f"  {p.operation} {p.path} (+{p.stats.added} -{p.stats.removed}){note}")
    return changeset_result("\n".join(lines), files)


def rewind(ws: Workspace, params: RewindParams, call: Call) -> ToolResult:
    """Put back every file the tools changed since the checkpoint, all or none.

    A file changed outside the tools since they last recorded it is refused as `stale`, with
    that outside change as the diff, unless `force`. The rewind is itself a change (each file's
    `undo` takes it back) and is preceded by a checkpoint, so rewinding to that one redoes it.
    """
    since = _since(ws, params.checkpoint)
    if params.by is not None:
        return _rewind_by(ws, call, since, params.by)
    nets = [n for n in _nets(ws, since) if n.now != n.then]
    stale = [n for n in nets if n.external]
    if stale and not params.force:
        files = [diff_contents(ws, n.path, n.recorded, n.now) for n in stale]
        names = ", ".join(n.path for n in stale)
        shown = "\n".join(unified_excerpt(p.unified) for p in files)
        raise ToolError(
            "stale",
            f"{names} changed outside the tools since their last recorded version, so "
            "rewinding would discard that work; nothing was changed. Review the change below, "
            f"then rewind with force to overwrite it, or keep it.\n{shown}",
            {"files": [p.model_dump(mode="json", by_alias=True) for p in files]},
        )
    if not nets:
        return changeset_result(f"Nothing to rewind: no file changed since checkpoint {since}.", [])
    if not call.dry_run:
        ws.checkpoints.take(f"before rewind to {since}", auto="rewind", actor=call.actor)
    planned = [Whole(n.path, n.now, n.version, n.then, restores=True) for n in nets]
    done = execute_all(ws, call, planned)
    files = [d.payload for d in done]
    whose = _whose(ws, ws.checkpoints.change_mark(since), nets)
    lines = [f"Rewound {len(nets)} file(s) to checkpoint {since}{whose}:"]
    lines += [f"  {p.operation} {p.path} (+{p.stats.added} -{p.stats.removed})" for p in files]
    return changeset_result("\n".join(lines) + "".join(d.note for d in done), files)


def _whose(ws: Workspace, mark: int, nets: list[_Net]) -> str:
    """Whose changes a rewind takes back, any agent's and not only the caller's: ", taking back
    changes by agent `a`, agent `b` and outside the tools"; empty when none is known."""
    actors = {c.actor or "" for n in nets for c in ws.history(n.path) if c.id > mark}
    who = [f"agent `{a}`" if a else "an unnamed session" for a in sorted(actors)]
    if any(n.external for n in nets):
        who.append("outside the tools")
    if not who:
        return ""
    listed = who[0] if len(who) == 1 else f"{', '.join(who[:-1])} and {who[-1]}"
    return f", taking back changes by {listed}"


def _rewind_by(ws: Workspace, call: Call, since: int, actor: str) -> ToolResult:
    """Take back `actor`'s changes since checkpoint `since` (`_taken_back`), all files or none."""
    mark = ws.checkpoints.change_mark(since)
    planned = []
    for path in sorted(ws.checkpoints.changed_by(since, actor)):
        now, version, after = _taken_back(ws, mark, path, actor)
        if after != now:
            planned.append(Whole(path, now, version, after, restores=True))
    if not planned:
        return changeset_result(f"Nothing to take back: agent `{actor}` changed no file since "
                                f"checkpoint {since}.", [])  # fmt: skip
    if not call.dry_run:
        label = f"before taking back {actor}'s changes since {since}"
        ws.checkpoints.take(label, auto="rewind", actor=call.actor)
    done = execute_all(ws, call, planned)
    files = [d.payload for d in done]
    lines = [
        f"Took back agent `{actor}`'s changes since checkpoint {since} in {len(files)} file(s):"
    ]
    lines += [f"  {p.operation} {p.path} (+{p.stats.added} -{p.stats.removed})" for p in files]
    return changeset_result("\n".join(lines) + "".join(d.note for d in done), files)


def _taken_back(
    ws: Workspace, mark: int, path: str, actor: str
) -> tuple[bytes | None, Version | None, bytes]:
    """`path` as it is (bytes, version) and as it would be without `actor`'s changes after
    change `mark`: each taken back, newest first, by a three-way merge out of the file as it is
    (the change's after, its before, the file), so every other change is kept. Refused where a
    later change meets one of them (`stale`), or where a content is not text kept in the state."""
    existing = read_if_exists(ws, path)
    now, version = existing if existing is not None else (None, None)
    text = "" if now is None else text_or_bytes(now)
    mine = [c for c in ws.history(path) if c.id > mark and c.actor == actor]
    for change in reversed(mine):
        after = "" if change.after_digest is None else kept_text(ws, change.after_digest)
        before = "" if change.before_blob is None else kept_text(ws, change.before_blob)
        if isinstance(text, bytes) or after is None or before is None:
            raise ToolError(
                "too_large",
                f"{path}: change {change.id} by agent `{actor}` cannot be taken back alone (the "
                "file, or its content before or after that change, is not text kept in the "
                "state). Nothing was changed.",
                {"path": path, "change": change.id},
            )
        try:
            text = merge(after, before, text)
        except Overlap as exc:
            first, last = exc.theirs.lines
            raise ToolError(
                "stale",
                f"{path}: change {change.id} by agent `{actor}` meets a later change (lines "
                f"{first}-{max(first, last)} of what it wrote), so taking it back would undo "
                "that one too. Nothing was changed.",
                {"path": path, "change": change.id},
            ) from exc
    assert isinstance(text, str)
    return now, version, (_encode(now, text) if now is not None else text.encode())


def reject(ws: Workspace, params: RejectParams, call: Call) -> ToolResult:
    """Revert one hunk of a file's net diff, if it still applies to the file as it is now."""
    since = _since(ws, params.since)
    net = _net_of(ws, since, params.path)
    if params.by is not None:  # the net diff of that agent's changes alone
        mark = ws.checkpoints.change_mark(since)
        _, _, without = _taken_back(ws, mark, net.path, params.by)
        net = _Net(net.path, without, net.now, net.version, net.external, net.recorded)
    then_text, now_text = text_or_bytes(net.then), text_or_bytes(net.now)
    if isinstance(then_text, bytes) or isinstance(now_text, bytes):
        raise ToolError(
            "binary",
            f"{net.path} is not text, so its changes cannot be rejected hunk by hunk; rewind "
            "the whole file instead.",
            {"path": net.path},
        )
    hunks = diff_contents(ws, net.path, net.then, net.now).hunks
    index = _find(hunks, params.hunk, net.path)
    if then_text is None or now_text is None or net.now is None:
        after: bytes | None = net.then  # a created or deleted file is one hunk: all of it
        new_text: str | None = then_text
    else:
        new_text = _revert(then_text, now_text, hunks[index])
        after = _encode(net.now, new_text)
    done = execute_all(ws, call, [Whole(net.path, net.now, net.version, after)])[0]
    whose = "" if params.by is None else f" agent `{params.by}`'s changes to"
    return done.result(f"Rejected hunk {index} of{whose}")


def accept(ws: Workspace, params: AcceptParams, call: Call) -> ToolResult:
    """Mark hunks of a file's net diff as reviewed (all of them by default)."""
    since = _since(ws, params.since)
    net = _net_of(ws, since, params.path)
    hunks = diff_contents(ws, net.path, net.then, net.now).hunks
    refs: list[HunkRef] = list(range(len(hunks))) if params.hunks is None else params.hunks
    chosen = [hunks[_find(hunks, ref, net.path)].lines for ref in refs]
    if not call.dry_run:
        ws.checkpoints.accept(since, net.path, chosen)
    return text_result(f"Accepted {len(chosen)} hunk(s) of {net.path} since checkpoint {since}.")


# --- the net state of files -------------------------------------------------------------------


def _since(ws: Workspace, since: int | None) -> int:
    chosen = ws.session_checkpoint if since is None else since
    if chosen is None:
        raise ToolError(
            "invalid_arguments",
            "This session took no checkpoint when it began; give the checkpoint to compare with "
            "(list them with `checkpoints`).",
        )
    if not ws.checkpoints.exists(chosen):
        raise ToolError(
            "not_found",
            f"There is no checkpoint {chosen}. List them (`checkpoints`) and give one of their ids.",
            {"checkpoint": chosen},
        )
    return chosen


def _nets(ws: Workspace, since: int) -> list[_Net]:
    return [_net(ws, path, snap) for path, snap in ws.checkpoints.since(since).items()]


def _net_of(ws: Workspace, since: int, path: str) -> _Net:
    rel = ws.sandbox.relpath(path)
    snap = ws.checkpoints.since(since).get(rel)
    if snap is None:
        raise ToolError(
            "not_found",
            f"The tools have not changed {rel} since checkpoint {since}; there is nothing to "
            "review in it.",
            {"path": rel, "checkpoint": since},
        )
    return _net(ws, rel, snap)


def _net(ws: Workspace, path: str, snap: Snapshot) -> _Net:
    if not snap.known:
        raise ToolError(
            "too_large",
            f"The content of {path} at the checkpoint was too large to keep, so it cannot be "
            "compared or restored.",
            {"path": path},
        )
    try:
        then = ws.checkpoints.content(snap)
    except SandboxError as exc:
        if exc.code not in ("blob_missing", "blob_corrupt", "state_corrupt"):
            raise ToolError.from_sandbox(exc) from exc  # e.g. out of descriptors: not damage
        raise ToolError(
            "state_corrupt",
            f"The saved content of {path} at the checkpoint is missing or damaged in the state "
            f"folder {ws.state_path}. Nothing was changed.",
            {"path": path, "cause": exc.code},
        ) from exc
    existing = read_if_exists(ws, path)
    now, version = existing if existing is not None else (None, None)
    seen = ws.seen(path)
    recorded_sha = None if seen is None else seen.digest
    external = (None if version is None else version.digest) != recorded_sha
    recorded = None if seen is None else ws.seen_bytes(seen)
    return _Net(path, then, now, version, external, recorded)


def _unaccepted(ws: Workspace, since: int, payload: DiffPayload) -> DiffPayload | None:
    """The payload without its accepted hunks; None when every hunk was accepted."""
    accepted = ws.checkpoints.accepted(since, payload.path)
    if not accepted:
        return payload
    kept = [h for h in payload.hunks if hunk_key(h.lines) not in accepted]
    if not kept:
        return None
    if len(kept) == len(payload.hunks):
        return payload
    return hunks_payload(kept, path=payload.path)


def _marked(payload: DiffPayload) -> DiffPayload:
    """The payload flagged as changed outside the tools."""
    return payload.model_copy(update={"external": True})


def _is_external(payload: DiffPayload) -> bool:
    return payload.external


# --- hunks ------------------------------------------------------------------------------------


def _find(hunks: list[Hunk], ref: HunkRef, path: str) -> int:
    """The index of the hunk `ref` names in the file's current net diff, or `stale`."""
    if isinstance(ref, int):
        if 0 <= ref < len(hunks):
            return ref
        raise ToolError(
            "invalid_arguments",
            f"{path} has {len(hunks)} hunk(s) in its net diff (0 to {len(hunks) - 1}); hunk "
            f"{ref} is not one of them. Call changes to see them.",
            {"path": path, "hunk": ref},
        )
    lines = ref.get("lines")
    matches = [i for i, h in enumerate(hunks) if h.lines == lines]
    if not matches:
        raise ToolError(
            "stale",
            f"That hunk no longer applies to {path} as it is now (the file changed since the "
            "diff was made). Call changes again and review the new diff.",
            {"path": path},
        )
    start = ref.get("new_start")
    return min(matches, key=lambda i: abs((hunks[i].new_start or 0) - _number(start)))


def _number(value: Any) -> int:
    return value if isinstance(value, int) else 0


def _revert(then: str, now: str, hunk: Hunk) -> str:
    """`now` with the hunk's lines put back as they were `then` (the hunk is of then → now)."""
    old_lines = _LINE.split(then)
    new_lines = _LINE.split(now)
    a = _offset(hunk.old_start, hunk.old_lines)
    b = _offset(hunk.new_start, hunk.new_lines)
    restored = old_lines[a : a + hunk.old_lines]
    return "".join(new_lines[:b] + restored + new_lines[b + hunk.new_lines :])


def _offset(start: int | None, count: int) -> int:
    """The 0-based first line of a hunk side (an empty side's start is the line before it)."""
    start = start or 0
    return start - 1 if count else start


def _encode(now: bytes, text: str) -> bytes:
    """`text` in the file's own encoding, BOM and newline style."""
    return decode(now).with_text(text).encode()
