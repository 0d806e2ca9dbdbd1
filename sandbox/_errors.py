"""The one error type of the sandbox and its stable codes.

Every failure leaves the package as a `SandboxError` whose `code` is one of the strings below. Codes
are never renamed or reused; new ones may be added.

```
SandboxError
 ├─ outside_root    the path, or a symlink on the way, leads outside the root (never clamped)
 ├─ denied          a deny pattern (or the old in-root `.edittools/` folder) covers the path
 ├─ protected       a write under `.git/` or in a bare repository (refused by default; liftable)
 ├─ permission      the operating system refused access (file mode, ownership, read-only mount)
 ├─ not_found       the file, or a directory on the way, does not exist
 ├─ not_a_file      the path names a FIFO, socket, device or other non-regular file
 ├─ is_directory    the path names a directory where a file is needed
 ├─ not_a_directory the path names a file, symlink or other non-folder where a folder is needed
 ├─ not_empty       the folder still has entries, so it was not removed
 ├─ too_large       the file is larger than the read cap
 ├─ stale           compare-and-swap failed: the file changed since the expected version
 ├─ exists          compare-and-swap failed: the file was expected to be absent but exists
 ├─ busy            another process holds the file's lock (or the state database) past the wait
 ├─ loop            too many symlinks (a loop) or a symlink swapped in while opening
 ├─ invalid_path    empty, NUL byte, over-long, or otherwise malformed path
 ├─ binary          the bytes look binary (a NUL byte without a UTF-16/32 byte-order mark)
 ├─ undecodable     no encoding decodes the bytes and encodes them back byte for byte
 ├─ unencodable     the new text cannot be written in the document's encoding
 ├─ io_error        any other operating-system failure (disk full, I/O error, too many open
 │                  files, out of memory: see `transient`)
 ├─ blob_missing    the blob store has no blob with that id
 ├─ blob_corrupt    a stored blob no longer matches its id
 ├─ state_unavailable the state folder (outside the root) cannot be created or opened
 └─ state_corrupt   the state folder holds something unusable (a damaged database, a link, a
                    special file): it is not read and nothing is written
```

Foreign exceptions (`OSError`, `UnicodeError`) are translated at the boundary with `raise ... from
exc`; `from_oserror` holds the errno mapping in one place, `WRONG_KIND` the errnos that say what
stands at a path is not what was asked for, and `transient` the errors about the process or the
system rather than the file (no open descriptor left, no memory).
"""

from __future__ import annotations

import errno

__all__ = ["CODES", "TRANSIENT", "WRONG_KIND", "SandboxError", "from_oserror", "transient"]

CODES: frozenset[str] = frozenset(
    {
        "outside_root",
        "denied",
        "protected",
        "permission",
        "not_found",
        "not_a_file",
        "is_directory",
        "not_a_directory",
        "not_empty",
        "too_large",
        "stale",
        "exists",
        "busy",
        "loop",
        "invalid_path",
        "binary",
        "undecodable",
        "unencodable",
        "io_error",
        "blob_missing",
        "blob_corrupt",
        "state_unavailable",
        "state_corrupt",
    }
)


class SandboxError(Exception):
    """A refused or failed file operation, with a stable `code` and the offending `path`."""

    code: str
    path: str | None

    def __init__(self, code: str, message: str, *, path: str | None = None) -> None:
        if code not in CODES:
            raise ValueError(f"unknown SandboxError code {code!r}")
        super().__init__(message)
        self.code = code
        self.path = path

    @property
    def message(self) -> str:
        """The human-readable sentence(s) explaining what to do next."""
        return str(self.args[0])

    def __repr__(self) -> str:
        return f"SandboxError(code={self.code!r}, path={self.path!r}, message={self.message!r})"


# errno -> (code, what to do next). Anything unlisted becomes io_error.
_ERRNO_CODES: dict[int, tuple[str, str]] = {
    errno.ENOENT: ("not_found", "Check the path, or create the file first."),
    errno.ENOTDIR: ("not_found", "A component of the path is not a directory; check the path."),
    errno.EACCES: ("permission", "The operating system refused access; choose another file."),
    errno.EPERM: ("permission", "The operating system refused the operation; choose another file."),
    errno.EROFS: ("permission", "The file system is read-only; the file cannot be changed."),
    errno.EISDIR: ("is_directory", "The path names a directory; give a file path."),
    errno.ELOOP: ("loop", "Too many symlinks on the way; the path probably has a symlink loop."),
    errno.ENAMETOOLONG: ("invalid_path", "The path or one of its names is too long; shorten it."),
    errno.EXDEV: ("outside_root", "The path leads outside the sandbox root; use a path inside it."),
    errno.EEXIST: ("exists", "The file already exists."),
    errno.ENXIO: (
        "not_a_file",
        "The path names a socket or device; only regular files are allowed.",
    ),
    errno.ENODEV: ("not_a_file", "The path names a device; only regular files are allowed."),
    errno.EMFILE: (
        "io_error",
        "This process has too many files open (its limit, `ulimit -n`, is reached): close the "
        "sessions and sandboxes it no longer uses (`with Session(...)`, or `close()`) or raise "
        "the limit, then retry. Nothing is damaged.",
    ),
    errno.ENFILE: (
        "io_error",
        "The system has too many files open: close files or processes that hold many, or raise "
        "the system's limit (fs.file-max), then retry. Nothing is damaged.",
    ),
    errno.ENOMEM: (
        "io_error",
        "The system is out of memory: free some (or raise this process's limit), then retry. "
        "Nothing is damaged.",
    ),
    errno.ENOBUFS: ("io_error", "The system is out of buffer space: retry in a moment."),
    errno.EAGAIN: ("io_error", "The resource is busy for now: retry in a moment."),
    errno.EINTR: ("io_error", "The operation was interrupted: retry it."),
    errno.ENOSPC: ("io_error", "The disk is full: free some space, then retry."),
    errno.EDQUOT: ("io_error", "The disk quota is exhausted: free some space, then retry."),
}

TRANSIENT: frozenset[int] = frozenset(
    {errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS, errno.EAGAIN, errno.EINTR}
)
"""Errnos about the process or the system, not the file: the same call may succeed later."""

WRONG_KIND: frozenset[int] = frozenset(
    {errno.ELOOP, errno.ENOTDIR, errno.EISDIR, errno.ENXIO, errno.ENODEV}
)
"""Errnos of an open that met another kind of entry than it asked for: a symlink (no-follow), a
file where a folder is needed or the reverse, a FIFO, socket or device."""


def from_oserror(exc: OSError, path: str | None, action: str) -> SandboxError:
    """Translate an `OSError` met while doing `action` on `path` into a `SandboxError`."""
    code, advice = _ERRNO_CODES.get(
        exc.errno or 0,
        ("io_error", "The operating system reported an error; retry or check the disk."),
    )
    reason = exc.strerror or type(exc).__name__
    where = f" {path!r}" if path is not None else ""
    return SandboxError(code, f"Cannot {action}{where}: {reason}. {advice}", path=path)


def transient(exc: BaseException) -> bool:
    """Whether `exc`, or the `OSError` it was translated from, is `TRANSIENT`."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno in TRANSIENT:
            return True
        seen = seen.__cause__
    return False
