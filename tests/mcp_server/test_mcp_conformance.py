"""The official MCP conformance suite's server scenarios, run against `edittools serve --http`.

The suite is an npm package that needs Node 22; tests/conformance/ pins both (package.json and
its lock), and the first test that needs them installs them there with `npm ci`. The suite
speaks only streamable HTTP, so one server child listens on a free loopback port for the
module. Each scenario that applies to a file-tools server is one test, failed by any check the
suite fails or warns about, with the suite's own report. The other scenarios test the suite's
own fixtures (tools, prompts and resources of fixed names) or capabilities the server does not
declare; `NOT_APPLICABLE` says why for each, and a test checks that the two lists hold exactly
the pinned suite's scenarios, so a new version's new scenarios are placed on purpose.
"""

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

import pytest
from mcp_harness import PROJECT

pytestmark = pytest.mark.integration

CONFORMANCE = PROJECT / "tests" / "conformance"
SUITE_PACKAGE = "@modelcontextprotocol/conformance"
NODE_MAJOR = 22
NPM_CI_TIMEOUT = 900.0
SCENARIO_TIMEOUT = 120.0
SERVER_START_TIMEOUT = 30.0
_ANSI = re.compile(r"\x1b\[[0-9;]*m")

APPLICABLE = (
    "server-initialize",
    "ping",
    "tools-list",
    "resources-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
)

_SUITE_TOOL = "calls the suite's own tool {}"
_NO_PROMPTS = "the server has no prompts"
# tools-call-simple-text and tools-call-error would pass here, but only because a call of a tool
# that does not exist answers with an error result holding a text block.
NOT_APPLICABLE = {
    "logging-set-level": "the server declares no logging capability",
    "completion-complete": "the server declares no completions (and the suite completes its own "
    "prompt test_prompt_with_arguments)",
    "tools-call-simple-text": _SUITE_TOOL.format("test_simple_text"),
    "tools-call-image": _SUITE_TOOL.format("test_image_content"),
    "tools-call-audio": _SUITE_TOOL.format("test_audio_content"),
    "tools-call-embedded-resource": _SUITE_TOOL.format("test_embedded_resource"),
    "tools-call-mixed-content": _SUITE_TOOL.format("test_multiple_content_types"),
    "tools-call-with-logging": _SUITE_TOOL.format("test_tool_with_logging")
    + " (and sets a logging level)",
    "tools-call-error": _SUITE_TOOL.format("test_error_handling"),
    "tools-call-with-progress": _SUITE_TOOL.format("test_tool_with_progress"),
    "tools-call-sampling": _SUITE_TOOL.format("test_sampling") + ", which asks for sampling",
    "tools-call-elicitation": _SUITE_TOOL.format("test_elicitation") + ", which elicits",
    "json-schema-2020-12": "lists the suite's own tool json_schema_2020_12_tool (a pending "
    "scenario)",
    "elicitation-sep1034-defaults": _SUITE_TOOL.format("test_elicitation_sep1034_defaults")
    + ", which elicits",
    "elicitation-sep1330-enums": _SUITE_TOOL.format("test_elicitation_sep1330_enums")
    + ", which elicits",
    "server-sse-polling": _SUITE_TOOL.format("test_reconnection")
    + ", which closes its stream mid-call (a pending scenario)",
    "resources-read-text": "reads the suite's own resource test://static-text",
    "resources-read-binary": "reads the suite's own resource test://static-binary",
    "resources-templates-read": "reads the suite's own template test://template/{id}/data",
    "resources-subscribe": "the server's resources capability has no subscribe",
    "resources-unsubscribe": "the server's resources capability has no subscribe",
    "prompts-list": _NO_PROMPTS,
    "prompts-get-simple": _NO_PROMPTS,
    "prompts-get-with-args": _NO_PROMPTS,
    "prompts-get-embedded-resource": _NO_PROMPTS,
    "prompts-get-with-image": _NO_PROMPTS,
}


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


def _installed(folder: Path) -> bool:
    """Whether `npm ci` has installed `folder`'s lock since package.json or the lock changed
    (npm writes node_modules/.package-lock.json last)."""
    marker = folder / "node_modules" / ".package-lock.json"
    if not marker.is_file():
        return False
    pinned = max((folder / name).stat().st_mtime for name in ("package.json", "package-lock.json"))
    return marker.stat().st_mtime >= pinned


