"""The newest MCP conformance suite (0.2.x, pinned in tests/conformance/next/) against
`edittools serve --http`, over both the handshake of 2025-11-25 and the stateless requests of
2026-07-28 (no `initialize`, no session: `server/discover` and `_meta` on every request).

Each scenario that applies is one test per protocol revision it is run at, failed by any check
the suite fails or warns about, except the checks `EXPECTED_FAILURES` lists with the reason each
cannot pass here. The other scenarios test the suite's own fixtures (tools, prompts and
resources of fixed names), capabilities or extensions the server does not declare; the lists
say why for each, and a test checks that they hold exactly the pinned suite's scenarios.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conformance_harness import Suite, run_scenario, scenarios, serving, suite_in
from mcp_harness import PROJECT

pytestmark = pytest.mark.integration

CONFORMANCE_NEXT = PROJECT / "tests" / "conformance" / "next"
HANDSHAKE = "2025-11-25"
STATELESS = "2026-07-28"

APPLICABLE = {
    "server-initialize": (HANDSHAKE,),
    "server-session-lifecycle": (HANDSHAKE,),
    "ping": (HANDSHAKE,),
    "tools-list": (HANDSHAKE, STATELESS),
    "resources-list": (HANDSHAKE, STATELESS),
    "server-sse-multiple-streams": (HANDSHAKE, STATELESS),
    "dns-rebinding-protection": (HANDSHAKE, STATELESS),
    "server-stateless": (STATELESS,),
    "sep-2164-resource-not-found": (STATELESS,),
    "caching": (STATELESS,),
    "http-header-validation": (STATELESS,),
}
"""Scenario: the protocol revisions it is run at."""

EXPECTED_FAILURES = {
    "server-stateless": {
        "sep-2575-server-rejects-undeclared-capability": "calls the suite's own tool "
        "test_missing_capability (which needs sampling); the server has no such tool and "
        "answers the call with an error result, which the suite takes for running it",
        "sep-2575-missing-capability-http-400": "needs the suite's own tool "
        "test_missing_capability in tools/list",
    },
    "caching": {
        "sep-2549-prompts-list-caching-hints": "the server has no prompts (prompts/list is "
        "method not found)",
    },
}
"""Scenario: the checks of it that fail here, each with why."""

_SUITE_TOOL = "calls the suite's own tool {}"
_NO_PROMPTS = "the server has no prompts"
_NEVER_ASKS = "the server's tools never ask the client for input"
_INPUT = "calls the suite's own tool {}, a SEP-2322 input-required flow: " + _NEVER_ASKS
_INPUT_ANY = "calls the suite's own tools of SEP-2322 input-required flows: " + _NEVER_ASKS
_TASKS = "the tasks extension, which the server does not declare"
_SKILLS = "the skills extension (SEP-2640), which the server does not declare"
NOT_APPLICABLE = {
    "logging-set-level": "the server declares no logging capability",
    "completion-complete": "the server declares no completions",
    "tools-call-simple-text": _SUITE_TOOL.format("test_simple_text"),
    "tools-call-image": _SUITE_TOOL.format("test_image_content"),
    "tools-call-audio": _SUITE_TOOL.format("test_audio_content"),
    "tools-call-embedded-resource": _SUITE_TOOL.format("test_embedded_resource"),
    "tools-call-mixed-content": _SUITE_TOOL.format("test_multiple_content_types"),
    "tools-call-with-logging": _SUITE_TOOL.format("test_tool_with_logging"),
    "tools-call-error": _SUITE_TOOL.format("test_error_handling"),
    "tools-call-with-progress": _SUITE_TOOL.format("test_tool_with_progress"),
    "tools-call-sampling": _SUITE_TOOL.format("test_sampling") + ", which asks for sampling",
    "tools-call-elicitation": _SUITE_TOOL.format("test_elicitation") + ", which elicits",
    "json-schema-2020-12": "lists the suite's own tool json_schema_2020_12_tool (pending)",
    "elicitation-sep1034-defaults": _SUITE_TOOL.format("test_elicitation_sep1034_defaults"),
    "elicitation-sep1330-enums": _SUITE_TOOL.format("test_elicitation_sep1330_enums"),
    "server-sse-polling": _SUITE_TOOL.format("test_reconnection"),
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
    "http-custom-header-server-validation": "needs a tool with x-mcp-header annotations "
    "(SEP-2243, pending); the server's tools take nothing from headers",
    "input-required-result-basic-elicitation": _INPUT.format(
        "test_input_required_result_elicitation"
    ),
    "input-required-result-basic-sampling": _INPUT.format("test_input_required_result_sampling"),
    "input-required-result-basic-list-roots": _INPUT.format(
        "test_input_required_result_list_roots"
    ),
    "input-required-result-request-state": _INPUT.format(
        "test_input_required_result_request_state"
    ),
    "input-required-result-multiple-input-requests": _INPUT.format(
        "test_input_required_result_multiple_inputs"
    ),
    "input-required-result-multi-round": _INPUT.format("test_input_required_result_multi_round"),
    "input-required-result-missing-input-response": _INPUT.format(
        "test_input_required_result_elicitation"
    ),
    "input-required-result-non-tool-request": "gets the suite's own prompt in an input-required "
    "flow; the server has no prompts",
    "input-required-result-result-type": _INPUT_ANY,
    "input-required-result-unsupported-methods": _INPUT_ANY,
    "input-required-result-tampered-state": _INPUT_ANY,
    "input-required-result-capability-check": _INPUT_ANY,
    "input-required-result-ignore-extra-params": _INPUT_ANY,
    "input-required-result-validate-input": _INPUT_ANY,
    "tasks-lifecycle": _TASKS,
    "tasks-capability-negotiation": _TASKS,
    "tasks-wire-fields": _TASKS,
    "tasks-request-state-removal": _TASKS,
    "tasks-mrtr-input": _TASKS,
    "tasks-request-headers": _TASKS,
    "tasks-dispatch-and-envelope": _TASKS,
    "tasks-status-notifications": _TASKS,
    "tasks-required-task-error": _TASKS,
    "tasks-mrtr-composition": _TASKS,
    "sep-2640-skills-directory": _SKILLS,
    "sep-2640-skills-enumeration": _SKILLS,
    "sep-2640-skills-manifest": _SKILLS,
}


@pytest.fixture(scope="session")
def conformance_next() -> Suite:
    """The pinned 0.2.x suite, installed with `npm ci` when missing or older than its lock."""
    return suite_in(CONFORMANCE_NEXT)


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The MCP endpoint of `edittools serve --http --no-auth` on a free loopback port."""
    yield from serving(tmp_path_factory)


