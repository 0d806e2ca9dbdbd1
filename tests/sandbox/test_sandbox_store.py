"""The blob store: content-addressed, atomic, and loud about missing or damaged blobs."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sandbox_world import World

from sandbox import Sandbox, SandboxError


def _blob_files(box: Sandbox) -> list[str]:
    top = box.state_path / "blobs"
    return sorted(str(p.relative_to(top)) for p in top.rglob("*") if p.is_file())


def test_put_get_has(sb: Sandbox) -> None:
    blob_id = sb.store.put(b"old content\n")
    assert sb.store.has(blob_id)
    assert sb.store.get(blob_id) == b"old content\n"
    assert sb.store.put(b"old content\n") == blob_id  # same bytes, same id, stored once
    assert len(_blob_files(sb)) == 1
    other = sb.store.put(b"")
    assert other != blob_id and sb.store.get(other) == b""
    assert not sb.state_path.is_relative_to(sb.root)  # the store is not in the root


def test_putting_stored_bytes_again_writes_nothing(sb: Sandbox) -> None:
    blob_id = sb.store.put(b"kept\n")
    (path,) = _blob_files(sb)
    before = os.stat(sb.state_path / "blobs" / path)
    assert sb.store.put(b"kept\n") == blob_id
    after = os.stat(sb.state_path / "blobs" / path)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_missing_and_malformed_ids(sb: Sandbox) -> None:
    stored = sb.store.put(b"x")
    absent = ("1" if stored[0] == "0" else "0") + stored[1:]  # well-formed, never stored
    for blob_id in (absent, "", "../../etc/passwd", "zz", "A" * 64):
        assert not sb.store.has(blob_id)
        with pytest.raises(SandboxError) as info:
            sb.store.get(blob_id)
        assert info.value.code == "blob_missing"


def test_store_before_anything_was_written_creates_nothing_in_the_root(world: World) -> None:
    before = sorted(p.name for p in world.root.iterdir())
    with Sandbox(world.root) as box:
        assert not box.store.has("0" * 64)
        with pytest.raises(SandboxError):
            box.store.get("0" * 64)
        assert _blob_files(box) == []
    assert sorted(p.name for p in world.root.iterdir()) == before


def test_corrupt_blob_is_reported(sb: Sandbox) -> None:
    blob_id = sb.store.put(b"precious\n")
    (path,) = _blob_files(sb)
    assert os.stat(sb.state_path / "blobs" / path).st_mode & 0o222 == 0  # stored read-only
    os.chmod(sb.state_path / "blobs" / path, 0o600)  # (the owner, or root, may still write it)
    (sb.state_path / "blobs" / path).write_bytes(b"tampered\n")
    with pytest.raises(SandboxError) as info:
        sb.store.get(blob_id)
    assert info.value.code == "blob_corrupt"
    assert sb.store.put(b"precious\n") == blob_id  # putting it again repairs it
    assert sb.store.get(blob_id) == b"precious\n"


def test_store_is_shared_between_sandboxes_and_leaves_no_temp_files(world: World) -> None:
    with Sandbox(world.root) as a, Sandbox(world.root) as b:
        blob_id = a.store.put(b"shared")
        assert b.store.get(blob_id) == b"shared"
        names = [n for _, _, files in os.walk(a.state_path / "blobs") for n in files]
        assert not [n for n in names if n.endswith(".edittools-tmp")]
        assert os.listdir(a.state_path / "pending") == []
        assert os.listdir(a.state_path / "tmp") == []


def test_public_api_cannot_reach_the_blobs(sb: Sandbox) -> None:
    blob_id = sb.store.put(b"hidden")
    (path,) = _blob_files(sb)
    with pytest.raises(SandboxError) as info:
        sb.read_bytes(f".edittools/blobs/{path}")
    assert info.value.code == "denied"
    assert sb.store.get(blob_id) == b"hidden"


@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=2000))
def test_any_bytes_round_trip(sb: Sandbox, data: bytes) -> None:
    assert sb.store.get(sb.store.put(data)) == data
