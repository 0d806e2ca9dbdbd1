"""Child process of the lifetime tests: sessions dropped or opened until the descriptors run out.

Run as `python lifetime_child.py MODE ROOT ...`; prints one JSON object on stdout. Each mode runs
in its own process so that a leak, or a lowered descriptor limit, cannot touch the test run.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import sys
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from edittools import Session, ToolResult
from sandbox import SandboxError

PATCH = "*** Begin Patch\n*** Update File: a.txt\n@@\n-{old}\n+{new}\n*** End Patch\n"


def descriptors() -> int:
    """How many descriptors this process holds (the listing's own one left out)."""
    return len(os.listdir("/proc/self/fd")) - 1


@contextmanager
def limit(soft: int) -> Iterator[None]:
    """Let the block open descriptors numbered below `soft` only."""
    old, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (old, hard))


def warm(root: str) -> None:
    """Run every call once, so imports and first-use folders cost no descriptor later."""
    with Session(root) as s:
        s.read("a.txt")
        s.edit("a.txt", "v0", "v1")
        s.undo("a.txt")
        s.apply_patch(PATCH.format(old="v0", new="v1"))
        s.undo("a.txt")
        s.write("new.txt", "fresh\n")
        s.undo("new.txt")
        cp = s.checkpoint()
        s.changes(cp)
        s.journal()


def drop(root: str, count: int, soft: int, watch_every: int) -> dict[str, Any]:
    """Open, use and drop `count` sessions unclosed; every `watch_every`th also starts a watcher.

    The descriptor limit is `soft`: a session that kept even one descriptor would run the
    process out long before the end.
    """
    warm(root)
    gc.collect()
    fds, threads = descriptors(), threading.active_count()
    peak = fds
    with warnings.catch_warnings(record=True) as caught, limit(soft):
        warnings.simplefilter("always", ResourceWarning)
        for i in range(count):
            s = Session(root)
            s.read("a.txt")
            old, new = ("v0", "v1") if i % 2 == 0 else ("v1", "v0")
            result = s.edit("a.txt", old, new)
            if result.is_error:
                raise AssertionError(result.value)
            if watch_every and i % watch_every == 0:
                s.watch()
            del s
            peak = max(peak, descriptors())
        gc.collect()
        unclosed = sum(issubclass(w.category, ResourceWarning) for w in caught)
    return {
        "fds_before": fds,
        "fds_after": descriptors(),
        "fds_peak": peak,
        "threads_before": threads,
        "threads_after": threading.active_count(),
        "resource_warnings": unclosed,
    }


def _calls(s: Session, k: int) -> list[tuple[str, Callable[[], ToolResult]]]:
    return [
        ("read", lambda: s.read("a.txt")),
        ("edit", lambda: s.edit("a.txt", "v0", f"v{k}")),
        (
            "multi_edit",
            lambda: s.multi_edit("a.txt", [{"old_string": f"v{k}", "new_string": "v0"}]),
        ),
        ("apply_patch", lambda: s.apply_patch(PATCH.format(old="v0", new="v1"))),
        ("undo", lambda: s.undo("a.txt")),
        ("write", lambda: s.write(f"w{k}.txt", "fresh\n")),
        ("changes", lambda: s.changes()),
    ]


def exhaust(root: str, spare: int) -> dict[str, Any]:
    """Open a session, then call each tool, with 0 .. `spare` descriptors to spare.

    Returns every refusal met (where, code, message), whether a failed open left a descriptor
    behind, and what a session opened afterwards with the limit lifted finds of the history.
    """
    warm(root)
    with Session(root) as s:  # a change before the crunch, for an undo after it
        s.read("keep.txt")
        s.edit("keep.txt", "kept", "changed")
    gc.collect()
    base = descriptors()
    opens: list[dict[str, Any]] = []
    leaks: list[int] = []
    for k in range(spare + 1):
        try:
            with limit(base + k):
                s = Session(root)
        except SandboxError as exc:
            opens.append({"spare": k, "code": exc.code, "message": exc.message})
        except Exception as exc:  # anything but a SandboxError is a failure of the test
            opens.append({"spare": k, "code": type(exc).__name__, "message": str(exc)})
        else:
            s.close()
        if descriptors() != base:
            leaks.append(k)
    calls: list[dict[str, Any]] = []
    with Session(root) as s:
        s.read("a.txt")
        held = descriptors()
        for k in range(spare + 1):
            for name, call in _calls(s, k):
                with limit(held + k):
                    result = call()
                if result.is_error:
                    code = (
                        getattr(result.artifact.payload, "code", None) if result.artifact else None
                    )
                    calls.append({"spare": k, "tool": name, "code": code, "message": result.value})
    with Session(root) as after:
        undone = after.undo("keep.txt")
    with open(os.path.join(root, "keep.txt")) as f:
        kept = f.read()
    return {
        "opens": opens,
        "leaks": leaks,
        "calls": calls,
        "undo_after": None if not undone.is_error else undone.value,
        "keep_after_undo": kept,
    }


def crowd(root: str, soft: int) -> dict[str, Any]:
    """Keep sessions open under a descriptor limit of `soft` until one fails to open."""
    warm(root)
    with Session(root) as s:
        s.read("keep.txt")
        s.edit("keep.txt", "kept", "changed")
    sessions: list[Session] = []
    failure: dict[str, Any] = {}
    with limit(soft):
        while len(sessions) < soft:
            try:
                sessions.append(Session(root))
            except SandboxError as exc:
                failure = {"code": exc.code, "message": exc.message}
                break
            except Exception as exc:
                failure = {"code": type(exc).__name__, "message": str(exc)}
                break
    opened = len(sessions)
    for s in sessions:
        s.close()
    with Session(root) as after:
        undone = after.undo("keep.txt")
    return {"opened": opened, "failure": failure, "undo_after": undone.is_error}


def main(argv: list[str]) -> None:
    mode, root, *rest = argv
    if mode == "drop":
        out = drop(root, int(rest[0]), int(rest[1]), int(rest[2]))
    elif mode == "exhaust":
        out = exhaust(root, int(rest[0]))
    elif mode == "crowd":
        out = crowd(root, int(rest[0]))
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
