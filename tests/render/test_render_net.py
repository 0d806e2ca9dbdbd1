"""The report's net-changes view beside the step-by-step cards: its structure, and in Chromium."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from render_browser import evaluate_after_load, load, needs_chromium
from render_pages import elements, with_class

from edittools import Session
from edittools.artifacts import StreamEvent, ToolResult
from edittools.render import render_report, report_page

A_TEXT = "".join(f"line {k}\n" for k in range(30))


@pytest.fixture
def session_work(tmp_path: Path) -> tuple[list[StreamEvent], ToolResult]:
    """Steps over real files (one line changed twice, a file created, one changed outside)."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text(A_TEXT)
    (root / "b.txt").write_text("b\n")
    with Session(root, require_read=False) as s:
        cp = s.checkpoint()
        s.edit("a.py", "line 3\n", "line three\n")
        s.edit("a.py", "line three\n", "line 3 (third)\n")
        s.edit("a.py", "line 20\n", "line twenty\n")
        s.write("<new>.txt", "created\n")
        s.edit("b.txt", "b\n", "bee\n")
        (root / "b.txt").write_text("bee, and more from outside\n")
        return s.journal(), s.changes(cp)


def text_of(html: str) -> str:
    """The text of some HTML, tags (syntax and word highlights) left out."""
    return re.sub(r"<[^>]+>", "", html)


def pane(page: str, name: str) -> str:
    start = page.index(f'<section class="pane" id="{name}"')
    end = page.find('<section class="pane"', start + 1)
    return page[start : end if end >= 0 else len(page)]


def test_net_view_sits_beside_the_steps_with_one_card_per_file(
    session_work: tuple[list[StreamEvent], ToolResult],
) -> None:
    events, net = session_work
    page, counts = report_page(events, title="Session", net=net)
    plain, plain_counts = report_page(events, title="Session")
    assert counts == plain_counts  # the summary counts the steps
    steps, net_html = pane(page, "steps"), pane(page, "net")
    assert len(with_class(steps, "card", "diff")) == 5
    cards = with_class(net_html, "card", "diff")
    assert [c.attrs["id"] for c in cards] == ["net-1", "net-2", "net-3"]
    headings = [e.text for e in elements(net_html) if e.tag == "h2"]
    assert headings == ["Net changes", "<new>.txt", "a.py", "b.txt"]
    # Intermediate steps are collapsed in the net view only.
    assert "line three" in text_of(steps) and "line three" not in text_of(net_html)
    assert "line 3 (third)" in text_of(net_html)
    badges = [e.text for e in with_class(net_html, "badge", "warn")]
    assert badges == ["new file", "changed outside the tools"]
    assert "&lt;new&gt;.txt" in net_html and "<new>.txt" not in net_html
    tabs = [e.attrs["data-set-pane"] for e in elements(page) if "data-set-pane" in e.attrs]
    assert tabs == ["steps", "net"]
    assert '<section class="pane"' not in plain and "data-set-pane=" not in plain


def test_a_failed_review_shows_as_its_error_in_the_net_view(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    with Session(root) as s:
        failed = s.changes(12345)
    net_html = pane(render_report([], title="t", net=failed), "net")
    assert len(with_class(net_html, "card", "error")) == 1
    assert "There is no checkpoint 12345" in net_html


@pytest.mark.integration
@needs_chromium
def test_net_view_in_chromium_switches_with_the_steps(
    tmp_path: Path, session_work: tuple[list[StreamEvent], ToolResult]
) -> None:
    events, net = session_work
    page = tmp_path / "report.html"
    page.write_text(render_report(events, title="Session", net=net), encoding="utf-8")
    loaded = load(page, tmp_path / "profile")
    assert loaded.console == []
    body = next(e.attrs for e in elements(loaded.dom) if e.tag == "body")
    assert body["data-pane"] == "steps"
    visible = "document.querySelector('section[data-pane={}]').offsetParent !== null"
    values = evaluate_after_load(
        page,
        tmp_path / "profile2",
        [
            visible.format("steps"),
            visible.format("net"),
            "document.querySelector('[data-set-pane=net]').click(), document.body.dataset.pane",
            visible.format("steps"),
            visible.format("net"),
            "document.querySelectorAll('section[data-pane=net] article.card').length",
        ],
    )
    assert values == [True, False, "net", False, True, 3]
    opened = load(page, tmp_path / "profile3", fragment="#net")
    assert next(e.attrs for e in elements(opened.dom) if e.tag == "body")["data-pane"] == "net"
