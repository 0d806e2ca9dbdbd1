"""SpliceWriter: a new content written by the kernel while the caller still reads the old file."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox import FileWrite, Sandbox, SandboxError, digest_of
from sandbox import _splice as splicing
from sandbox import _staging as staging

DATA = b"".join(b"line %05d\n" for k in range(20_000))  # 220 KB


def _root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "big.txt").write_bytes(DATA)
    return root


def _leftovers(sb: Sandbox, root: Path) -> list[str]:
    return sorted(os.listdir(root / "sub")) + sorted(os.listdir(sb.state_path / "pending"))


def test_kept_and_replaced_parts_make_the_new_file(tmp_path: Path) -> None:
    root = _root(tmp_path)
    os.chmod(root / "sub" / "big.txt", 0o640)
    spans = [(0, 4, b"LINE"), (100_000, 100_010, b""), (len(DATA) - 6, len(DATA), b"END\n")]
    want = DATA
    for start, stop, new in reversed(spans):
        want = want[:start] + new + want[stop:]
    with Sandbox(root) as sb:
        version = sb.version("sub/big.txt")
        assert version is not None
        with sb.splice_writer("sub/big.txt") as writer:
            assert os.pread(writer.fileno(), 10, 0) == DATA[:10]  # the old file, to read
            for start, stop, new in spans:
                writer.keep(max(start - 3, 0))  # kept in several steps
                writer.replace(start, stop, new)
            staged = writer.finish(len(DATA), digest_of(want))
            assert staged.size == len(want) and staged.spans == tuple(spans)
            sb.commit_files([FileWrite("sub/big.txt", staged, version)])
        assert (root / "sub" / "big.txt").read_bytes() == want
        assert stat.S_IMODE((root / "sub" / "big.txt").stat().st_mode) == 0o640
        assert sb.version("sub/big.txt").digest == digest_of(want)  # type: ignore[union-attr]
        assert _leftovers(sb, root) == ["big.txt"]


def test_a_writer_closed_without_a_commit_leaves_nothing(tmp_path: Path) -> None:
    root = _root(tmp_path)
    with Sandbox(root) as sb:
        with sb.splice_writer("sub/big.txt") as writer:
            writer.keep(1000)
            assert len(_leftovers(sb, root)) == 3  # the file, its temp file and the note
        assert _leftovers(sb, root) == ["big.txt"]
        with sb.splice_writer("sub/big.txt") as writer:  # finished, then not committed
            writer.finish(len(DATA), digest_of(DATA))
        assert _leftovers(sb, root) == ["big.txt"]
    assert (root / "sub" / "big.txt").read_bytes() == DATA


def test_a_reset_starts_the_new_content_again(tmp_path: Path) -> None:
    root = _root(tmp_path)
    with Sandbox(root) as sb:
        version = sb.version("sub/big.txt")
        with sb.splice_writer("sub/big.txt") as writer:
            writer.replace(0, 4, b"first pass")
            writer.keep(50_000)
            writer.drop()
            with pytest.raises(ValueError, match="reset"):
                writer.finish(len(DATA), "d" * 64)  # dropped: no content to commit
            writer.reset()
            writer.replace(10, 14, b"LINE")
            staged = writer.finish(len(DATA), "d" * 64)
            sb.commit_files([FileWrite("sub/big.txt", staged, version)])  # type: ignore[arg-type]
    assert (root / "sub" / "big.txt").read_bytes() == DATA[:10] + b"LINE" + DATA[14:]


def test_a_file_changed_while_it_was_read_is_stale(tmp_path: Path) -> None:
    root = _root(tmp_path)
    with Sandbox(root) as sb:
        with sb.splice_writer("sub/big.txt") as writer:
            writer.keep(1000)
            with (root / "sub" / "big.txt").open("r+b") as fh:  # same size, other bytes
                fh.write(b"LINE")
            with pytest.raises(SandboxError) as info:
                writer.finish(len(DATA), digest_of(DATA))
            assert info.value.code == "stale"
        assert _leftovers(sb, root) == ["big.txt"]


def test_a_file_replaced_before_the_commit_is_stale(tmp_path: Path) -> None:
    root = _root(tmp_path)
    with Sandbox(root) as sb:
        version = sb.version("sub/big.txt")
        assert version is not None
        with sb.splice_writer("sub/big.txt") as writer:
            staged = writer.finish(len(DATA), digest_of(DATA))
            (root / "sub" / "other").write_bytes(DATA)
            os.replace(root / "sub" / "other", root / "sub" / "big.txt")  # same bytes, new inode
            with pytest.raises(SandboxError) as info:
                sb.commit_files([FileWrite("sub/big.txt", staged, version)])
            assert info.value.code == "stale"
        assert _leftovers(sb, root) == ["big.txt"]


def test_the_writer_is_confined_like_a_write(tmp_path: Path) -> None:
    root = _root(tmp_path)
    (root / ".git").mkdir()
    (root / ".git" / "config").write_bytes(b"[core]\n")
    (tmp_path / "outside.txt").write_bytes(b"x\n")
    (root / "out").symlink_to(tmp_path / "outside.txt")
    with Sandbox(root, deny=["sub/"]) as sb:
        for path, code in ((".git/config", "protected"), ("out", "outside_root"),
                           ("sub/big.txt", "denied"), ("none.txt", "not_found")):  # fmt: skip
            with pytest.raises(SandboxError) as info:
                sb.splice_writer(path)
            assert info.value.code == code, path


def _spliced(
    cuts: list[int], news: list[bytes]
) -> tuple[tuple[tuple[int, int, bytes], ...], bytes]:
    """Spans between pairs of the sorted `cuts`, holding `news` in turn, and DATA with them."""
    points = sorted(cuts)
    spans = tuple(
        (a, b, news[k]) for k, (a, b) in enumerate(zip(points[::2], points[1::2], strict=False))
    )
    want = DATA
    for start, stop, new in reversed(spans):
        want = want[:start] + new + want[stop:]
    return spans, want


@settings(max_examples=40, deadline=None)
@given(
    cuts=st.lists(st.integers(0, len(DATA)), min_size=0, max_size=12),
    news=st.lists(st.binary(max_size=5), min_size=12, max_size=12),
    batch=st.integers(256, 80_000),
)
def test_kept_bytes_gathered_into_copies_of_any_size_make_the_same_file(
    tmp_path_factory: pytest.TempPathFactory, cuts: list[int], news: list[bytes], batch: int
) -> None:
    """Kept ranges are copied in batches (32 MiB in use; from 256 bytes here): whatever the
    batch, the new file is the old one with the spans replaced, kept steps told between them."""
    spans, want = _spliced(cuts, news)
    root = _root(tmp_path_factory.mktemp("batch"))
    with pytest.MonkeyPatch.context() as patch, Sandbox(root) as sb:
        patch.setattr(staging, "_BATCH", batch)
        version = sb.version("sub/big.txt")
        assert version is not None
        with sb.splice_writer("sub/big.txt") as writer:
            told = 0
            for start, stop, new in spans:
                for step in range(told, start, max(batch // 3, 1) + 7_919):
                    writer.keep(step)  # kept in steps smaller and larger than a batch
                writer.replace(start, stop, new)
                told = stop
            staged = writer.finish(len(DATA), digest_of(want))
            sb.commit_files([FileWrite("sub/big.txt", staged, version)])
        assert (root / "sub" / "big.txt").read_bytes() == want


@settings(max_examples=60, deadline=None)
@given(
    cuts=st.lists(st.integers(0, len(DATA)), min_size=0, max_size=10),
    news=st.lists(st.binary(max_size=3000), min_size=10, max_size=10),
    kick=st.integers(512, 70_000),
)
def test_a_splice_written_with_write_back_started_at_any_interval_is_the_same_file(
    cuts: list[int], news: list[bytes], kick: int
) -> None:
    """`write_splice` copies kept ranges in steps and starts write-back between them (every
    32 MiB in use; from 512 bytes here, with new bytes longer than it too)."""
    spans, want = _spliced(cuts, news)
    with (
        pytest.MonkeyPatch.context() as patch,
        tempfile.TemporaryFile() as src,
        tempfile.TemporaryFile() as dst,
    ):
        patch.setattr(splicing, "KICK", kick)
        src.write(DATA)
        src.flush()
        size = splicing.write_splice(
            src.fileno(), dst.fileno(), splicing.Splice(spans, len(DATA), "0" * 64)
        )
        dst.seek(0)
        assert size == len(want) and dst.read() == want
