"""A change keeps the file's metadata: mode (special bits too), owner, extended attributes.

Real files on the test's file system: user attributes everywhere; ACLs, file capabilities and
`trusted.*` where the process may set them (root). The unprivileged case runs in a forked child
that drops to `nobody`, since the kernel treats the setgid bit differently for it.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import struct
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from edittools import Session, ToolResult
from sandbox import Sandbox

NOBODY = 65534

_ACL_USER_OBJ, _ACL_USER, _ACL_GROUP_OBJ, _ACL_MASK, _ACL_OTHER = 0x01, 0x02, 0x04, 0x10, 0x20
_ACL_UNDEFINED_ID = 0xFFFFFFFF


def _acl(*entries: tuple[int, int, int]) -> bytes:
    """A POSIX ACL as the kernel stores it in `system.posix_acl_access` (version 2)."""
    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *e) for e in entries)


ACL = _acl(
    (_ACL_USER_OBJ, 6, _ACL_UNDEFINED_ID),
    (_ACL_USER, 4, 4242),
    (_ACL_GROUP_OBJ, 4, _ACL_UNDEFINED_ID),
    (_ACL_MASK, 4, _ACL_UNDEFINED_ID),
    (_ACL_OTHER, 0, _ACL_UNDEFINED_ID),
)
# File capabilities, version 2: effective, cap_net_bind_service (bit 10) permitted.
CAPS = struct.pack("<IIIII", 0x02000001, 1 << 10, 0, 0, 0)

root_only = pytest.mark.skipif(os.geteuid() != 0, reason="needs a privileged process")


def _xattrs_work(folder: Path) -> bool:
    probe = folder / ".probe"
    probe.write_bytes(b"")
    try:
        os.setxattr(probe, "user.probe", b"1")
    except OSError as exc:
        if exc.errno in (errno.ENOTSUP, errno.EOPNOTSUPP):
            return False
        raise
    finally:
        probe.unlink()
    return True


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    if not _xattrs_work(folder):
        pytest.skip("this file system keeps no user extended attributes")
    return folder


def _attrs(path: Path) -> dict[str, bytes]:
    return {name: os.getxattr(path, name) for name in os.listxattr(path)}


def _ok(result: ToolResult) -> ToolResult:
    assert not result.is_error, result.value
    assert "could not keep" not in result.value, result.value
    return result


def _edit(s: Session) -> None:
    _ok(s.edit("a.txt", "two", "TWO"))


def _write(s: Session) -> None:
    _ok(s.write("a.txt", "one\nzwei\nthree\n"))


def _patch(s: Session) -> None:
    _ok(s.apply_patch("--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"))


def _multi(s: Session) -> None:
    _ok(s.multi_edit("a.txt", [{"old_string": "one", "new_string": "1"}]))


CHANGES: dict[str, Callable[[Session], None]] = {
    "edit": _edit,
    "write": _write,
    "apply_patch": _patch,
    "multi_edit": _multi,
}


@pytest.mark.parametrize("change", CHANGES)
def test_user_attributes_and_mode_survive_a_change_and_its_undo(
    session: Session, root: Path, change: str
) -> None:
    path = root / "a.txt"
    path.write_text("one\ntwo\nthree\n")
    os.setxattr(path, "user.origin", b"x")
    os.setxattr(path, "user.empty", b"")
    os.chmod(path, 0o640)
    session.read("a.txt")
    CHANGES[change](session)
    assert path.read_text() != "one\ntwo\nthree\n"
    assert _attrs(path) == {"user.origin": b"x", "user.empty": b""}
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    _ok(session.undo("a.txt"))
    assert path.read_text() == "one\ntwo\nthree\n"
    assert _attrs(path) == {"user.origin": b"x", "user.empty": b""}
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_rewind_keeps_attributes(session: Session, root: Path) -> None:
    path = root / "a.txt"
    path.write_text("one\ntwo\nthree\n")
    session.read("a.txt")
    cp = session.checkpoint("before")
    _edit(session)
    os.setxattr(path, "user.later", b"set after the edit")
    _ok(session.rewind(cp))
    assert path.read_text() == "one\ntwo\nthree\n"
    assert _attrs(path) == {"user.later": b"set after the edit"}


def test_a_streamed_edit_of_a_file_over_the_cap_keeps_attributes(root: Path) -> None:
    path = root / "big.txt"
    path.write_bytes(b"".join(b"line %d\n" % n for n in range(200_000)))
    os.setxattr(path, "user.origin", b"big")
    os.chmod(path, 0o2750)
    with Session(root, max_file_bytes=1 << 20, scan_chunk_bytes=4096) as s:
        assert not s.read("big.txt").is_error
        result = _ok(s.edit("big.txt", "line 10000\n", "LINE\n"))
        assert "big.txt" in result.value
        assert b"LINE\n" in path.read_bytes()
        assert _attrs(path) == {"user.origin": b"big"}
        assert stat.S_IMODE(path.stat().st_mode) == 0o2750
        _ok(s.undo("big.txt"))
    assert b"LINE\n" not in path.read_bytes()
    assert _attrs(path) == {"user.origin": b"big"}
    assert stat.S_IMODE(path.stat().st_mode) == 0o2750


def test_sandbox_write_bytes_keeps_attributes(root: Path) -> None:
    path = root / "a.txt"
    path.write_text("old\n")
    os.setxattr(path, "user.origin", b"x")
    with Sandbox(root) as sb:
        version = sb.write_bytes("a.txt", b"new\n")
    assert version.unkept == ()
    assert path.read_bytes() == b"new\n"
    assert _attrs(path) == {"user.origin": b"x"}


def test_an_acl_the_folder_hands_down_is_not_added(session: Session, root: Path) -> None:
    path = root / "a.txt"
    path.write_text("one\ntwo\nthree\n")
    os.chmod(path, 0o600)
    folder_default = _acl(
        (_ACL_USER_OBJ, 7, _ACL_UNDEFINED_ID),
        (_ACL_USER, 7, 4242),
        (_ACL_GROUP_OBJ, 5, _ACL_UNDEFINED_ID),
        (_ACL_MASK, 7, _ACL_UNDEFINED_ID),
        (_ACL_OTHER, 5, _ACL_UNDEFINED_ID),
    )
    try:
        os.setxattr(root, "system.posix_acl_default", folder_default)
    except OSError as exc:
        pytest.skip(f"no POSIX ACLs here ({exc.strerror})")
    session.read("a.txt")
    _edit(session)
    assert "system.posix_acl_access" not in os.listxattr(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@root_only
def test_acl_capabilities_trusted_and_special_bits_survive_as_root(
    session: Session, root: Path
) -> None:
    path = root / "a.txt"
    path.write_text("one\ntwo\nthree\n")
    os.chown(path, 4242, 4343)
    try:
        os.setxattr(path, "system.posix_acl_access", ACL)
    except OSError as exc:
        pytest.skip(f"no POSIX ACLs here ({exc.strerror})")
    os.setxattr(path, "trusted.origin", b"t")
    os.chmod(path, 0o6740)
    os.setxattr(path, "security.capability", CAPS)  # after chmod/chown, which drop it
    before = _attrs(path)
    assert set(before) == {"system.posix_acl_access", "trusted.origin", "security.capability"}
    session.read("a.txt")
    for change in ("edit", "write", "apply_patch"):
        CHANGES[change](session)
        st = path.stat()
        assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (4242, 4343, 0o6740), change
        assert _attrs(path) == before, change
        _ok(session.undo("a.txt"))
        assert _attrs(path) == before, change
        assert stat.S_IMODE(path.stat().st_mode) == 0o6740


def _as_nobody(work: Callable[[], object]) -> object:
    """Run `work` in a forked child under uid/gid `nobody` (when root) and return its JSON."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 1
        try:
            os.close(read_end)
            if os.geteuid() == 0:
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)
            out = json.dumps(work()).encode()
            while out:
                out = out[os.write(write_end, out) :]
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0 and data, "the child failed"
    return json.loads(data)