def test_every_server_scenario_of_the_suite_is_placed(conformance_next: Suite) -> None:
    found = scenarios(conformance_next)
    placed = set(APPLICABLE) | set(NOT_APPLICABLE)
    assert not set(APPLICABLE) & set(NOT_APPLICABLE)
    assert set(EXPECTED_FAILURES) <= set(APPLICABLE)
    assert set(found) == placed, (
        f"scenarios to place: {sorted(set(found) - placed)}; "
        f"gone from the suite: {sorted(placed - set(found))}"
    )
    for scenario, versions in APPLICABLE.items():  # run only at revisions the suite lists
        assert all(version in found[scenario] for version in versions), (scenario, found)


@pytest.mark.parametrize(
    ("scenario", "version"),
    [(scenario, version) for scenario, versions in APPLICABLE.items() for version in versions],
)
def test_conformance_scenario(
    scenario: str, version: str, conformance_next: Suite, server_url: str, tmp_path: Path
) -> None:
    done, checks, report = run_scenario(
        conformance_next, scenario, server_url, tmp_path, "--spec-version", version
    )
    expected = EXPECTED_FAILURES.get(scenario, {}) if version == STATELESS else {}
    short = [c for c in checks if c.get("status") in ("FAILURE", "WARNING")]
    unexpected = [c for c in short if c.get("id") not in expected]
    gone = set(expected) - {c.get("id") for c in short}
    if not checks or unexpected or gone or (done.returncode != 0 and not expected):
        said = "".join(
            f"\n  {c['status']} {c.get('id')}: {c.get('errorMessage') or c.get('description')}"
            for c in unexpected
        )
        if gone:
            said += f"\n  passing now, take off EXPECTED_FAILURES: {sorted(gone)}"
        pytest.fail(
            f"conformance scenario {scenario} ({version}) against {server_url} failed "
            f"(exit {done.returncode}, {len(checks)} checks){said}\n\nthe suite said:\n{report}"
        )
