"""Digests computed on a worker thread, continued from a state for contents sharing a start."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sandbox import ABSENT, Digester, FileWrite, Sandbox, digest_of
from sandbox._digest import STEP, THREAD_BYTES, PendingDigest

BIG = bytes(range(256)) * (3 * THREAD_BYTES // 256 + 77)  # over the thread limit, odd length


def _continued(state: Digester, rest: bytes) -> str:
    state.update(rest)
    return state.hexdigest()


@pytest.mark.parametrize("size", [0, 5, THREAD_BYTES - 1, len(BIG)])
def test_pending_digest_is_the_digest(size: int) -> None:
    data = BIG[:size]
    assert PendingDigest([data]).result() == digest_of(data)
    pieces = [memoryview(data)[: size // 3], b"", memoryview(data)[size // 3 :]]
    assert PendingDigest(pieces).result() == digest_of(data)


def test_the_states_handed_out_are_those_after_each_step() -> None:
    pieces = [memoryview(BIG)[: STEP + 5], b"", memoryview(BIG)[STEP + 5 :]]
    states: list[tuple[int, Digester]] = []
    assert PendingDigest(pieces, on_step=states.append).result() == digest_of(BIG)
    assert [at for at, _ in states] == list(range(STEP, len(BIG) + 1, STEP))
    for at, state in states:
        assert _continued(state, b"another tail") == digest_of(BIG[:at] + b"another tail")


def test_a_hash_continued_from_a_prefix_hashes_what_follows_and_counts_from_it() -> None:
    start = Digester()
    start.update(BIG[:100])
    states: list[tuple[int, Digester]] = []
    pending = PendingDigest([BIG[100:]], start=(100, start), on_step=states.append)
    assert pending.result() == digest_of(BIG)
    assert [at for at, _ in states] == list(range(STEP, len(BIG) + 1, STEP))
    at, state = states[0]
    assert _continued(state, BIG[at:]) == digest_of(BIG)


def test_a_write_with_a_hashed_prefix_records_the_digest_of_what_it_wrote(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "f").write_bytes(BIG)
    with Sandbox(root, state_dir=tmp_path / "state") as sb:
        states: list[tuple[int, Digester]] = []
        data, pending = sb.read_bytes_deferred("f", on_step=states.append)
        version = pending.result()
        assert version == sb.read_bytes("f")[1]
        prefix = states[1]
        cut = prefix[0] + 3  # the new content shares the old one's bytes up to here
        pieces = [memoryview(data)[:cut], b"inserted", memoryview(data)[cut:]]
        written = sb.commit_files([FileWrite("f", pieces, version, prefix=prefix)])[0]
        new = (root / "f").read_bytes()
        assert new == BIG[:cut] + b"inserted" + BIG[cut:]
        assert written is not None and written.digest == digest_of(new)
        assert sb.version("f") == written


def test_a_deferred_read_gives_the_version_a_plain_read_gives(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    for name, data in (("small", b"x = 1\n"), ("big", BIG)):
        (root / name).write_bytes(data)
    with Sandbox(root, state_dir=tmp_path / "state") as sb:
        for name in ("small", "big"):
            data, pending = sb.read_bytes_deferred(name)
            plain, version = sb.read_bytes(name)
            got = pending.result()
            assert data == plain
            assert (got.digest, got.size, got.inode, got.mtime_ns, got.ctime_ns) == (
                version.digest,
                version.size,
                version.inode,
                version.mtime_ns,
                version.ctime_ns,
            )
            assert 0 < got.seen_ns <= version.seen_ns
        created = sb.commit_files([FileWrite("new", [b"a", b"b"], ABSENT)])[0]
        assert created is not None and created.digest == digest_of(b"ab")
        assert os.path.getsize(root / "new") == 2
