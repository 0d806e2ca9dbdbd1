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

from collections.abc import Iterator
from pathlib import Path

import pytest
from conformance_harness import Suite, run_scenario, scenarios, serving, suite_in
from mcp_harness import PROJECT

pytestmark = pytest.mark.integration

CONFORMANCE = PROJECT / "tests" / "conformance"

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


@pytest.fixture(scope="session")
def conformance() -> Suite:
    """The pinned conformance suite, installed with `npm ci` when missing or older than its lock."""
    return suite_in(CONFORMANCE)


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The MCP endpoint of `edittools serve --http --no-auth` on a free loopback port."""
    yield from serving(tmp_path_factory)


def test_every_server_scenario_of_the_suite_is_placed(conformance: Suite) -> None:
    found = set(scenarios(conformance))
    placed = set(APPLICABLE) | set(NOT_APPLICABLE)
    assert not set(APPLICABLE) & set(NOT_APPLICABLE)
    assert found == placed, (
        f"scenarios to place: {sorted(found - placed)}; "
        f"gone from the suite: {sorted(placed - found)}"
    )


@pytest.mark.parametrize("scenario", APPLICABLE)
def test_conformance_scenario(
    scenario: str, conformance: Suite, server_url: str, tmp_path: Path
) -> None:
    done, checks, report = run_scenario(conformance, scenario, server_url, tmp_path)
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
