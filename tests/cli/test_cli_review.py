"""`checkpoints`, `rewind` and `review` as real child processes; `review --interactive` is driven
through a pseudo-terminal, answering its prompts as a person would."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_harness import child_env, run

from edittools import Session

PROMPT = b"Keep this hunk [y,n,q,?]? "
ANSI = re.compile(rb"\x1b\[[0-9;]*m")
A_TEXT = "".join(f"line {k}\n" for k in range(30))


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A root where an agent's session changed a.py in three places and created c.txt."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text(A_TEXT)
    with Session(root, require_read=False) as s:
        for k in (2, 15, 27):
            assert not s.edit("a.py", f"line {k}\n", f"LINE {k}\n").is_error
        assert not s.write("c.txt", "created\n").is_error
    return root


class Terminal:
    """The command on a pseudo-terminal: read until a prompt, answer it."""

    def __init__(self, *args: str | os.PathLike[str]) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "edittools.cli", *map(str, args)],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=child_env(TERM="xterm-256color", NO_COLOR="1"),
        )
        os.close(slave)
        self.seen = b""

    def until(self, marker: bytes, timeout: float = 60) -> bytes:
        """Everything printed up to and including the next `marker`."""
        deadline = time.monotonic() + timeout
        while marker not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, f"no {marker!r} in {self.seen[-2000:]!r}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # EIO: the child closed the terminal
                    chunk = b""
                assert chunk, f"the command ended before {marker!r}: {self.seen[-2000:]!r}"
                self.seen += chunk
        head, _, self.seen = self.seen.partition(marker)
        return ANSI.sub(b"", head + marker)  # styles (word highlights) do not split the text

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.proc.poll() is None:  # a failed test: end the child we started
            self.proc.kill()
            self.proc.wait(timeout=60)
        if self.master >= 0:
            os.close(self.master)

    def answer(self, text: str) -> None:
        os.write(self.master, text.encode() + b"\r")

    def finish(self) -> tuple[int, bytes]:
        rest = self.seen
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                break
            if not chunk:
                break
            rest += chunk
        os.close(self.master)
        self.master = -1
        return self.proc.wait(timeout=60), rest


@pytest.mark.integration
def test_interactive_review_keeps_rejects_and_quits_like_git_add_p(root: Path) -> None:
    with Terminal("review", "--root", root, "--interactive") as term:
        first_pass(term)
    assert (root / "a.py").read_text() == A_TEXT.replace("line 2\n", "LINE 2\n").replace(
        "line 27\n", "LINE 27\n"
    )
    # The next review offers only what is left: the kept hunk is out, the rejected one gone.
    with Terminal("review", "--root", root, "-i") as term:
        offered = term.until(PROMPT)
        assert b"+LINE 27" in offered and b"(1/2)" in offered and b"+LINE 2\r\n" not in offered
        term.answer("n")
        assert b"+created" in term.until(PROMPT)
        term.answer("n")
        status, rest = term.finish()
    assert status == 0, rest
    assert (root / "a.py").read_text() == A_TEXT.replace("line 2\n", "LINE 2\n")
    assert not (root / "c.txt").exists()


def first_pass(term: Terminal) -> None:
    """?, y, n, then q."""
    first = term.until(PROMPT)
    assert b"-line 2" in first and b"+LINE 2" in first and b"(1/4)" in first
    term.answer("?")
    helped = term.until(PROMPT)
    assert b"y - keep this hunk" in helped and b"n - reject this hunk" in helped
    term.answer("y")
    second = term.until(PROMPT)
    assert b"Kept hunk 1/4 of a.py." in second
    assert b"+LINE 15" in second and b"(2/4)" in second
    term.answer("n")
    third = term.until(PROMPT)
    assert b"Rejected hunk 2/4 of a.py." in third and b"+LINE 27" in third
    term.answer("q")
    status, _ = term.finish()
    assert status == 0


@pytest.mark.integration
def test_interactive_review_ends_at_end_of_input(root: Path) -> None:
    with Terminal("review", "--root", root, "-i") as term:
        term.until(PROMPT)
        os.write(term.master, b"\x04")  # ^D at the prompt: end of input, as q
        status, _ = term.finish()
    assert status == 0
    assert "LINE 2" in (root / "a.py").read_text()


def test_review_prints_the_net_diff_and_rewind_restores(root: Path) -> None:
    shown = run("review", "--root", root)
    assert shown.returncode == 0, shown.stderr
    assert "+LINE 15" in shown.stdout and "c.txt" in shown.stdout
    listed = run("checkpoints", "--root", root)
    assert listed.returncode == 0
    assert "2 file(s) changed since" in listed.stdout
    done = run("rewind", "--root", root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (root / "a.py").read_text() == A_TEXT and not (root / "c.txt").exists()
    assert "Rewound 2 file(s)" in done.stdout or "changeset: 2 files" in done.stdout


def test_rewind_refuses_an_outside_change_without_force(root: Path) -> None:
    (root / "c.txt").write_text("edited by hand\n")
    refused = run("rewind", "--root", root)
    assert refused.returncode == 1
    assert "stale" in refused.stdout and "+edited by hand" in refused.stdout
    assert (root / "c.txt").read_text() == "edited by hand\n"
    forced = run("rewind", "--root", root, "--force", "--json")
    assert forced.returncode == 0
    assert not (root / "c.txt").exists()


def test_report_with_net_has_the_net_view(root: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    done = run("report", "--root", root, "--net", "-o", out)
    assert done.returncode == 0, done.stderr
    page = out.read_text()
    net = page[page.index('<section class="pane" id="net"') :]
    assert net.count('<article class="card diff"') == 2
    assert "Net changes since checkpoint" in net
    refused = run("report", "-", "--net", "-o", out, stdin="")
    assert refused.returncode == 2 and "--net needs --root" in refused.stderr
