"""The portable resolver: walk a path one directory descriptor at a time.

Used where `openat2` is missing (older Linux, macOS, the BSDs) and as the authority whenever
`openat2` refuses a path, because the kernel refuses absolute symlinks even when they point back
inside the root.

Each component is opened relative to the descriptor of the previous one with `O_NOFOLLOW`, so the
kernel never follows a link on our behalf. `..` pops our own stack of descriptors (popping past the
root is an escape), and a symlink is read with `readlinkat` and its target pushed onto the remaining
components: relative targets continue from the current directory, absolute ones must name a place
under the root and restart from the root descriptor. A renamed-away directory cannot carry the walk
outside, because the walk never opens a name that is not relative to a descriptor it already holds.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence

from ._errors import SandboxError, from_oserror

__all__ = ["MAX_HOPS", "strip_root", "walk_dir"]

MAX_HOPS = 40  # the kernel's own limit on symlinks in one resolution

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def strip_root(target: str, roots: Sequence[tuple[str, ...]]) -> list[str] | None:
    """Components of absolute `target` below the root, or None when it lies outside the root.

    `roots` are the spellings of the root's absolute path (canonical first); the comparison is by
    whole components, so a sibling such as `<root>_evil` never matches.
    """
    parts = [p for p in target.split("/") if p not in ("", ".")]
    for root_parts in roots:
        if tuple(parts[: len(root_parts)]) == root_parts:
            return parts[len(root_parts) :]
    return None


def outside(display: str) -> SandboxError:
    """The error for a path that leads outside the root."""
    return SandboxError(
        "outside_root",
        f"The path {display!r} leads outside the sandbox root (through '..', an absolute path or a "
        "symlink). Use a path inside the root.",
        path=display,
    )


def too_many_links(display: str) -> SandboxError:
    """The error for a resolution that met more than MAX_HOPS symlinks."""
    return SandboxError(
        "loop",
        f"Resolving {display!r} met more than {MAX_HOPS} symlinks; the path probably has a symlink "
        "loop. Fix or remove the link.",
        path=display,
    )


def walk_dir(
    root_fd: int, roots: Sequence[tuple[str, ...]], parts: Sequence[str], display: str
) -> tuple[int, tuple[str, ...]]:
    """Open the directory `parts` beneath `root_fd`; return its descriptor and canonical parts.

    The caller owns the returned descriptor. Raises `SandboxError` (outside_root, loop, not_found,
    ...).
    """
    stack: list[tuple[int, str]] = []
    pending = list(reversed(parts))
    hops = 0
    try:
        while pending:
            comp = pending.pop()
            if comp in ("", "."):
                continue
            if comp == "..":
                if not stack:
                    raise outside(display)
                os.close(stack.pop()[0])
                continue
            cur = stack[-1][0] if stack else root_fd
            try:
                fd = os.open(comp, _DIR_FLAGS, dir_fd=cur)
            except OSError as exc:
                if exc.errno not in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                    raise from_oserror(exc, display, "open directory") from exc
                try:
                    target = os.readlink(comp, dir_fd=cur)
                except OSError:  # not a symlink after all: a file in the way
                    raise from_oserror(exc, display, "open directory") from exc
                hops += 1
                if hops > MAX_HOPS:
                    raise too_many_links(display) from None
                if target.startswith("/"):
                    inner = strip_root(target, roots)
                    if inner is None:
                        raise outside(display) from None
                    while stack:
                        os.close(stack.pop()[0])
                    pending.extend(reversed(inner))
                else:
                    pending.extend(reversed(target.split("/")))
                continue
            stack.append((fd, comp))
        names = tuple(name for _, name in stack)
        try:
            result = stack.pop()[0] if stack else os.dup(root_fd)
        except OSError as exc:  # out of descriptors: say so, and what to do
            raise from_oserror(exc, display, "open") from exc
        return result, names
    finally:
        while stack:
            os.close(stack.pop()[0])
