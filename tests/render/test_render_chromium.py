"""The HTML report in a real headless Chromium: it loads cleanly, counts right, and stays inert."""

from __future__ import annotations

from pathlib import Path

import pytest
from render_browser import evaluate_after_load, load, needs_chromium
from render_hostile import HOSTILE, hostile_events
from render_pages import elements, with_class
from render_samples import (
    BINARY,
    MODIFY,
    RENAME,
    SNIPPET,
    changeset_result,
    code_result,
    diff_result,
    error_result,
)

from edittools.artifacts import StreamEvent, ToolResult
from edittools.render import render_report

pytestmark = [pytest.mark.integration, needs_chromium]

SAMPLE = [
    diff_result(MODIFY),
    StreamEvent(id="c2", name="Edit", value="ok", artifact=diff_result(SNIPPET).artifact),
    changeset_result(MODIFY, RENAME),
    error_result("no_match", "Nothing matched."),
    code_result("def f():\n    return 1\n", filename="a.py", start_line=5),
    diff_result(BINARY),
    ToolResult(value="plain"),
]


def write(tmp_path: Path, page: str) -> Path:
    path = tmp_path / "report.html"
    path.write_text(page, encoding="utf-8")
    return path


def body_of(dom: str) -> dict[str, str]:
    return next(e.attrs for e in elements(dom) if e.tag == "body")


def test_report_loads_cleanly_and_shows_its_cards_and_counts(tmp_path: Path) -> None:
    page = write(tmp_path, render_report(SAMPLE, title="Session report"))
    loaded = load(page, tmp_path / "profile")
    assert loaded.console == []
    assert len(with_class(loaded.dom, "card", "diff")) == 5
    assert len(with_class(loaded.dom, "card", "error")) == 1
    assert len(with_class(loaded.dom, "card")) == 8
    summary = with_class(loaded.dom, "summary")[0].text
    assert summary == "4 files changed in 5 changes, +4 -3, 1 error, 7 results"
    # The page's own script ran under its policy: it chose the unified view.
    assert body_of(loaded.dom)["data-view"] == "unified"
    pressed = {e.attrs["data-set-view"]: e.attrs["aria-pressed"] for e in elements(loaded.dom)
               if "data-set-view" in e.attrs}  # fmt: skip
    assert pressed == {"unified": "true", "split": "false"}


def test_split_fragment_opens_the_side_by_side_view(tmp_path: Path) -> None:
    page = write(tmp_path, render_report(SAMPLE, title="Session report"))
    loaded = load(page, tmp_path / "profile", fragment="#split")
    assert loaded.console == []
    assert body_of(loaded.dom)["data-view"] == "split"


def test_hostile_input_stays_inert(tmp_path: Path) -> None:
    events = hostile_events()
    page = write(tmp_path, render_report(events, title=HOSTILE))
    loaded = load(page, tmp_path / "profile")
    found = elements(loaded.dom)
    # Nothing ran: the title is the escaped text, and no element was added.
    title = next(e for e in found if e.tag == "title")
    assert title.text == HOSTILE
    assert not [e for e in found if e.attrs.get("id") == "pwned"]
    tags = [e.tag for e in found]
    assert tags.count("script") == 1
    assert not {"img", "svg", "iframe", "base", "textarea"} & set(tags)
    assert tags.count("meta") == 4
    assert all(e.attrs["href"].startswith("#card-") for e in found if "href" in e.attrs)
    assert loaded.console == []
    assert len(with_class(loaded.dom, "card", "diff")) == 4
    assert body_of(loaded.dom)["data-view"] == "unified"


def test_policy_blocks_markup_that_bypassed_escaping(tmp_path: Path) -> None:
    """A control: were markup to get in unescaped, the page's policy still stops it, and the
    console check sees the violation."""
    page = render_report(SAMPLE, title="Session report")
    smuggled = (
        "<script>document.title='pwned'</script>"
        '<img src="https://attacker.invalid/x.png">'
        "<style>body { background: url(https://attacker.invalid/bg.png) }</style>"
    )
    page = page.replace("<main>", "<main>" + smuggled, 1)
    loaded = load(write(tmp_path, page), tmp_path / "profile")
    assert next(e for e in elements(loaded.dom) if e.tag == "title").text == "Session report"
    violations = " ".join(loaded.console)
    assert "Content Security Policy" in violations
    assert "script-src" in violations and "attacker.invalid" in violations
    assert "style-src" in violations


def test_toolbar_buttons_switch_between_views(tmp_path: Path) -> None:
    page = write(tmp_path, render_report(SAMPLE, title="Session report"))
    values = evaluate_after_load(
        page,
        tmp_path / "profile",
        [
            "document.body.dataset.view",
            "document.querySelector('[data-set-view=split]').click(), document.body.dataset.view",
            "document.querySelectorAll('table.split').length",
            "Array.from(document.querySelectorAll('table.split'))"
            ".every(t => t.offsetParent !== null)",
            "Array.from(document.querySelectorAll('table.unified'))"
            ".every(t => t.offsetParent === null)",
            "document.querySelector('[data-set-view=unified]').click(), document.body.dataset.view",
            "Array.from(document.querySelectorAll('table.split'))"
            ".every(t => t.offsetParent === null)",
        ],
    )
    assert values == ["unified", "split", 3, True, True, "unified", True]


def test_images_load_under_the_policy_and_word_marks_and_details_render(tmp_path: Path) -> None:
    import base64

    from render_samples import image_result, png_bytes

    from edittools.diff import diff_texts

    png = png_bytes(3, 2)
    results = [
        image_result(b64=base64.b64encode(png).decode()),
        diff_result(diff_texts("a = count\n", "a = amount\n", path="a.py")),
        error_result("no_match", "Nothing.\nHint: retry."),
    ]
    page = write(tmp_path, render_report(results, title="t"))
    values = evaluate_after_load(
        page,
        tmp_path / "profile",
        [
            "document.querySelector('figure.image img').complete",
            "document.querySelector('figure.image img').naturalWidth",
            "getComputedStyle(document.querySelector('tr.add mark')).backgroundColor"
            " !== getComputedStyle(document.querySelector('tr.add')).backgroundColor",
            "document.querySelectorAll('table.unified mark').length",
        ],
    )
    assert values == [True, 3, True, 2]
    loaded = load(page, tmp_path / "profile2")
    assert loaded.console == []
