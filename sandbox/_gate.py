"""The gate every `Sandbox` path passes: resolution beneath the root, then the deny checks.

A `PathGate` resolves a user path with the `PathResolver` and refuses it when a deny pattern or the
state folder covers any entry met on the way (the path itself and each symlink hop). A missing
folder inside a denied area is reported as denied, not as not_found, and folders that
`make_parents` would create are refused when a pattern covers them. The small checks and errors
that every file operation shares after resolving live here too.
"""

from __future__ import annotations

import os
import stat

import pathspec

from ._errors import SandboxError
from ._paths import PathResolver, Resolved

__all__ = ["RETRIES", "PathArg", "PathGate", "check_state_dir", "raced", "require_file"]

PathArg = str | os.PathLike[str]
RETRIES = 3  # re-resolutions when an entry turns into a symlink between resolving and opening


class PathGate:
    """Resolves paths beneath the root and refuses those a deny pattern or the state folder covers.

    `state_name` is the state folder's checked relative path (see `check_state_dir`); `deny` takes
    gitignore-style patterns matched on the resolved relative path.
    """

    def __init__(self, paths: PathResolver, *, state_name: str, deny: list[str]) -> None:
        self._paths = paths
        self._state_name = state_name
        self._spec = pathspec.GitIgnoreSpec.from_lines(deny)

    def is_denied(self, relpath: str) -> bool:
        """Whether a resolved relative path matches a deny pattern or lies in the state folder."""
        # A trailing "/" is kept: it asks whether the folder itself is denied ("secret/").
        rel = relpath.lstrip("/")
        if rel in ("", ".", "/", "./"):
            return False
        state = self._state_name
        if rel == state or rel.startswith(state + "/"):
            return True
        return bool(self._spec.match_file(rel))

    def rel(self, path: PathArg, *, check_deny: bool) -> str:
        """The resolved relative path, or the name a missing path would get."""
        try:
            with self.resolve(path, check_deny=check_deny) as r:
                return r.rel
        except SandboxError as exc:
            if exc.code != "not_found":
                raise
            rel = self._missing_rel(path)
            if rel is None:
                raise
            return rel

    def resolve(
        self,
        path: PathArg,
        *,
        follow: bool = True,
        make_parents: bool = False,
        check_deny: bool = True,
    ) -> Resolved:
        """Resolve `path`; with `check_deny`, refuse it when any entry on the way is denied."""
        if self._paths.root_fd < 0:
            raise SandboxError("io_error", "This sandbox is closed; open a new Sandbox.")
        try:
            r = self._paths.resolve(
                path, follow=follow, make_parents=make_parents, guard=self._guard_dir
            )
        except SandboxError as exc:
            # A missing folder inside a denied area is reported as denied, not as not_found.
            if exc.code == "not_found":
                rel = self._missing_rel(path)
                if rel is not None and self.is_denied(rel):
                    raise _denied(rel) from None
            raise
        if not check_deny:
            return r
        is_dir = r.stat is not None and stat.S_ISDIR(r.stat.st_mode)
        for rel in r.visited:
            if self.is_denied(rel) or (is_dir and rel == r.rel and self.is_denied(rel + "/")):
                r.close()
                raise _denied(rel)
        return r

    def _missing_rel(self, path: PathArg) -> str | None:
        """The would-be relative path of a path whose folders are partly missing (None if unknown).

        A way that leaves the root raises outside_root here, even through folders not made yet.
        """
        try:
            return self._paths.would_be(path)
        except SandboxError as exc:
            if exc.code == "outside_root":
                raise
            return None

    def _guard_dir(self, rel: str) -> None:
        """Refuse to create a directory that a deny pattern covers (make_parents)."""
        if self.is_denied(rel) or self.is_denied(rel + "/"):
            raise _denied(rel)


def check_state_dir(state_dir: str) -> str:
    """The state folder's normalised relative path; invalid_path unless it stays inside the root."""
    parts = [p for p in state_dir.split("/") if p not in ("", ".")]
    if not parts or ".." in parts or state_dir.startswith("/") or "\0" in state_dir:
        raise SandboxError(
            "invalid_path",
            f"state_dir {state_dir!r} must be a relative path inside the root without '..'.",
            path=state_dir,
        )
    return "/".join(parts)


def require_file(r: Resolved, path: PathArg) -> None:
    """Refuse the root itself where a file path is needed (is_directory)."""
    if r.name is None:
        raise SandboxError(
            "is_directory", f"{os.fspath(path)!r} is the sandbox root; give a file path.", path="."
        )


def raced(path: PathArg) -> SandboxError:
    """The error for an entry that kept turning into a symlink through every retry."""
    return SandboxError(
        "loop",
        f"{os.fspath(path)!r} kept turning into a symlink while being opened; retry later.",
        path=os.fspath(path) if isinstance(os.fspath(path), str) else None,
    )


def _denied(rel: str) -> SandboxError:
    return SandboxError(
        "denied",
        f"{rel!r} is protected (a deny pattern or the state folder covers it); the tools may not "
        "touch it. Choose another path.",
        path=rel,
    )
