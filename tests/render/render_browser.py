"""Headless Chromium for the report tests, driven from the command line with no extra package.

`load` opens a file, lets its scripts run, and returns the DOM Chromium ended with and every
console message it logged (script errors and Content-Security-Policy violations included).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

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
