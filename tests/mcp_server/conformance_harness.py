"""The official MCP conformance suite (an npm package on Node 22), installed from a folder that
pins it, and `edittools serve --http` for it to test: shared by the modules that run each pinned
version (`test_mcp_conformance.py`, `test_mcp_conformance_next.py`)."""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from mcp_harness import PROJECT
from npm_pins import npm_ci

SUITE_PACKAGE = "@modelcontextprotocol/conformance"
NODE_MAJOR = 22
NPM_CI_TIMEOUT = 900.0
SCENARIO_TIMEOUT = 120.0
SERVER_START_TIMEOUT = 30.0
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclass(frozen=True)
class Suite:
    """The installed conformance suite: the Node 22 binary and the suite's command-line script."""

    node: Path
    cli: Path

    def run(self, *args: str, timeout: float) -> subprocess.CompletedProcess[str]:
        """The suite's command line with `args`; a run past `timeout` fails the test."""
        try:
            return subprocess.run(
                [str(self.node), str(self.cli), *args],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired as exc:
            pytest.fail(
                f"the conformance suite ({' '.join(args)}) ran over {timeout:.0f} s:\n"
                f"{_text(exc.stdout)}{_text(exc.stderr)}"
            )


def _text(output: str | bytes | None) -> str:
    return output.decode(errors="replace") if isinstance(output, bytes) else output or ""


def _node_major(node: Path | str) -> int | None:
    try:
        done = subprocess.run([str(node), "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = re.fullmatch(r"v(\d+)\.\d+\.\d+\s*", done.stdout)
    return int(found.group(1)) if found else None


def node(folder: Path) -> Path:
    """The Node 22 binary the lock installs for this machine, else a Node 22 on PATH."""
    machine = platform.machine().lower()
    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64"}.get(machine, machine)
    pinned = folder / "node_modules" / f"node-{sys.platform}-{arch}" / "bin" / "node"
    if pinned.is_file():
        if _node_major(pinned) == NODE_MAJOR:
            return pinned
        pytest.fail(f"{pinned} is not Node {NODE_MAJOR}: {folder}'s lock pins it")
    on_path = shutil.which("node")
    if on_path is not None and (_node_major(on_path) or 0) >= NODE_MAJOR:
        return Path(on_path)
    pytest.fail(
        f"no Node {NODE_MAJOR} for {sys.platform}-{arch}: {folder} pins it for Linux x64 and "
        f"arm64 only, and the node on PATH ({on_path or 'none'}) is older"
    )


def cli(folder: Path) -> Path:
    """The suite's command-line script, as its package.json names it."""
    package = folder / "node_modules" / SUITE_PACKAGE
    bin_field = json.loads((package / "package.json").read_text(encoding="utf-8"))["bin"]
    script = bin_field if isinstance(bin_field, str) else bin_field["conformance"]
    return package / script


def suite_in(folder: Path) -> Suite:
    """The suite `folder` pins, installed with `npm ci` when missing or older than its lock."""
    # The npm running this is older than the Node 22 it installs, and packages there say they
    # need Node 22: their engines are checked against the Node 22 package, not this npm's node.
    npm_ci(folder, needed_by="the MCP conformance tests", timeout=NPM_CI_TIMEOUT,
           engine_strict=False)  # fmt: skip
    return Suite(node(folder), cli(folder))


def scenarios(suite: Suite) -> dict[str, str]:
    """The suite's server scenarios, each with what `list` says after its name (the protocol
    revisions it applies to, in the newer suites)."""
    listed = suite.run("list", "--server", timeout=SCENARIO_TIMEOUT)
    assert listed.returncode == 0, listed.stdout + listed.stderr
    found = dict(re.findall(r"^\s+- (\S+)(.*)$", listed.stdout, re.MULTILINE))
    assert found, listed.stdout
    return {name: rest.strip() for name, rest in found.items()}


def run_scenario(
    suite: Suite, scenario: str, url: str, out: Path, *options: str
) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]], str]:
    """One scenario against `url`: the suite's exit, the checks it saved, and its report."""
    done = suite.run(
        "server", "--url", url, "--scenario", scenario, "--output-dir", str(out), *options,
        timeout=SCENARIO_TIMEOUT,
    )  # fmt: skip
    report = _ANSI.sub("", f"{done.stdout}{done.stderr}")  # the suite colours its report
    checks = [
        check
        for saved in sorted(out.glob("*/checks.json"))
        for check in json.loads(saved.read_text(encoding="utf-8"))
    ]
    return done, checks, report


def serving(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The MCP endpoint of `edittools serve --http --no-auth` on a free loopback port, over a
    small root."""
    root = tmp_path_factory.mktemp("conformance-root")
    (root / "notes.txt").write_text("one\ntwo\nthree\n")
    state = tmp_path_factory.mktemp("conformance-state")
    log = tmp_path_factory.mktemp("conformance-server") / "stderr.txt"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")])),
    }
    command = [sys.executable, "-m", "edittools.mcp_server", "--root", str(root)]
    # The suite sends no Authorization header (and its DNS-rebinding scenario expects the
    # server's own Host and Origin to be answered), so the server asks no token: on loopback.
    command += ["--state-dir", str(state), "--http", "127.0.0.1:0", "--no-auth"]
    with log.open("w") as stderr:
        proc = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr, env=env
        )
    try:
        yield served_url(proc, log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def served_url(proc: subprocess.Popen[bytes], log: Path) -> str:
    """The URL the server says it serves at, once it says so."""
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        said = log.read_text(errors="replace")
        if found := re.search(r"serving MCP at (http://\S+)", said):
            return found.group(1)
        if proc.poll() is not None:
            pytest.fail(f"the server exited ({proc.returncode}) before serving:\n{said}")
        time.sleep(0.05)
    pytest.fail(f"the server did not say where it serves within {SERVER_START_TIMEOUT:.0f} s")
