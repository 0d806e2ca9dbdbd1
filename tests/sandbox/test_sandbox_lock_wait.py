"""A wait for a file's lock is bounded: a holder that is stopped costs others `lock_timeout`
seconds and a `busy` error naming it, never a hang."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import sandbox._lock
from edittools import Session
from edittools.artifacts import ErrorPayload
from sandbox import Sandbox, SandboxError

HOLDER = """
import sys
from sandbox import Sandbox
with Sandbox(sys.argv[1]) as sb, sb.lock("a.txt"):
    print("held", flush=True)
    sys.stdin.read()
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    (folder / "a.txt").write_text("alpha\n")
    return folder


@pytest.fixture
def stopped_holder(root: Path) -> Iterator[subprocess.Popen[str]]:
    """A child process holding the lock of a.txt, stopped (SIGSTOP) while it holds it; `resume`
    lets it go."""
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    with child:
        try:
            assert child.stdout is not None and child.stdout.readline() == "held\n"
            child.send_signal(signal.SIGSTOP)
            yield child
        finally:
            child.send_signal(signal.SIGCONT)  # nothing once it has ended
            child.kill()
            child.wait(timeout=10)


def resume(holder: subprocess.Popen[str]) -> None:
    """Let the stopped holder go on and end, releasing its lock."""
    holder.send_signal(signal.SIGCONT)
    assert holder.stdin is not None
    holder.stdin.close()
    assert holder.wait(timeout=10) == 0


def test_an_edit_of_a_file_a_stopped_process_holds_is_busy_within_the_timeout(
    root: Path, stopped_holder: subprocess.Popen[str]
) -> None:
    with Session(root, lock_timeout=0.5) as s:
        assert not s.read("a.txt").is_error  # reading takes no lock
        start = time.monotonic()
        result = s.edit("a.txt", "alpha", "ALPHA")
        waited = time.monotonic() - start
    assert result.is_error
    payload = result.artifact.payload  # type: ignore[union-attr]
    assert isinstance(payload, ErrorPayload) and payload.code == "busy"
    assert f"pid {stopped_holder.pid}" in result.value
    assert 0.5 <= waited < 3.0, waited
    assert (root / "a.txt").read_text() == "alpha\n"


def test_every_waiting_call_is_bounded_and_the_lock_comes_free_after(
    root: Path, stopped_holder: subprocess.Popen[str]
) -> None:
    with Session(root, lock_timeout=0.2) as s:
        s.read("a.txt")
        results = [
            s.write("a.txt", "beta\n"),
            s.apply_patch("--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-alpha\n+gamma\n"),
        ]
        for result in results:
            assert result.is_error
            assert result.artifact.payload.code == "busy"  # type: ignore[union-attr]
        with Sandbox(root, lock_timeout=0.2) as sb:
            with pytest.raises(SandboxError) as info:
                sb.write_bytes("a.txt", b"delta\n")
            assert info.value.code == "busy" and f"pid {stopped_holder.pid}" in info.value.message
    resume(stopped_holder)
    assert (root / "a.txt").read_text() == "alpha\n"
    with Session(root, lock_timeout=0.2) as s:
        s.read("a.txt")
        assert not s.edit("a.txt", "alpha", "ALPHA").is_error
    assert (root / "a.txt").read_text() == "ALPHA\n"


def test_a_lock_another_thread_holds_names_this_process(root: Path) -> None:
    with Sandbox(root, lock_timeout=0.2) as sb:
        taken, done = threading.Event(), threading.Event()

        def hold() -> None:
            with sb.lock("a.txt"):
                taken.set()
                done.wait(10)

        thread = threading.Thread(target=hold)
        thread.start()
        try:
            assert taken.wait(10)
            with pytest.raises(SandboxError) as info:
                sb.write_bytes("a.txt", b"x\n")
            assert info.value.code == "busy"
            assert f"another thread of this process (pid {os.getpid()})" in info.value.message
        finally:
            done.set()
            thread.join()
        assert sb.write_bytes("a.txt", b"x\n").size == 2


def test_without_ofd_locks_the_flock_files_are_bounded_too(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sandbox._lock, "_OFD", 0)  # what the kernels without OFD locks take
    with Sandbox(root, lock_timeout=0.2) as one, Sandbox(root, lock_timeout=0.2) as two:
        with one.lock("a.txt"):
            start = time.monotonic()
            with pytest.raises(SandboxError) as info:
                two.write_bytes("a.txt", b"x\n")
            assert time.monotonic() - start >= 0.2
        assert info.value.code == "busy"
        assert f"pid {os.getpid()}" in info.value.message
        assert two.write_bytes("a.txt", b"x\n").size == 2


def test_a_zero_timeout_does_not_wait(root: Path) -> None:
    with (
        Sandbox(root, lock_timeout=0) as one,
        Sandbox(root, lock_timeout=0) as two,
        one.lock("a.txt"),
    ):
        start = time.monotonic()
        with pytest.raises(SandboxError) as info:
            two.write_bytes("a.txt", b"x\n")
        assert time.monotonic() - start < 0.2
    assert info.value.code == "busy"
