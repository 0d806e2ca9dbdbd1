"""What a replaced file keeps besides its bytes: owner, group, mode and extended attributes.

A temp file written in a file's place gets the mode of the file it replaces before its content
goes in (`take_mode`), and the rest once it is in (`take_meta`); what cannot be kept (an owner a
process may not give away, an attribute the file system refuses) is said, never silently lost.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from dataclasses import dataclass

__all__ = ["FileMeta", "file_meta", "take_meta", "take_mode", "why"]


def take_mode(fd: int, like: os.stat_result) -> None:
    """Give the temp file `fd`, before its content is written, the permission bits of `like`.

    No setuid, setgid or sticky bit yet (writing would clear them): `take_meta` sets the whole
    mode once the content is in. Until then the temp file is no more open than the file it
    replaces.
    """
    os.fchmod(fd, stat.S_IMODE(like.st_mode) & 0o777)


# Extended attributes a new content takes over from the file it replaces: the user's own, the
# security modules' (labels, file capabilities), POSIX ACLs, and `trusted.*`, which the kernel
# lists only to a privileged process (so it is copied exactly when it can be read).
_KEPT_XATTRS = ("user.", "security.", "system.posix_acl_", "trusted.")


@dataclass(frozen=True)
class FileMeta:
    """What a file carries besides its bytes: owner, mode, extended attributes.

    Read from the file a change replaces (`file_meta`) and given to its replacement after the
    content is written (`take_meta`). `unkept` names what could not even be read.
    """

    uid: int
    gid: int
    mode: int
    """Permission bits with the setuid, setgid and sticky bits."""
    xattrs: tuple[tuple[str, bytes], ...] = ()
    unkept: tuple[str, ...] = ()

    @classmethod
    def of_stat(cls, st: os.stat_result, unkept: tuple[str, ...] = ()) -> FileMeta:
        """The owner and mode of `st`, without extended attributes."""
        return cls(st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode), (), unkept)


def file_meta(fd: int, st: os.stat_result) -> FileMeta:
    """The metadata of the open regular file `fd` (`st` is its stat) a replacement keeps."""
    xattrs: list[tuple[str, bytes]] = []
    unkept: list[str] = []
    try:
        names = os.listxattr(fd)
    except OSError as exc:
        names = []
        if exc.errno not in (errno.ENOTSUP, errno.EOPNOTSUPP):  # else: none on this file system
            unkept.append(f"its extended attributes (they cannot be listed: {why(exc)})")
    for name in names:
        if not name.startswith(_KEPT_XATTRS):
            unkept.append(f"the extended attribute {name} (not a kind that is copied)")
            continue
        try:
            xattrs.append((name, os.getxattr(fd, name)))
        except OSError as exc:
            if exc.errno != errno.ENODATA:  # removed since it was listed: nothing to keep
                unkept.append(f"the extended attribute {name} (it cannot be read: {why(exc)})")
    return FileMeta(st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode), tuple(xattrs), tuple(unkept))


def take_meta(fd: int, meta: FileMeta) -> tuple[str, ...]:
    """Give the temp file `fd`, its content written, the owner, extended attributes and mode of
    `meta`; return what could not be kept, each with why. Never raises: the content goes in.

    The order is the kernel's: a write and a change of owner clear the setuid and setgid bits
    and the file capabilities (`security.capability`), so the owner comes first, then the
    attributes, the mode last. An ACL and the mode's group bits are one thing (the ACL's mask),
    so the mode set last leaves the ACL as it was.
    """
    unkept = list(meta.unkept)
    try:
        st = os.fstat(fd)
        if (st.st_uid, st.st_gid) != (meta.uid, meta.gid):
            try:
                os.fchown(fd, meta.uid, meta.gid)
            except PermissionError:
                # An unprivileged writer may still give the file a group it belongs to.
                with contextlib.suppress(PermissionError):
                    os.fchown(fd, -1, meta.gid)
            st = os.fstat(fd)
            if st.st_uid != meta.uid:
                unkept.append(
                    f"its owner (uid {meta.uid}; only a privileged process can give "
                    f"a file to another user, so it now belongs to uid {st.st_uid})"
                )
            if st.st_gid != meta.gid:
                unkept.append(
                    f"its group (gid {meta.gid}; this process is not a member, so "
                    f"it now has gid {st.st_gid})"
                )
    except OSError as exc:
        unkept.append(f"its owner ({why(exc)})")
    wanted = dict(meta.xattrs)
    try:
        present = set(os.listxattr(fd))
    except OSError:
        present = set()
    for name in sorted(present - wanted.keys()):
        # Inherited by the new file (a folder's default ACL) but not on the one it replaces.
        if name.startswith(_KEPT_XATTRS) and not name.startswith("security."):
            try:
                os.removexattr(fd, name)
            except OSError as exc:
                unkept.append(f"the absence of the extended attribute {name} ({why(exc)})")
    for name, value in meta.xattrs:
        try:
            if name not in present or os.getxattr(fd, name) != value:
                os.setxattr(fd, name, value)
        except OSError as exc:
            unkept.append(f"the extended attribute {name} ({why(exc)})")
    try:
        os.fchmod(fd, meta.mode)
        now = stat.S_IMODE(os.fstat(fd).st_mode)
    except OSError as exc:
        unkept.append(f"its mode {meta.mode:04o} ({why(exc)})")
    else:
        if now != meta.mode:
            unkept.append(
                f"its mode {meta.mode:04o} (the system set {now:04o}: a setgid bit "
                "needs the file's group among this process's groups)"
            )
    return tuple(unkept)


def why(exc: OSError) -> str:
    """What the operating system said of a failure, in words."""
    return exc.strerror or type(exc).__name__
