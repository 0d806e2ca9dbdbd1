"""Shared helpers for the sandbox tests: a real root with an outside world around it."""

from __future__ import annotations

import os
import pathlib
from dataclasses import dataclass

from sandbox._openat2 import available

RESOLVERS = ("openat2", "walker")


def openat2_works() -> bool:
    """Whether this kernel offers openat2 (probed on the current directory)."""
    fd = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
    try:
        return available(fd)
    finally:
        os.close(fd)


@dataclass
class World:
    """A sandbox root and the outside world around it (all under one temp folder)."""

    base: pathlib.Path
    root: pathlib.Path
    outside: pathlib.Path
    evil: pathlib.Path

    def snapshot_outside(self) -> dict[str, tuple[str, bytes | str]]:
        """Every entry under `base` except the root, with bytes or link targets."""
        return _snapshot(self.base, skip=self.root)

    def snapshot_root(self) -> dict[str, tuple[str, bytes | str]]:
        """Every entry under the root (state lives outside it)."""
        return _snapshot(self.root, skip=None)


def _snapshot(top: pathlib.Path, skip: pathlib.Path | None) -> dict[str, tuple[str, bytes | str]]:
    out: dict[str, tuple[str, bytes | str]] = {}
    for dirpath, dirnames, filenames in os.walk(top):
        here = pathlib.Path(dirpath)
        dirnames[:] = [d for d in dirnames if here / d != skip]
        for name in dirnames + filenames:
            p = here / name
            key = str(p.relative_to(top))
            if p.is_symlink():
                out[key] = ("link", os.readlink(p))
            elif p.is_dir():
                out[key] = ("dir", "")
            else:
                out[key] = ("file", p.read_bytes())
    return out


def make_world(base: pathlib.Path) -> World:
    """A root with plain files, in-root links and escaping links; outside files next to it."""
    root = base / "root"
    outside = base / "outside"
    evil = base / "root_evil"  # a prefix sibling of the root
    for d in (root / "inner" / "sub", outside / "dir", evil):
        d.mkdir(parents=True)
    (root / "inner" / "file.txt").write_bytes(b"inner\n")
    (root / "inner" / "sub" / "deep.txt").write_bytes(b"deep\n")
    (outside / "secret.txt").write_bytes(b"secret\n")
    (outside / "dir" / "x.txt").write_bytes(b"outside x\n")
    (evil / "x.txt").write_bytes(b"evil\n")
    links = {
        # in-root links
        "ok_link": "inner/file.txt",
        "ok_abs_link": f"{root}/inner/file.txt",
        "ok_dir_link": "inner",
        "ok_abs_dir_link": f"{root}/inner",
        "root_link": str(root),
        "inner/up_in": "..",
        "inner/dangling_in": "../created_in.txt",
        # escaping links
        "esc_rel": "../outside",
        "esc_rel_file": "../outside/secret.txt",
        "esc_abs": str(outside),
        "esc_abs_file": f"{outside}/secret.txt",
        "dangle_rel": "../outside/new.txt",
        "dangle_abs": f"{outside}/new.txt",
        "dangle_dir": "../outside/newdir",
        "inner/up_out": "../..",
        "inner/sub/up3": "../../..",
        "parent_link": f"{root}/..",
        "evil_link": f"{evil}/x.txt",
        "chain1": "chain2",
        "chain2": "esc_rel_file",
        "magic_root": "/proc/self/root",
        "magic_cwd": "/proc/self/cwd",
        "magic_fd": "/proc/self/fd/0",
        # loops
        "loop_a": "loop_b",
        "loop_b": "loop_a",
        "self_loop": "self_loop",
    }
    for name, target in links.items():
        os.symlink(target, root / name)
    # A chain of 45 in-root links: longer than the 40-hop limit.
    for i in range(45):
        os.symlink(f"long{i + 1}" if i < 44 else "inner/file.txt", root / f"long{i}")
    return World(base, root, outside, evil)
