"""Confinement that lets the right things through: in-root symlinks, relpath, deny patterns."""

from __future__ import annotations

import os
import pathlib
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sandbox_world import World, make_world, openat2_works

from sandbox import Sandbox, SandboxError


def test_auto_picks_openat2_where_the_kernel_offers_it(world: World) -> None:
    with Sandbox(world.root) as box:
        assert box.resolver == ("openat2" if openat2_works() else "walker")


@pytest.mark.parametrize(
    ("path", "target"),
    [
        ("ok_link", "inner/file.txt"),
        ("ok_abs_link", "inner/file.txt"),
        ("ok_dir_link/file.txt", "inner/file.txt"),
        ("ok_abs_dir_link/sub/deep.txt", "inner/sub/deep.txt"),
        ("root_link/inner/file.txt", "inner/file.txt"),
        ("inner/up_in/inner/file.txt", "inner/file.txt"),
        ("inner/sub/../file.txt", "inner/file.txt"),
        ("ok_dir_link/../inner/sub/deep.txt", "inner/sub/deep.txt"),
        ("./inner//file.txt", "inner/file.txt"),
        ("long5", "inner/file.txt"),  # 39 hops: just under the limit
    ],
)
def test_in_root_symlinks_work_for_reads(sb: Sandbox, path: str, target: str) -> None:
    data, version = sb.read_bytes(path)
    assert data == (sb.root / target).read_bytes()
    assert sb.relpath(path) == target
    assert version == sb.version(target)


def test_absolute_path_inside_root_is_accepted(world: World, sb: Sandbox) -> None:
    assert sb.read_bytes(str(world.root / "inner" / "file.txt"))[0] == b"inner\n"
    assert sb.relpath(world.root / "inner" / "sub" / ".." / "file.txt") == "inner/file.txt"


def test_root_spelled_through_a_symlink_is_the_same_root(world: World, resolver: str) -> None:
    alias = world.base / "alias"
    alias.symlink_to(world.root)
    with Sandbox(alias, resolver=resolver) as box:  # type: ignore[arg-type]
        assert box.root == world.root
        assert box.read_bytes(str(alias / "inner/file.txt"))[0] == b"inner\n"
        assert box.relpath(str(alias / "ok_link")) == "inner/file.txt"


def test_relpath_normalises_and_allows_a_missing_final_component(sb: Sandbox) -> None:
    assert sb.relpath("inner/new.txt") == "inner/new.txt"
    assert sb.relpath("ok_dir_link/new.txt") == "inner/new.txt"
    assert sb.relpath("inner/dangling_in") == "created_in.txt"
    assert sb.relpath("inner/..") == "."
    assert sb.relpath(".") == "."
    assert sb.relpath(pathlib.PurePosixPath("inner") / "sub") == "inner/sub"
    assert sb.relpath("missing/dir/x.txt") == "missing/dir/x.txt"  # folders not made yet
    assert sb.relpath("ok_dir_link/new/x.txt") == "inner/new/x.txt"
    # ".." after a missing folder cancels it (make_parents would create a plain folder there)...
    assert sb.relpath("missing/../x.txt") == "x.txt"
    assert sb.relpath("inner/missing/deeper/../../sub") == "inner/sub"
    # ...and one more ".." than missing folders climbs the existing part: out of the root here.
    with pytest.raises(SandboxError) as info:
        sb.relpath("missing/../../x.txt")
    assert info.value.code == "outside_root"
    with sb.lock("missing/dir/x.txt"):
        sb.write_bytes("missing/dir/x.txt", b"x", make_parents=True)
    assert sb.relpath("missing/dir/x.txt") == "missing/dir/x.txt"


def test_write_through_in_root_symlink_replaces_the_target(sb: Sandbox) -> None:
    sb.write_bytes("ok_abs_link", b"via link\n")
    assert (sb.root / "ok_abs_link").is_symlink()
    assert (sb.root / "inner/file.txt").read_bytes() == b"via link\n"
    sb.write_bytes("inner/dangling_in", b"made\n")  # dangling in-root link creates its target
    assert (sb.root / "created_in.txt").read_bytes() == b"made\n"
    assert (sb.root / "inner/dangling_in").is_symlink()


DENY = ["*.key", "private/", "/build", "!keep.key"]


@pytest.fixture
def denied_box(world: World, resolver: str) -> Iterator[Sandbox]:
    root = world.root
    (root / "private").mkdir()
    (root / "private/p.txt").write_bytes(b"private\n")
    (root / "a.key").write_bytes(b"key\n")
    (root / "keep.key").write_bytes(b"kept\n")
    (root / "build").write_bytes(b"build\n")
    (root / "sub").mkdir()
    (root / "sub/build").write_bytes(b"not the root build\n")
    os.symlink("a.key", root / "key_link")
    os.symlink("private", root / "private_link")
    os.symlink("private/../inner/file.txt", root / "through_private")
    with Sandbox(root, deny=DENY, resolver=resolver) as box:  # type: ignore[arg-type]
        yield box


