"""A `ctypes` wrapper for Linux's `openat2` system call (Linux 5.6+).

`openat2(dirfd, path, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)` lets the kernel resolve a whole path
while refusing, with `EXDEV`, every step that would leave `dirfd` — `..` past it, absolute paths and
absolute or escaping symlinks — and, with `ELOOP`, every `/proc` magic link. The check and the open
are one atomic operation, so no rename race can slip between them. `RESOLVE_IN_ROOT` is deliberately
not used: it clamps escapes to the root instead of refusing them.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys

__all__ = ["RESOLVE_BENEATH", "RESOLVE_NO_MAGICLINKS", "available", "openat2"]

SYS_OPENAT2 = 437  # the same on every architecture: numbers from 424 on are shared
RESOLVE_NO_MAGICLINKS = 0x02
RESOLVE_BENEATH = 0x08

_EAGAIN_RETRIES = 64


class _OpenHow(ctypes.Structure):
    _fields_ = (
        ("flags", ctypes.c_uint64),
        ("mode", ctypes.c_uint64),
        ("resolve", ctypes.c_uint64),
    )


_syscall = None
if sys.platform.startswith("linux"):
    try:
        _libc = ctypes.CDLL(None, use_errno=True)
        _syscall = _libc.syscall
        _syscall.restype = ctypes.c_long
        _syscall.argtypes = (
            ctypes.c_long,
            ctypes.c_int,
            ctypes.c_char_p,
            ctypes.POINTER(_OpenHow),
            ctypes.c_size_t,
        )
    except (OSError, AttributeError):  # no usable libc: the walker takes over
        _syscall = None


def openat2(dirfd: int, path: str, flags: int, resolve: int, mode: int = 0) -> int:
    """Open `path` relative to `dirfd` with `resolve` flags; return the fd or raise `OSError`.

    `EAGAIN` (the kernel saw a concurrent rename and gave up to stay safe) is retried a bounded
    number of times before it is raised.
    """
    if _syscall is None:
        raise OSError(errno.ENOSYS, os.strerror(errno.ENOSYS))
    how = _OpenHow(flags | os.O_CLOEXEC, mode, resolve)
    raw = os.fsencode(path)
    for _ in range(_EAGAIN_RETRIES):
        fd = _syscall(SYS_OPENAT2, dirfd, raw, ctypes.byref(how), ctypes.sizeof(how))
        if fd >= 0:
            return int(fd)
        err = ctypes.get_errno()
        if err not in (errno.EAGAIN, errno.EINTR):
            raise OSError(err, os.strerror(err), path)
    raise OSError(errno.EAGAIN, os.strerror(errno.EAGAIN), path)


def available(dirfd: int) -> bool:
    """Whether `openat2` works here (kernel, libc, seccomp) and `/proc` names descriptors."""
    try:
        fd = openat2(
            dirfd, ".", os.O_RDONLY | os.O_DIRECTORY, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS
        )
    except OSError:
        return False
    try:
        # The openat2 resolver learns the canonical location of a directory from /proc/self/fd.
        os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return False
    finally:
        os.close(fd)
    return True