def _npm_ci(folder: Path) -> None:
    """Install `folder`'s lock exactly, or fail the test saying why."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail(f"npm is not on PATH: the MCP conformance tests install {folder} with npm ci")
    # The npm running this is older than the Node 22 it installs, and packages there say they
    # need Node 22: their engines are checked against the Node 22 package, not this npm's node.
    command = [npm, "ci", "--ignore-scripts", "--engine-strict=false", "--no-audit", "--no-fund"]
    try:
        done = subprocess.run(
            command,
            cwd=folder,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=NPM_CI_TIMEOUT,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(
            f"npm ci in {folder} ran over {NPM_CI_TIMEOUT:.0f} s (is the npm registry "
            f"reachable?):\n{_text(exc.stdout)}{_text(exc.stderr)}"
        )
    if done.returncode != 0 or not _installed(folder):
        pytest.fail(
            f"npm ci in {folder} failed (exit {done.returncode}); the MCP conformance tests need "
            f"the packages its lock pins:\n{done.stdout}{done.stderr}"
        )


def _node_major(node: Path | str) -> int | None:
    try:
        done = subprocess.run([str(node), "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = re.fullmatch(r"v(\d+)\.\d+\.\d+\s*", done.stdout)
    return int(found.group(1)) if found else None


def _node(folder: Path) -> Path:
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


def _cli(folder: Path) -> Path:
    """The suite's command-line script, as its package.json names it."""
    package = folder / "node_modules" / SUITE_PACKAGE
    bin_field = json.loads((package / "package.json").read_text(encoding="utf-8"))["bin"]
    script = bin_field if isinstance(bin_field, str) else bin_field["conformance"]
    return package / script


@pytest.fixture(scope="session")
def conformance() -> Suite:
    """The pinned conformance suite, installed with `npm ci` when missing or older than its lock."""
    if not _installed(CONFORMANCE):
        _npm_ci(CONFORMANCE)
    return Suite(_node(CONFORMANCE), _cli(CONFORMANCE))


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
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
        yield _served_url(proc, log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _served_url(proc: subprocess.Popen[bytes], log: Path) -> str:
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


def test_every_server_scenario_of_the_suite_is_placed(conformance: Suite) -> None:
    listed = conformance.run("list", "--server", timeout=SCENARIO_TIMEOUT)
    assert listed.returncode == 0, listed.stdout + listed.stderr
    scenarios = set(re.findall(r"^\s+- (\S+)", listed.stdout, re.MULTILINE))
    assert scenarios, listed.stdout
    placed = set(APPLICABLE) | set(NOT_APPLICABLE)
    assert not set(APPLICABLE) & set(NOT_APPLICABLE)
    assert scenarios == placed, (
        f"scenarios to place: {sorted(scenarios - placed)}; "
        f"gone from the suite: {sorted(placed - scenarios)}"
    )


@pytest.mark.parametrize("scenario", APPLICABLE)
def test_conformance_scenario(
    scenario: str, conformance: Suite, server_url: str, tmp_path: Path
) -> None:
    done = conformance.run(
        "server",
        "--url",
        server_url,
        "--scenario",
        scenario,
        "--output-dir",
        str(tmp_path),
        timeout=SCENARIO_TIMEOUT,
    )
    report = _ANSI.sub("", f"{done.stdout}{done.stderr}")  # the suite colours its report
    checks = [
        check
        for saved in sorted(tmp_path.glob("*/checks.json"))
        for check in json.loads(saved.read_text(encoding="utf-8"))
    ]
    short = [c for c in checks if c.get("status") in ("FAILURE", "WARNING")]
    if done.returncode != 0 or not checks or short:
        said = "".join(
            f"\n  {c['status']} {c.get('id')}: {c.get('errorMessage') or c.get('description')}"
            for c in short
        )
        pytest.fail(
            f"conformance scenario {scenario} against {server_url} failed "
            f"(exit {done.returncode}, {len(checks)} checks){said}\n\nthe suite said:\n{report}"
        )
