"""Headless Chromium for the report tests, driven from the command line with no extra package.

`load` opens a file, lets its scripts run, and returns the DOM Chromium ended with and every
console message it logged (script errors and Content-Security-Policy violations included).
`evaluate_after_load` runs expressions in the loaded page; `devtools` hands a test the DevTools
connection itself (commands, and the events Chromium sent), for pages with frames to drive.
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
from collections.abc import Iterator
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
    with devtools(page, profile, timeout=timeout) as browser:
        session = browser.attach_to_page()
        return [browser.evaluate(expression, session, check=False) for expression in expressions]


class DevTools:
    """A headless Chromium driven over its DevTools pipe: commands, and the events it sent.

    `call` sends a command and waits for its answer; every event read meanwhile is kept in
    `events` (in order, with the `sessionId` it came on), for `wait_for_event` and for tests that
    read what a page logged.
    """

    def __init__(self, sender: Any, receiver: Any, deadline: float) -> None:
        self._sender = sender
        self._receiver = receiver
        self.deadline = deadline
        self.events: list[dict[str, Any]] = []
        self._counter = iter(range(1, 1_000_000_000))
        self._buffered = b""

    def _next_message(self) -> dict[str, Any]:
        while b"\0" not in self._buffered:
            if time.monotonic() > self.deadline:
                raise TimeoutError("chromium did not answer in time")
            chunk = self._receiver.read1(1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self._buffered += chunk
        raw, self._buffered = self._buffered.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def call(self, method: str, params: dict[str, object], session: str | None = None) -> Any:
        """Send one command (to `session`'s target, else the browser) and return its result."""
        ident = next(self._counter)
        message: dict[str, object] = {"id": ident, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self._sender.write(json.dumps(message).encode() + b"\0")
        self._sender.flush()
        while time.monotonic() < self.deadline:
            reply = self._next_message()
            if "id" not in reply:
                self.events.append(reply)
            elif reply["id"] == ident:
                if "error" in reply:
                    raise RuntimeError(reply["error"])
                return reply["result"]
        raise TimeoutError(method)

    def wait_for_event(self, method: str, *, seen: int = 0) -> dict[str, Any]:
        """The first event named `method` among `events[seen:]`, reading more until it comes."""
        while True:
            for event in self.events[seen:]:
                if event.get("method") == method:
                    return event
            seen = len(self.events)
            if time.monotonic() > self.deadline:
                raise TimeoutError(method)
            message = self._next_message()
            if "id" not in message:
                self.events.append(message)

    def attach_to_page(self) -> str:
        """Attach to the page opened from a file and wait until it has loaded; its session id."""
        target = ""
        while not target and time.monotonic() < self.deadline:
            infos = self.call("Target.getTargets", {})["targetInfos"]
            pages = [t for t in infos if t["type"] == "page"]
            target = next((t["targetId"] for t in pages if t["url"].startswith("file:")), "")
        session: str = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        loaded = "location.protocol === 'file:' && document.readyState === 'complete'"
        while self.evaluate(loaded, session) is not True:
            if time.monotonic() > self.deadline:
                raise TimeoutError("the page did not finish loading")
        return session

    def evaluate(
        self, expression: str, session: str, *, await_promise: bool = False, check: bool = True
    ) -> object:
        """The value of a JavaScript expression in `session`'s page (awaited when asked); an
        expression that throws raises RuntimeError, unless `check` is off (its value is None)."""
        params: dict[str, object] = {"expression": expression, "returnByValue": True}
        if await_promise:
            params["awaitPromise"] = True
        result = self.call("Runtime.evaluate", params, session)
        if check and "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")


@contextlib.contextmanager
def devtools(page: Path, profile: Path, *, timeout: float = 90) -> Iterator[DevTools]:
    """Open `page` in headless Chromium with its DevTools pipe; the browser ends with the block.

    The pipe is `--remote-debugging-pipe`: NUL-separated JSON on file descriptors 3 and 4.
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
    try:
        yield DevTools(sender, receiver, time.monotonic() + timeout)
    finally:
        # The browser is ours alone and holds nothing worth a clean shutdown.
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        with contextlib.suppress(BrokenPipeError):
            sender.close()
        receiver.close()
