"""Headless Chromium for the report tests, driven from the command line with no extra package.

`load` opens a file, lets its scripts run, and returns the DOM Chromium ended with and every
console message it logged (script errors and Content-Security-Policy violations included).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed here; CI installs Debian's chromium package and runs these",
)

_FLAGS = [
    "--headless",
    "--no-sandbox",  # CI runs as root, where Chromium's sandbox refuses to start
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--mute-audio",
    "--enable-logging=stderr",
    "--v=0",
]
_CONSOLE = re.compile(r":CONSOLE[(:][^\]]*\] (.*)")


@dataclass
class Loaded:
    """What a page became in Chromium: its serialised DOM and its console messages."""

    dom: str
    console: list[str]


def load(page: Path, profile: Path, *, fragment: str = "", timeout: float = 90) -> Loaded:
    """Open `page` in headless Chromium and return its DOM after scripts ran, and the console."""
    assert CHROMIUM is not None
    command = [
        CHROMIUM,
        *_FLAGS,
        f"--user-data-dir={profile}",
        "--dump-dom",
        page.resolve().as_uri() + fragment,
    ]
    # A session of its own, so a hung browser and its helpers can be ended together.
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as process:
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
    assert process.returncode == 0, err
    return Loaded(
        dom=out, console=[m.group(1) for m in map(_CONSOLE.search, err.splitlines()) if m]
    )


def evaluate_after_load(
    page: Path, profile: Path, expressions: list[str], *, timeout: float = 90
) -> list[object]:
    """Open `page`, wait for it to load, and return the value of each JavaScript expression.

    Talks the DevTools protocol over `--remote-debugging-pipe` (NUL-separated JSON on file
    descriptors 3 and 4), so a test can click the page's buttons with only the standard library.
    """
    assert CHROMIUM is not None
    to_browser_read, to_browser_write = os.pipe()
    from_browser_read, from_browser_write = os.pipe()

    def wire_pipes() -> None:
        # Move both ends clear of 3 and 4 first: a pipe may already sit on one of them.
        read_end = fcntl.fcntl(to_browser_read, fcntl.F_DUPFD, 10)
        write_end = fcntl.fcntl(from_browser_write, fcntl.F_DUPFD, 10)
        os.dup2(read_end, 3)
        os.dup2(write_end, 4)

    command = [
        CHROMIUM,
        *_FLAGS,
        f"--user-data-dir={profile}",
        "--remote-debugging-pipe",
        page.resolve().as_uri(),
    ]
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=wire_pipes,  # the child needs the pipes at descriptors 3 and 4
        # Descriptors are closed after `wire_pipes` runs; Python's own are never inherited.
        close_fds=False,
        start_new_session=True,
    )
    os.close(to_browser_read)
    os.close(from_browser_write)
    sender = os.fdopen(to_browser_write, "wb")
    receiver = os.fdopen(from_browser_read, "rb")
    deadline = time.monotonic() + timeout
    counter = iter(range(1, 1_000_000))
    buffered = b""

    def call(method: str, params: dict[str, object], session: str | None = None) -> Any:
        nonlocal buffered
        ident = next(counter)
        message: dict[str, object] = {"id": ident, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        sender.write(json.dumps(message).encode() + b"\0")
        sender.flush()
        while time.monotonic() < deadline:
            while b"\0" not in buffered:
                chunk = receiver.read1(65536)
                if not chunk:
                    raise RuntimeError("chromium closed the DevTools pipe")
                buffered += chunk
            raw, buffered = buffered.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == ident:
                if "error" in reply:
                    raise RuntimeError(reply["error"])
                return reply["result"]
        raise TimeoutError(method)

    def value(expression: str, session: str) -> object:
        result = call(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True}, session
        )
        return result["result"].get("value")

    try:
        target = ""
        while not target and time.monotonic() < deadline:
            pages = [t for t in call("Target.getTargets", {})["targetInfos"] if t["type"] == "page"]
            target = next((t["targetId"] for t in pages if t["url"].startswith("file:")), "")
        session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        loaded = "location.protocol === 'file:' && document.readyState === 'complete'"
        while value(loaded, session) is not True:
            if time.monotonic() > deadline:
                raise TimeoutError("the page did not finish loading")
        return [value(expression, session) for expression in expressions]
    finally:
        # The browser is ours alone and holds nothing worth a clean shutdown.
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        with contextlib.suppress(BrokenPipeError):
            sender.close()
        receiver.close()