@pytest.mark.parametrize(
    "path",
    [
        "a.key",
        "./a.key",
        "inner/../a.key",
        "key_link",
        "private/p.txt",
        "private_link/p.txt",
        "./private/../private/p.txt",
        "build",
        "private/new.txt",
        ".edittools/.gitignore",
        ".edittools/blobs/x",
        "inner/../.edittools/locks/x",
    ],
)
def test_deny_patterns_match_the_resolved_path(denied_box: Sandbox, path: str) -> None:
    before = {p: p.read_bytes() for p in denied_box.root.rglob("*") if p.is_file()}
    for op in (
        lambda: denied_box.read_bytes(path),
        lambda: denied_box.write_bytes(path, b"x"),
        lambda: denied_box.write_bytes(path, b"x", make_parents=True),
        lambda: denied_box.delete(path),
        lambda: denied_box.version(path),
        lambda: denied_box.exists(path),
    ):
        with pytest.raises(SandboxError) as info:
            op()
        assert info.value.code == "denied", info.value
    after = {p: p.read_bytes() for p in denied_box.root.rglob("*") if p.is_file()}
    assert after == before


def test_deny_leaves_unmatched_paths_alone(denied_box: Sandbox) -> None:
    assert denied_box.read_bytes("keep.key")[0] == b"kept\n"  # negated pattern
    assert denied_box.read_bytes("sub/build")[0] == b"not the root build\n"  # anchored pattern
    assert denied_box.is_denied("x/y.key") and not denied_box.is_denied("x/y.txt")
    # Deny patterns judge where a path leads, not the folders it passes on the way: a link through
    # a denied folder to an allowed file reads the allowed file and nothing of the denied folder.
    assert denied_box.read_bytes("through_private")[0] == b"inner\n"


def test_make_parents_does_not_create_denied_folders(denied_box: Sandbox) -> None:
    with pytest.raises(SandboxError) as info:
        denied_box.write_bytes("private/new/dir/x.txt", b"x", make_parents=True)
    assert info.value.code == "denied"
    assert not (denied_box.root / "private/new").exists()
    with pytest.raises(SandboxError) as info:
        denied_box.write_bytes(".edittools/x/y.txt", b"x", make_parents=True)
    assert info.value.code == "denied"


def test_state_folder_is_outside_the_root_one_per_root(
    world: World, tmp_path: pathlib.Path
) -> None:
    other = tmp_path / "other-root"
    other.mkdir()
    os.symlink(world.root, tmp_path / "alias")
    with Sandbox(world.root) as a, Sandbox(tmp_path / "alias") as b, Sandbox(other) as c:
        assert not a.state_path.is_relative_to(world.root)
        assert a.state_path == b.state_path  # the same directory, however it is spelled
        assert a.state_path != c.state_path
        assert a.state_path.parent == c.state_path.parent
    assert not (world.root / ".edittools").exists()


def test_a_state_dir_inside_the_root_is_refused(world: World) -> None:
    for inside in (world.root, world.root / "inner" / "state"):
        with pytest.raises(SandboxError) as info:
            Sandbox(world.root, state_dir=inside)
        assert info.value.code == "state_unavailable"
        assert "--state-dir" in info.value.message and "EDITTOOLS_STATE_DIR" in info.value.message


# Both resolvers must agree on every path: same relative path, or the same error code, and a
# resolved path never leaves the root.
COMPONENTS = st.sampled_from(
    [
        "..",
        ".",
        "inner",
        "sub",
        "file.txt",
        "deep.txt",
        "ok_link",
        "ok_dir_link",
        "ok_abs_dir_link",
        "root_link",
        "up_in",
        "up_out",
        "up3",
        "esc_rel",
        "esc_abs",
        "dangle_dir",
        "loop_a",
        "parent_link",
        "magic_root",
        "missing",
    ]
)


@pytest.fixture(scope="module")
def shared_world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_world(tmp_path_factory.mktemp("agree"))


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(parts=st.lists(COMPONENTS, min_size=1, max_size=7), absolute=st.booleans())
def test_resolvers_agree_and_never_leave_the_root(
    shared_world: World, parts: list[str], absolute: bool
) -> None:
    if not openat2_works():
        pytest.skip("needs openat2 to compare against")
    path = "/".join(parts)
    if absolute:
        path = f"{shared_world.root}/{path}"
    outcomes = []
    for resolver in ("openat2", "walker"):
        with Sandbox(shared_world.root, resolver=resolver) as box:  # type: ignore[arg-type]
            try:
                rel = box.relpath(path)
            except SandboxError as exc:
                outcomes.append(("error", exc.code))
                continue
            real = os.path.realpath(box.root / rel)
            assert real == str(box.root) or real.startswith(str(box.root) + os.sep)
            outcomes.append(("ok", rel))
    assert outcomes[0] == outcomes[1]
