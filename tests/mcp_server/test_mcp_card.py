"""The change card (`ui://edittools/change`) in a real headless Chromium, hosted as MCP Apps
hosts do: the card's document in a sandboxed frame (`srcdoc`, `allow-scripts` only), a host page
around it that answers `ui/initialize`, sends the call's arguments and result (a real result of a
real session, on the wire as the server sends it), and passes the card's `tools/call` and
`resources/read` requests on to the session, as a host forwards them to the server.

The host page and the card run in different processes (a sandboxed frame is isolated), so the
test drives both over the DevTools pipe: one session for the host page, one for the card's frame,
attached before the card runs a line, so every console message and error of either is seen.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import re
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from edittools import Session, ToolResult
from edittools.artifacts.access import MCP_RESULT_META as RESULT_META
from edittools.artifacts.builders import by_reference
from edittools.dialects import result_to_mcp
from edittools.mcp_server._card import (
    CARD_MIME_TYPE,
    CARD_TITLE,
    CARD_URI,
    card_html,
    card_resource_meta,
)

# The browser helpers live with the report's tests.
_RENDER_TESTS = str(Path(__file__).resolve().parents[1] / "render")
if _RENDER_TESTS not in sys.path:
    sys.path.append(_RENDER_TESTS)

from render_browser import DevTools, devtools, needs_chromium  # noqa: E402
from render_samples import png_bytes  # noqa: E402

# The host page: the card's document and the messages it is sent come as JSON in the page
# (with "<" escaped, so no content can close the script element that holds it).
_HOST = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>test host</title></head><body>
<script type="application/json" id="card">{card}</script>
<script type="application/json" id="init">{init}</script>
<script type="application/json" id="input">{input}</script>
<script type="application/json" id="result">{result}</script>
<script>
"use strict";
const data = (id) => JSON.parse(document.getElementById(id).textContent);
window.received = [];
let frame = null;
function post(message) {{ frame.contentWindow.postMessage(message, "*"); }}
window.addEventListener("message", (event) => {{
  if (!frame || event.source !== frame.contentWindow) {{ return; }}
  const message = event.data;
  window.received.push(message);
  if (message.method === "ui/initialize") {{
    const init = data("init");
    init.protocolVersion = message.params.protocolVersion;
    post({{jsonrpc: "2.0", id: message.id, result: init}});
  }} else if (message.method === "ui/notifications/initialized") {{
    post({{jsonrpc: "2.0", method: "ui/notifications/tool-input", params: {{arguments: data("input")}}}});
    post({{jsonrpc: "2.0", method: "ui/notifications/tool-result", params: data("result")}});
  }}
}});
// Requests the card makes of the server: the test answers them, as the server would.
window.answer = (id, result) => {{ post({{jsonrpc: "2.0", id: id, result: result}}); return true; }};
window.start = () => {{
  frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts");
  frame.style.width = "900px";
  frame.srcdoc = data("card");
  document.body.appendChild(frame);
  return true;
}};
</script></body></html>
"""


def _json_in_html(value: Any) -> str:
    return json.dumps(value).replace("<", "\\u003c")


def wire(result: ToolResult) -> dict[str, Any]:
    """A result as the server puts it on the wire (`_server.answer`, texts by reference)."""
    return result_to_mcp(by_reference(result))