@pytest.fixture
def shared() -> Iterator[Path]:
    """A folder `nobody` may write in (pytest's own temp folders are closed to other users)."""
    folder = Path(tempfile.mkdtemp(prefix="edittools-meta-"))
    try:
        if os.geteuid() == 0:
            os.chown(folder, NOBODY, NOBODY)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_setgid_is_kept_for_an_unprivileged_writer(shared: Path, tmp_path: Path) -> None:
    # Everything the child runs is imported first: once it is nobody it may not read our files.
    with Session(tmp_path) as warm:
        (tmp_path / "w.txt").write_text("a\n")
        warm.read("w.txt")
        warm.edit("w.txt", "a", "b")
        warm.undo("w.txt")
        warm.write("w.txt", "c\n")

    def work() -> object:
        work_root = shared / "root"
        work_root.mkdir()
        path = work_root / "a.txt"
        path.write_text("one\ntwo\n")
        os.chmod(path, 0o2755)
        out: dict[str, object] = {"before": stat.S_IMODE(path.stat().st_mode)}
        with Session(work_root, state_dir=shared / "state") as s:
            s.read("a.txt")
            out["edit"] = s.edit("a.txt", "two", "TWO").value
            out["after_edit"] = stat.S_IMODE(path.stat().st_mode)
            out["undo"] = s.undo("a.txt").value
            out["after_undo"] = stat.S_IMODE(path.stat().st_mode)
            out["text"] = path.read_text()
        return out

    result = _as_nobody(work)
    assert isinstance(result, dict)
    assert result["before"] == 0o2755, result
    assert "Edited a.txt" in str(result["edit"]) and "could not keep" not in str(result["edit"])
    assert result["after_edit"] == 0o2755, oct(int(result["after_edit"]))
    assert result["after_undo"] == 0o2755, oct(int(result["after_undo"]))
    assert result["text"] == "one\ntwo\n"


@root_only
def test_an_owner_that_cannot_be_kept_is_named_in_the_result(shared: Path, tmp_path: Path) -> None:
    work_root = shared / "root"
    work_root.mkdir()
    os.chown(work_root, NOBODY, NOBODY)
    path = work_root / "a.txt"
    path.write_text("one\ntwo\n")
    os.chmod(path, 0o666)  # root's file, writable by everyone
    with Session(tmp_path) as warm:  # imports, as root
        (tmp_path / "w.txt").write_text("a\n")
        warm.read("w.txt")
        warm.edit("w.txt", "a", "b")

    def work() -> object:
        with Session(work_root, state_dir=shared / "state") as s:
            s.read("a.txt")
            result = s.edit("a.txt", "two", "TWO")
            return {"is_error": result.is_error, "value": result.value}

    result = _as_nobody(work)
    assert isinstance(result, dict)
    assert result["is_error"] is False
    value = str(result["value"])
    assert "Edited a.txt" in value
    assert "could not keep a.txt: its owner (uid 0;" in value, value
    assert path.read_text() == "one\nTWO\n"
    assert path.stat().st_uid == NOBODY
    assert stat.S_IMODE(path.stat().st_mode) == 0o666
