"""LangChain's MCP adapter (pinned in tests/clients/langchain/) on `edittools serve --http`.

The adapter's default mode opens a new MCP session for every tool call. Its 0.3.2 needs the MCP
SDK before 2, and the project the SDK 2, so it runs in an environment of its own, made on first
use in `tests/clients/langchain/.venv` from `requirements.txt`; `client.py` there drives it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import venv
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.integration

PROJECT = Path(__file__).resolve().parents[2]
ADAPTER = Path(__file__).resolve().parent / "langchain"
INSTALL_TIMEOUT = 900.0
CALLS_TIMEOUT = 180.0
_ALICE = "alice-token-0123456789"
_BOB = "bob-token-0123456789ab"
_PLAIN = "plain-token-0123456789"


def _installed(folder: Path) -> bool:
    """Whether the environment was made since requirements.txt last changed."""
    marker = folder / ".venv" / "installed"
    pinned = (folder / "requirements.txt").stat().st_mtime
    return marker.is_file() and marker.stat().st_mtime >= pinned


def _python(folder: Path) -> Path:
    bin_dir = "Scripts" if sys.platform == "win32" else "bin"
    return folder / ".venv" / bin_dir / ("python.exe" if sys.platform == "win32" else "python")


@pytest.fixture(scope="session")
def adapter() -> Path:
    """The Python of the adapter's environment, made with pip when missing or out of date."""
    if not _installed(ADAPTER):
        venv.EnvBuilder(with_pip=True, clear=True).create(ADAPTER / ".venv")
        command = [str(_python(ADAPTER)), "-m", "pip", "install", "-q"]
        command += ["-r", str(ADAPTER / "requirements.txt")]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=INSTALL_TIMEOUT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"pip install in {ADAPTER} ran over {INSTALL_TIMEOUT:.0f} s")
        if done.returncode != 0:
            pytest.fail(f"pip install in {ADAPTER} failed:\n{done.stdout}{done.stderr}")
        (ADAPTER / ".venv" / "installed").touch()
    return _python(ADAPTER)


@contextmanager
def served(root: Path, tokens: Path, *options: str) -> Iterator[str]:
    """`edittools serve --http 127.0.0.1:0 --token-file tokens` over `root` in a child; its
    URL."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")])),
    }
    command = [sys.executable, "-m", "edittools.mcp_server", "--root", str(root)]
    command += ["--http", "127.0.0.1:0", "--token-file", str(tokens), *options]
    quiet = subprocess.DEVNULL
    proc = subprocess.Popen(
        command, stdin=quiet, stdout=quiet, stderr=subprocess.PIPE, text=True, env=env
    )
    assert proc.stderr is not None
    url = None
    deadline = time.monotonic() + 30
    while url is None and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        if found := re.search(r"serving MCP at (\S+)", line):
            url = found.group(1)
    try:
        assert url is not None, f"the server did not start: {proc.stderr.read()}"
        yield url
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        proc.stderr.close()


def calls(python: Path, url: str, *planned: dict[str, Any]) -> list[dict[str, str]]:
    """Each planned call made through the adapter (a new session each): status and text."""
    plan = json.dumps({"url": url, "calls": list(planned)})
    done = subprocess.run(
        [str(python), str(ADAPTER / "client.py")],
        input=plan,
        capture_output=True,
        text=True,
        timeout=CALLS_TIMEOUT,
    )
    assert done.returncode == 0, done.stderr
    outcomes: list[dict[str, str]] = json.loads(done.stdout)
    return outcomes


def _read(token: str, name: str | None = None) -> dict[str, Any]:
    return {"tool": "read", "args": {"path": "a.py"}, "token": token, "name": name}


def _edit(token: str, name: str | None = None, new: str = "x = 2") -> dict[str, Any]:
    args = {"path": "a.py", "old_string": "x = 1", "new_string": new}
    return {"tool": "edit", "args": args, "token": token, "name": name}


def test_a_session_per_call_client_reads_then_edits(
    adapter: Path, root: Path, tmp_path: Path
) -> None:
    # Found: each session was its own agent, so this client got not_read on every edit.
    (root / "a.py").write_text("x = 1\n")
    (tmp_path / "token").write_text(f"{_PLAIN}\n")
    with served(root, tmp_path / "token") as url:
        read, edit = calls(adapter, url, _read(_PLAIN), _edit(_PLAIN))
    assert read["status"] == "success" and "x = 1" in read["text"], read
    assert edit["status"] == "success", edit
    assert "Edited a.py" in edit["text"]
    assert (root / "a.py").read_text() == "x = 2\n"


@pytest.mark.parametrize("by", ["declared names", "tokens mapped to agents"])
def test_two_agents_keep_two_read_records(
    adapter: Path, root: Path, tmp_path: Path, by: str
) -> None:
    (root / "a.py").write_text("x = 1\n")
    tokens = tmp_path / "tokens"
    if by == "declared names":
        tokens.write_text(f"{_PLAIN}\n")
        alice, bob = (_PLAIN, "alice"), (_PLAIN, "bob")
        judged = "agent `bob`, the name its client declares"
    else:
        tokens.write_text(f"{_ALICE} alice\n{_BOB} bob\n")
        alice, bob = (_ALICE, None), (_BOB, None)
        judged = "agent `bob#token`, the agent its bearer token is mapped to"
    with served(root, tokens) as url:
        read, by_bob, by_alice = calls(adapter, url, _read(*alice), _edit(*bob), _edit(*alice))
    assert read["status"] == "success", read
    assert by_bob["status"] == "error" and "(not_read)" in by_bob["text"], by_bob
    assert judged in by_bob["text"], by_bob
    assert by_alice["status"] == "success", by_alice
    assert (root / "a.py").read_text() == "x = 2\n"


def test_with_an_agent_per_session_the_refusal_says_why_and_what_to_do(
    adapter: Path, root: Path, tmp_path: Path
) -> None:
    (root / "a.py").write_text("x = 1\n")
    (tmp_path / "token").write_text(f"{_PLAIN}\n")
    with served(root, tmp_path / "token", "--agent-per-session") as url:
        read, edit = calls(adapter, url, _read(_PLAIN), _edit(_PLAIN))
    assert read["status"] == "success", read
    assert edit["status"] == "error" and "(not_read)" in edit["text"], edit
    said = edit["text"]
    assert "keeps reads per MCP session (--agent-per-session)" in said, said
    assert "a read counts only in the session that made it" in said
    assert "Read and change the file in one session" in said
    assert "token mapped to an agent (--token-file)" in said
    assert (root / "a.py").read_text() == "x = 1\n"
