"""A child process that changes files as an unprivileged user and prints what each call got.

Started as root, it runs every tool once on a scratch root of its own (so that every module a
call needs is imported while it may still read them: the interpreter and the project may lie in
folders other users cannot read), then drops to uid and gid `nobody` and makes one change of
each kind to each file named on its command line, under the root given first. As a user that is
not root already, it skips the drop. Output: one JSON object, {file: {change: [is_error, code]}}.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from edittools import Session, ToolResult
from sandbox import Sandbox, SandboxError

NOBODY = 65534

Change = Callable[[Session, str], ToolResult]

CHANGES: dict[str, Change] = {
    "edit": lambda s, p: s.edit(p, "one", "ONE"),
    "multi_edit": lambda s, p: s.multi_edit(p, [{"old_string": "one", "new_string": "ONE"}]),
    "insert": lambda s, p: s.insert(p, 1, "inserted\n"),
    "write": lambda s, p: s.write(p, "written\n"),
    "patch": lambda s, p: s.apply_patch(
        f"*** Begin Patch\n*** Update File: {p}\n@@\n-one\n+ONE\n*** End Patch\n"
    ),
    "patch_delete": lambda s, p: s.apply_patch(
        f"*** Begin Patch\n*** Delete File: {p}\n*** End Patch\n"
    ),
    "patch_move": lambda s, p: s.apply_patch(
        f"*** Begin Patch\n*** Update File: {p}\n*** Move to: moved-{p}\n@@\n-one\n+ONE\n"
        "*** End Patch\n"
    ),
}


def _code(result: ToolResult) -> str | None:
    payload = getattr(result.artifact, "payload", None)
    return getattr(payload, "code", None) if result.is_error else None


def run(root: Path, state: Path, names: list[str]) -> dict[str, dict[str, list[object]]]:
    out: dict[str, dict[str, list[object]]] = {}
    with Session(root, state_dir=state) as s:
        for name in names:
            got: dict[str, list[object]] = {}
            for change, make in CHANGES.items():
                s.read(name)
                result = make(s, name)
                got[change] = [result.is_error, _code(result)]
                if not result.is_error:
                    s.undo(name)  # the next change starts from the same file
                    if change == "patch_move":
                        s.undo(f"moved-{name}")
            out[name] = got
    with Sandbox(root, state_dir=state) as sb:
        for name in names:
            for what, act in (
                ("write_bytes", lambda n: sb.write_bytes(n, b"bytes\n")),
                ("delete", lambda n: sb.delete(n)),
            ):
                try:
                    act(name)
                    out[name][what] = [False, None]
                except SandboxError as exc:
                    out[name][what] = [True, exc.code]
    return out


def _warm_up() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        (folder / "root").mkdir()
        (folder / "root" / "f.txt").write_text("one\ntwo\n")
        run(folder / "root", folder / "state", ["f.txt"])


def main() -> None:
    root, names = Path(sys.argv[1]), sys.argv[2:]
    _warm_up()
    if os.geteuid() == 0:
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)
    print(json.dumps(run(root, root.parent / "state", names)))


if __name__ == "__main__":
    main()
