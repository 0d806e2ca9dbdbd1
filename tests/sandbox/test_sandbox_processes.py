"""Real processes against the sandbox: a renameat2 race attacker, SIGKILL crashes, two writers."""

from __future__ import annotations

import os
import pathlib
import random
import signal
import struct
import subprocess
import sys
import time

import pytest
from sandbox_world import RESOLVERS, openat2_works

from sandbox import Sandbox, SandboxError

pytestmark = pytest.mark.integration

HERE = pathlib.Path(__file__).parent
PROJECT = HERE.parent.parent


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT), env.get("PYTHONPATH")]))
    return env


def _spawn(script: str, *args: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, str(HERE / script), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=_env(),
        cwd=PROJECT,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    return proc


def _finish(proc: subprocess.Popen[str]) -> str:
    out, _ = proc.communicate("stop\n", timeout=60)
    assert proc.returncode == 0
    return out.strip()


def _tree(top: pathlib.Path) -> dict[str, bytes | str]:
    out: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(top):
        for name in dirnames + filenames:
            p = pathlib.Path(dirpath) / name
            key = str(p.relative_to(top))
            out[key] = (
                os.readlink(p) if p.is_symlink() else ("dir" if p.is_dir() else p.read_bytes())
            )
    return out


@pytest.mark.parametrize("resolver", RESOLVERS)
def test_renameat2_race_never_escapes(tmp_path: pathlib.Path, resolver: str) -> None:
    if resolver == "openat2" and not openat2_works():
        pytest.skip("this kernel has no openat2")
    root, outside = tmp_path / "root", tmp_path / "outside"
    # Pair 1: an in-root directory exchanged with an outside one. Resolving "a/b/../.." must come
    # back to the root, never to wherever b's twin lives outside.
    (root / "a" / "b").mkdir(parents=True)
    (outside / "p" / "q").mkdir(parents=True)
    (root / "inner").mkdir()
    (outside / "inner").mkdir()
    (root / "inner" / "file.txt").write_bytes(b"inside\n")
    (outside / "inner" / "file.txt").write_bytes(b"OUTSIDE\n")
    # Pair 2: a regular file exchanged with a symlink to an outside file; a second such pair is
    # written to (a write may replace the symlink itself by its rename, which ends that race).
    (outside / "secret.txt").write_bytes(b"OUTSIDE secret\n")
    for name in ("file.txt", "wfile.txt"):
        (root / name).write_bytes(b"inside file\n")
        os.symlink(outside / "secret.txt", root / f"evil_{name}")
    # Pair 3: a directory exchanged with a symlink to an outside directory.
    (root / "d").mkdir()
    (root / "d" / "f.txt").write_bytes(b"inside d\n")
    (outside / "dir").mkdir()
    (outside / "dir" / "f.txt").write_bytes(b"OUTSIDE dir\n")
    os.symlink("../outside/dir", root / "evil_dir")
    before = _tree(outside)

    pairs = [
        (root / "a" / "b", outside / "p" / "q"),
        (root / "file.txt", root / "evil_file.txt"),
        (root / "wfile.txt", root / "evil_wfile.txt"),
        (root / "d", root / "evil_dir"),
    ]
    attacker = _spawn("sandbox_race_attacker.py", *(str(p) for pair in pairs for p in pair))
    seen: dict[str, set[str]] = {}
    try:
        with Sandbox(root, resolver=resolver) as box:  # type: ignore[arg-type]
            for i in range(500):
                for label, op in (
                    ("read ..", lambda: box.read_bytes("a/b/../../inner/file.txt")[0]),
                    ("write ..", lambda: box.write_bytes("a/b/../../inner/w.txt", b"w")),
                    ("read file", lambda: box.read_bytes("file.txt")[0]),
                    ("write file", lambda: box.write_bytes("wfile.txt", b"inside file\n")),
                    ("read dir", lambda: box.read_bytes("d/f.txt")[0]),
                    ("write dir", lambda i=i: box.write_bytes("d/f.txt", b"inside d %d\n" % i)),
                ):
                    try:
                        result = op()
                    except SandboxError as exc:
                        seen.setdefault(label, set()).add(exc.code)
                        continue
                    if isinstance(result, bytes):
                        assert b"OUTSIDE" not in result, (label, result)
                    seen.setdefault(label, set()).add("ok")
    finally:
        swaps = int(_finish(attacker))
    assert swaps > 1000
    assert _tree(outside) == before  # no outside byte or entry changed, nothing created
    assert not (outside / "inner" / "w.txt").exists()
    # The race really interleaved: the file and directory paths were sometimes links to outside.
    assert {"ok", "outside_root"} <= seen["read file"]
    assert {"ok", "outside_root"} <= seen["read dir"]
    assert seen["read .."] <= {"ok", "not_found"} and "ok" in seen["read .."]


def _payload(n: int, size: int = 1 << 20) -> bytes:
    return (b"%08d" % n) * (size // 8)


def test_sigkill_during_writes_leaves_old_or_new_bytes(tmp_path: pathlib.Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    with Sandbox(root) as box:
        box.write_bytes("big.bin", _payload(0))
    rng = random.Random(2024)
    current = 0  # index of the payload the file is known to hold
    killed_mid_write = 0
    for _trial in range(200):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the writer: announce each write, then do it, forever
            try:
                os.close(r)
                with Sandbox(root) as child:
                    n = current + 1
                    while True:
                        os.write(w, struct.pack("<I", n))
                        child.write_bytes("big.bin", _payload(n))
                        n += 1
            finally:
                os._exit(1)
        os.close(w)
        announced = [current]
        for _ in range(rng.randint(1, 3)):  # let it start 1-3 writes
            chunk = os.read(r, 4)
            assert len(chunk) == 4
            announced.append(struct.unpack("<I", chunk)[0])
        # The kill lands at a random instant of the write in progress.
        time.sleep(rng.random() * 0.01)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        while chunk := os.read(r, 4096):
            announced += [n for (n,) in struct.iter_unpack("<I", chunk)]
        os.close(r)
        last = max(announced)
        data = (root / "big.bin").read_bytes()
        assert data in (_payload(last), _payload(last - 1)), "torn or unknown content"
        current = last if data == _payload(last) else last - 1
        killed_mid_write += current != last
        # The next start sweeps whatever the killed writer left behind.
        with Sandbox(root) as box:
            assert sorted(os.listdir(root)) == ["big.bin"]
            assert os.listdir(box.state_path / "pending") == []
    assert killed_mid_write > 20  # many kills did land inside a write


def test_two_processes_count_to_exactly_600(tmp_path: pathlib.Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "counter.txt").write_bytes(b"0\n")
    workers = [_spawn("sandbox_counter_worker.py", str(root), "300") for _ in range(2)]
    for proc in workers:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    retries = [int(_finish(proc)) for proc in workers]
    assert (root / "counter.txt").read_bytes() == b"600\n"
    assert all(r >= 0 for r in retries)