@dataclass
class Hosted:
    """The host page and the card in it, each a DevTools session of one browser."""

    browser: DevTools
    page: str
    frame: str

    def card(self, expression: str) -> Any:
        return self.browser.evaluate(expression, self.frame)

    def host(self, expression: str) -> Any:
        return self.browser.evaluate(expression, self.page)

    def wait(self, expression: str, *, in_card: bool = True, seconds: float = 30) -> Any:
        """The value of `expression` once it is truthy, evaluated again until it is."""
        deadline = min(self.browser.deadline, time.monotonic() + seconds)
        while True:
            value = self.card(expression) if in_card else self.host(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(expression)
            time.sleep(0.02)

    def requests(self, method: str) -> list[dict[str, Any]]:
        """The requests of `method` the card has sent the host so far."""
        found: list[dict[str, Any]] = self.host(
            f"window.received.filter(m => m.method === {json.dumps(method)} && 'id' in m)"
        )
        return found

    def next_request(self, method: str, seen: int) -> dict[str, Any]:
        """The card's next request of `method` after the first `seen`."""
        self.wait(
            f"window.received.filter(m => m.method === {json.dumps(method)} && 'id' in m)"
            f".length > {seen}",
            in_card=False,
        )
        return self.requests(method)[seen]

    def answer(self, request: dict[str, Any], result: dict[str, Any]) -> None:
        self.host(f"window.answer({json.dumps(request['id'])}, {_json_in_html(result)})")

    def console(self) -> list[str]:
        """Everything either page logged: console calls, uncaught errors, browser log entries
        (Content-Security-Policy violations among them)."""
        out = []
        for event in self.browser.events:
            if event.get("sessionId") not in (self.page, self.frame):
                continue
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled":
                texts = [str(a.get("value", a.get("description", ""))) for a in params["args"]]
                out.append(f"console.{params['type']}: {' '.join(texts)}"[:500])
            elif method == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                thrown = details.get("exception", {}).get("description", details.get("text"))
                out.append(f"uncaught: {thrown}"[:500])
            elif method == "Log.entryAdded":
                out.append(f"log.{params['entry']['level']}: {params['entry']['text']}"[:500])
        return out


@contextlib.contextmanager
def hosted(
    folder: Path,
    result: ToolResult | dict[str, Any],
    *,
    tool: str,
    arguments: dict[str, Any] | None = None,
    document: str | None = None,
) -> Iterator[Hosted]:
    """The card, in a host page in Chromium, sent `arguments` and `result` as a call of `tool`;
    the block runs once the card has shown the result (or, for a `document` other than the
    card's, once the frame has loaded)."""
    folder.mkdir()
    init = {
        "hostInfo": {"name": "test host", "version": "0"},
        "hostCapabilities": {"serverTools": {}, "serverResources": {}},
        "hostContext": {
            "theme": "light",
            "toolInfo": {"id": 7, "tool": {"name": tool, "inputSchema": {"type": "object"}}},
        },
    }
    page = folder / "host.html"
    page.write_text(
        _HOST.format(
            card=_json_in_html(document or card_html()),
            init=_json_in_html(init),
            input=_json_in_html(arguments or {}),
            result=_json_in_html(result if isinstance(result, dict) else wire(result)),
        ),
        encoding="utf-8",
    )
    with devtools(page, folder / "profile", timeout=120) as browser:
        session = browser.attach_to_page()
        for domain in ("Runtime", "Log"):
            browser.call(f"{domain}.enable", {}, session)
        # The card's frame stops before its first line until it is watched too.
        auto: dict[str, object] = {
            "autoAttach": True,
            "waitForDebuggerOnStart": True,
            "flatten": True,
        }
        browser.call("Target.setAutoAttach", auto, session)
        seen = len(browser.events)
        assert browser.evaluate("window.start()", session) is True
        attached = browser.wait_for_event("Target.attachedToTarget", seen=seen)
        assert attached["params"]["targetInfo"]["type"] == "iframe"
        frame = attached["params"]["sessionId"]
        for domain in ("Runtime", "Log"):
            browser.call(f"{domain}.enable", {}, frame)
        browser.call("Runtime.runIfWaitingForDebugger", {}, frame)
        card = Hosted(browser, session, frame)
        if document is None:
            card.wait("document.body && document.body.dataset.state === 'shown'")
        else:
            card.wait("document.readyState === 'complete'")
        yield card


# Reads the card back: what each diff card shows, row by row.
_READ_DIFFS = """
Array.from(document.querySelectorAll('article.card.diff')).map(card => ({
  path: card.querySelector('.card-head h2').textContent,
  added: card.querySelector('.count-add').textContent,
  removed: card.querySelector('.count-del').textContent,
  headers: Array.from(card.querySelectorAll('tr.hunk .header')).map(e => e.textContent),
  rows: Array.from(card.querySelectorAll('tr:not(.hunk)')).map(
    r => [r.className, ...Array.from(r.cells).map(c => c.textContent)]),
  marks: Array.from(card.querySelectorAll('mark')).map(
    m => [m.closest('tr').className, m.textContent]),
}))
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """The session's root: a folder of its own, beside the host page and the browser profile."""
    folder = tmp_path / "root"
    folder.mkdir()
    return folder


def test_card_document_has_a_strict_policy_and_loads_nothing() -> None:
    html = card_html()
    assert html is card_html()  # built once
    policies = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html)
    assert len(policies) == 1
    directives = dict(d.strip().split(" ", 1) for d in policies[0].split(";") if d.strip())
    assert directives["default-src"] == "'none'"
    assert directives["connect-src"] == "'none'"
    assert directives["img-src"] == "data:"
    assert directives["base-uri"] == "'none'"
    # Script and style: exactly the inline ones, by hash (no 'unsafe-inline', no source).
    (script,) = re.findall(r"<script>(.*?)</script>", html, re.S)
    (style,) = re.findall(r"<style>(.*?)</style>", html, re.S)
    for directive, source in (("script-src", script), ("style-src", style)):
        digest = base64.b64encode(hashlib.sha256(source.encode()).digest()).decode()
        assert directives[directive] == f"'sha256-{digest}'"
    # Nothing external: no source or link attribute in the markup, no URL anywhere, and the
    # script's one source it sets is a data: URI.
    markup = html.replace(script, "").replace(style, "")
    assert not re.search(r"\b(src|href|srcset|action|data|poster)\s*=", markup)
    assert not re.search(r"https?:|//[a-z0-9.-]+\.[a-z]{2,}/", html, re.I)
    assert re.findall(r"\.(src|href)\s*=\s*([^\n]*)", script) == [
        ("src", '"data:" + type + ";base64," + b64;')
    ]
    assert re.findall(r"<(\w+)", html).count("script") == 1
    assert "<link" not in html and "@import" not in html and "url(" not in html
    # Result text reaches the page as text: the script never parses markup.
    assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(", html)
    assert "new Function" not in html


def test_card_resource_names_and_meta() -> None:
    from mcp.server.apps import APP_MIME_TYPE

    assert CARD_URI == "ui://edittools/change"
    assert CARD_MIME_TYPE == APP_MIME_TYPE
    meta = card_resource_meta()
    assert meta["prefersBorder"] is True
    assert meta["csp"] == {"connectDomains": [], "resourceDomains": [], "frameDomains": []}
    assert meta is not card_resource_meta()  # a fresh dict: a caller may add to it


def structured(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer in the earlier shape: the result object as `structuredContent`, value included."""
    rest = answer["_meta"][RESULT_META]
    value = answer["content"][0]["text"]
    return {**answer, "_meta": {}, "structuredContent": {"value": value, **rest}}


@needs_chromium
@pytest.mark.integration
@pytest.mark.parametrize("shape", ["meta", "structuredContent"])
def test_a_diff_shows_path_counts_numbered_hunk_lines_and_word_highlights(
    session: Session, root: Path, tmp_path: Path, shape: str
) -> None:
    (root / "size.py").write_text(
        "import os\n\n\ndef size(path):\n    count = os.path.getsize(path)\n    return count\n"
    )
    session.read("size.py")
    result = session.edit("size.py", "count = os.path", "total = os.path")
    assert not result.is_error
    arguments = {
        "path": "size.py",
        "old_string": "count = os.path",
        "new_string": "total = os.path",
    }
    answer = wire(result) if shape == "meta" else structured(wire(result))
    with hosted(tmp_path / "host", answer, tool="edit", arguments=arguments) as card:
        (diff,) = card.card(_READ_DIFFS)
        assert diff["path"] == "size.py"
        assert (diff["added"], diff["removed"]) == ("+1", "-1")
        assert diff["headers"] == ["@@ -2,5 +2,5 @@"]
        assert diff["rows"] == [
            ["ctx", "2", "2", " "],
            ["ctx", "3", "3", " "],
            ["ctx", "4", "4", " def size(path):"],
            ["del", "5", "", "-    count = os.path.getsize(path)"],
            ["add", "", "5", "+    total = os.path.getsize(path)"],
            ["ctx", "6", "6", "     return count"],
        ]
        assert diff["marks"] == [["del", "count"], ["add", "total"]]
        # Marked words stand out from their line.
        assert card.card(
            "getComputedStyle(document.querySelector('tr.add mark')).backgroundColor !== "
            "getComputedStyle(document.querySelector('tr.add td.code')).backgroundColor"
        )
        assert card.card("document.body.dataset.kind") == "diff"
        assert card.card("document.querySelectorAll('button').length") == 0  # not a review
        # The handshake, in order, as the card spoke it.
        methods = card.host("window.received.map(m => m.method)")
        assert methods[:2] == ["ui/initialize", "ui/notifications/initialized"]
        greeting = card.host("window.received[0]")
        assert greeting["jsonrpc"] == "2.0" and isinstance(greeting["id"], int)
        assert greeting["params"]["protocolVersion"] == "2026-01-26"
        assert greeting["params"]["appInfo"]["name"] == "edittools-change-card"
        assert "id" not in card.host("window.received[1]")
        # It tells the host how tall it is.
        height = card.wait(
            "window.received.filter(m => m.method === 'ui/notifications/size-changed')"
            ".map(m => m.params.height).pop()",
            in_card=False,
        )
        assert height == card.card(
            "Math.ceil(document.documentElement.getBoundingClientRect().height)"
        )
        assert card.console() == []


@needs_chromium
@pytest.mark.integration
def test_a_changeset_shows_each_file(session: Session, root: Path, tmp_path: Path) -> None:
    (root / "a.txt").write_text("one\ntwo\n")
    (root / "b.txt").write_text("alpha\n")
    session.read("a.txt")
    session.read("b.txt")
    patch = (
        "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+three\n"
        "--- a/b.txt\n+++ b/b.txt\n@@ -1 +1,2 @@\n alpha\n+beta\n"
    )
    result = session.apply_patch(patch)
    assert not result.is_error, result.value
    with hosted(tmp_path / "host", result, tool="apply_patch", arguments={"patch": patch}) as card:
        diffs = card.card(_READ_DIFFS)
        assert [(d["path"], d["added"], d["removed"]) for d in diffs] == [
            ("a.txt", "+1", "-1"),
            ("b.txt", "+1", "-0"),
        ]
        assert diffs[1]["rows"] == [["ctx", "1", "1", " alpha"], ["add", "", "2", "+beta"]]
        heading = card.card("document.querySelector('section.changeset > h2').textContent")
        assert heading == "changeset: 2 files +2 -1"
        assert card.card("document.querySelectorAll('button').length") == 0
        assert card.console() == []


@needs_chromium
@pytest.mark.integration
def test_an_image_card_names_its_attachment_and_shows_it(
    session: Session, root: Path, tmp_path: Path
) -> None:
    (root / "dot.png").write_bytes(png_bytes(3, 2))
    result = session.read("dot.png")
    attachment = result.artifact.payload.images[0].attachment  # type: ignore[union-attr]
    assert attachment is not None
    with hosted(tmp_path / "host", result, tool="read", arguments={"path": "dot.png"}) as card:
        assert card.card("document.body.dataset.kind") == "image"
        assert card.card("document.querySelector('.card.image h2').textContent") == "dot.png"
        line = card.card("document.querySelector('ul.images li').textContent")
        assert line == f"image/png 3x2 {attachment.bytes} bytes, attachment {attachment.id}"
        # The bytes come through the host from the server's blob resource.
        read = card.next_request("resources/read", 0)
        assert read["params"] == {"uri": f"edittools://blob/{attachment.id}"}
        data = session.blob(attachment.id)
        contents = {"uri": read["params"]["uri"], "mimeType": "image/png"}
        contents["blob"] = base64.b64encode(data).decode()
        card.answer(read, {"contents": [contents]})
        card.wait("document.querySelector('figure.image img')?.complete")
        assert card.card("document.querySelector('figure.image img').naturalWidth") == 3
        assert card.console() == []


HOSTILE_LINES = [
    "<script>document.title='pwned'; window.pwned = 1</script>",
    "</template><script>window.pwned = 2</script><template>",
    "<img src=x onerror=\"window.pwned = 3; document.title='pwned'\">",
    '"><svg onload="window.pwned = 4"></svg><iframe srcdoc="<script>parent.pwned=5</script>">',
    "right-to-left \u202eexe.txt and an isolate \u2066here\u2069, ESC \x1b[31m",
]
HOSTILE_NAME = "<img src=x onerror=\"document.title='pwned'\">.html"
HUGE = 10_000_000


@needs_chromium
@pytest.mark.integration
def test_a_hostile_file_stays_inert_and_shows_literally(
    session: Session, root: Path, tmp_path: Path
) -> None:
    (root / HOSTILE_NAME).write_text("first <b>line</b>\n")
    session.read(HOSTILE_NAME)
    huge = "A" * HUGE
    content = "first <i>line</i>\n" + "\n".join(HOSTILE_LINES) + "\n" + huge + "\nlast\n"
    result = session.write(HOSTILE_NAME, content)
    assert not result.is_error, result.value
    arguments = {"path": HOSTILE_NAME, "content": content}
    with hosted(tmp_path / "host", result, tool="write", arguments=arguments) as card:
        # Nothing ran: no title change, no global, no element of the file's markup.
        assert card.card("document.title") == CARD_TITLE
        assert card.card("typeof window.pwned") == "undefined"
        assert card.host("typeof window.pwned") == "undefined"
        assert card.host("document.title") == "test host"
        assert card.card("document.querySelectorAll('img, svg, iframe, template').length") == 0
        assert card.card("document.scripts.length") == 1
        assert card.console() == []
        (diff,) = card.card(_READ_DIFFS)
        assert diff["path"] == HOSTILE_NAME
        assert (diff["added"], diff["removed"]) == ("+8", "-1")
        codes = [row[3] for row in diff["rows"]]
        assert codes[:2] == ["-first <b>line</b>", "+first <i>line</i>"]
        for line in HOSTILE_LINES[:4]:
            assert f"+{line}" in codes  # the markup, as text
        assert ["del", "b"] in diff["marks"] and ["add", "i"] in diff["marks"]
        # Direction overrides and controls are shown as marks, never applied.
        assert codes[6] == "+right-to-left U+202Eexe.txt and an isolate U+2066hereU+2069, ESC ␛[31m"
        assert card.card("document.body.textContent.includes('\\u202e')") is False
        marks = card.card("Array.from(document.querySelectorAll('.ctl')).map(e => e.textContent)")
        assert marks == ["U+202E", "U+2066", "U+2069", "␛"]
        # The 10 MB line is cut, with a note saying how much is left out.
        cut = codes[7]
        assert cut.startswith("+" + "A" * 10_000) and not cut.startswith("+" + "A" * 10_001)
        assert cut.endswith(" … 9,990,000 more characters not shown")
        assert codes[8] == "+last"


@needs_chromium
@pytest.mark.integration
def test_the_policy_stops_markup_that_got_into_the_card(tmp_path: Path) -> None:
    """A control for the test above: markup smuggled into the card's own document is blocked by
    its policy, and the console check sees the violation."""
    smuggled = card_html().replace(
        '<main id="card">',
        "<script>document.title='pwned'</script>"
        '<img src="https://attacker.invalid/x.png"><main id="card">',
        1,
    )
    result = ToolResult(value="plain")
    with hosted(tmp_path / "host", result, tool="read", document=smuggled) as card:
        card.wait("document.body.dataset.state === 'shown'")
        assert card.card("document.title") == CARD_TITLE
        violations = " ".join(card.console())
        assert "Content Security Policy" in violations
        assert "script-src" in violations and "attacker.invalid" in violations


@pytest.fixture
def reviewed(root: Path) -> Path:
    (root / "a.py").write_text("".join(f"line = {i}\n" for i in range(1, 31)))
    return root / "a.py"


@needs_chromium
@pytest.mark.integration
def test_review_accepts_here_and_rejects_through_the_host(
    session: Session, reviewed: Path, tmp_path: Path
) -> None:
    session.read("a.py")
    for number in (2, 15, 28):
        assert not session.edit("a.py", f"line = {number}\n", f"line = {number}0\n").is_error
    changes = session.changes()
    assert [len(f.hunks) for f in changes.artifact.payload.files] == [3]  # type: ignore[union-attr]
    with hosted(tmp_path / "host", changes, tool="changes", arguments={}) as card:
        assert card.card("document.querySelectorAll('button.reject').length") == 3
        state = "Array.from(document.querySelectorAll('tbody')).map(b => b.dataset.review)"
        assert card.card(state) == ["pending", "pending", "pending"]
        # Accept keeps the hunk here; the server hears nothing of it.
        card.card("document.querySelectorAll('button.accept')[1].click()")
        assert card.card(state) == ["pending", "kept", "pending"]
        assert card.requests("tools/call") == []
        # Reject: the host is asked to call `reject` with the file and the hunk's index.
        card.card("document.querySelectorAll('button.reject')[0].click()")
        call = card.next_request("tools/call", 0)
        assert call["params"] == {"name": "reject", "arguments": {"path": "a.py", "hunk": 0}}
        assert card.card(state) == ["pending", "kept", "pending"]  # until the server answers
        card.answer(call, wire(session.call("reject", call["params"]["arguments"])))
        card.wait("document.querySelector('tbody').dataset.review === 'rejected'")
        assert "line = 2\n" in reviewed.read_text()
        # A later hunk of the file is one place earlier on the server now.
        card.card("document.querySelectorAll('button.reject')[2].click()")
        call = card.next_request("tools/call", 1)
        assert call["params"] == {"name": "reject", "arguments": {"path": "a.py", "hunk": 1}}
        card.answer(call, wire(session.call("reject", call["params"]["arguments"])))
        card.wait("document.querySelectorAll('tbody')[2].dataset.review === 'rejected'")
        assert card.card(state) == ["rejected", "kept", "rejected"]
        text = reviewed.read_text()
        assert "line = 28\n" in text and "line = 150\n" in text and "line = 2\n" in text
        assert card.console() == []


@needs_chromium
@pytest.mark.integration
def test_a_refused_reject_says_why_and_can_be_tried_again(
    session: Session, reviewed: Path, tmp_path: Path
) -> None:
    since = session.checkpoint()
    session.read("a.py")
    assert not session.edit("a.py", "line = 3\n", "line = 30\n").is_error
    changes = session.changes(since)
    arguments = {"since": since, "by": "agent-1"}
    with hosted(tmp_path / "host", changes, tool="changes", arguments=arguments) as card:
        card.card("document.querySelector('button.reject').click()")
        call = card.next_request("tools/call", 0)
        expected = {"path": "a.py", "hunk": 0, "since": since, "by": "agent-1"}
        assert call["params"] == {"name": "reject", "arguments": expected}
        # The file changed meanwhile (someone undid the change): the server refuses.
        assert not session.undo("a.py").is_error
        refused = session.call("reject", call["params"]["arguments"])
        assert refused.is_error
        card.answer(call, wire(refused))
        status = card.wait("document.querySelector('.status.failed')?.textContent")
        assert status == "not rejected: " + refused.value.splitlines()[0]
        assert card.card("document.querySelector('button.reject').disabled") is False
        assert card.card("document.querySelector('tbody').dataset.review") == "pending"
        assert card.console() == []
