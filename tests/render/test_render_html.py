"""The HTML report as a string: structure, counts, escaping and its Content-Security-Policy."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st
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

from edittools.artifacts import DiffPayload, DiffStats, Hunk, StreamEvent, ToolResult
from edittools.diff import diff_texts
from edittools.render import render_report
from edittools.render._sanitize import visible
from edittools.render._syntax import _CLASSES

SAMPLE = [
    diff_result(MODIFY),
    StreamEvent(id="c2", name="Edit", value="ok", artifact=diff_result(SNIPPET).artifact),
    changeset_result(MODIFY, RENAME),
    error_result("no_match", "Nothing matched."),
    code_result("def f():\n    return 1\n", filename="a.py", start_line=5),
    diff_result(BINARY),
    ToolResult(value="plain"),
]

# The only markup the report itself emits: anything else in a page came from input.
ALLOWED_TAGS = {
    "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "p", "span", "ol",
    "li", "a", "div", "button", "main", "article", "section", "table", "tr", "td", "pre",
    "thead", "tbody", "th", "script", "mark", "details", "summary", "img", "figure",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "lang", "charset", "http-equiv", "content", "name", "class", "id", "href", "type",
    "data-set-view", "colspan",
}  # fmt: skip


def test_one_diff_card_per_changed_file_and_one_card_per_other_result() -> None:
    page = render_report(SAMPLE, title="t")
    diff_cards = with_class(page, "card", "diff")
    headings = [e.text for e in elements(page) if e.tag == "h2"]
    assert headings[:3] == ["pkg/mod.py", "notes.txt", "changeset: 2 files +1 -1"]
    assert len(diff_cards) == 5
    assert len(with_class(page, "card")) == 8
    assert len(with_class(page, "changeset")) == 1
    assert len(with_class(page, "card", "error")) == 1


def test_summary_counts_files_changes_lines_and_errors() -> None:
    page = render_report(SAMPLE, title="t")
    summary = with_class(page, "summary")[0].text
    assert summary == "4 files changed in 5 changes, +4 -3, 1 error, 7 results"


def test_diff_card_shows_counts_granularity_operation_and_both_views() -> None:
    page = render_report([diff_result(SNIPPET)], title="t")
    card = with_class(page, "card", "diff")[0]
    assert card.text.startswith("notes.txt+2 -1snippetmodifymatch: trailing_whitespacenon-minimal")
    assert len(with_class(page, "granularity-snippet")) == 1
    unified = with_class(page, "lines", "unified")[0].text
    assert unified == "@@ @@-a+b+c"
    split = with_class(page, "lines", "split")[0]
    assert split.text == "@@ @@abc"
    cells = [e for e in elements(page) if e.tag == "td" and "code" in e.classes]
    split_cells = [(sorted(c.classes - {"code"}), c.text) for c in cells[-4:]]
    assert split_cells == [(["del"], "a"), (["add"], "b"), (["empty"], ""), (["add"], "c")]


def test_unified_rows_are_numbered_on_each_side() -> None:
    page = render_report([diff_result(MODIFY)], title="t")
    unified = page[
        page.index('<table class="lines unified">') : page.index('<table class="lines split">')
    ]
    cells = [e.text for e in elements(unified) if e.tag == "td"]
    rows = [cells[i : i + 3] for i in range(1, len(cells), 3)]  # after the @@ row
    assert rows == [
        ["1", "1", " import os"],
        ["2", "", "-- not a header"],
        ["", "2", "+def main():"],
        ["3", "3", "     return 1"],
        ["4", "4", " # end"],
    ]


def test_code_is_coloured_on_the_server() -> None:
    page = render_report([code_result("def f():\n    return 'x'\n", filename="a.py")], title="t")
    assert '<span class="tk">def</span>' in page
    assert '<span class="ts">&#x27;x&#x27;</span>' in page


def test_long_diffs_are_cut_with_a_note() -> None:
    lines = [f"+line {i}" for i in range(50)]
    payload = DiffPayload(
        path="big.txt",
        hunks=[Hunk(old_start=0, old_lines=0, new_start=1, new_lines=50, lines=lines)],
        stats=DiffStats(added=50, removed=0),
    )
    page = render_report([diff_result(payload)], title="t", max_lines=10)
    assert "40 more lines not shown." in page
    assert "line 9<" in page and "line 10<" not in page


def test_hostile_text_stays_text() -> None:
    page = render_report(hostile_events(), title=HOSTILE)
    found = elements(page)
    assert {e.tag for e in found} <= ALLOWED_TAGS
    assert {name for e in found for name in e.attrs} <= ALLOWED_ATTRIBUTES
    assert [e.tag for e in found].count("script") == 1
    assert [e.tag for e in found].count("style") == 1
    assert [e.tag for e in found].count("meta") == 4
    for e in found:
        assert "pwned" not in "".join(e.attrs.values())
        if "href" in e.attrs:
            assert re.fullmatch(r"#card-\d+", e.attrs["href"])
    title = next(e for e in found if e.tag == "title")
    assert title.text == HOSTILE
    assert "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt;" in page


def test_page_is_encodable_with_lone_surrogates_in_input() -> None:
    payload = DiffPayload(path="a\ud800.txt", unified="@@ -1 +1 @@\n-\udfff\n+x\n")
    page = render_report([diff_result(payload), ToolResult(value="\ud83d")], title="t\udc00")
    assert "a\ufffd.txt" in page.encode("utf-8").decode("utf-8")


def _csp(page: str) -> dict[str, list[str]]:
    meta = next(e for e in elements(page) if e.attrs.get("http-equiv") == "Content-Security-Policy")
    policy: dict[str, list[str]] = {}
    for directive in meta.attrs["content"].split(";"):
        name, *values = directive.split()
        policy[name] = values
    return policy


def _hash(source: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode()).digest()).decode() + "'"


def test_csp_forbids_remote_loads_and_admits_only_the_page_own_script_and_style() -> None:
    page = render_report(SAMPLE, title="t")
    policy = _csp(page)
    assert policy["default-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["form-action"] == ["'none'"]
    script = re.search(r"<script>(.*?)</script>", page, re.S)
    style = re.search(r"<style>(.*?)</style>", page, re.S)
    assert script and style
    assert policy["script-src"] == [_hash(script.group(1))]
    assert policy["style-src"] == [_hash(style.group(1))]
    assert "unsafe-inline" not in page and "http" not in policy


@settings(max_examples=60, deadline=None)
# One-line messages: a message's later lines are laid out as code or hint (test_render_cards).
@given(
    path=st.text(max_size=40),
    line=st.text(max_size=40),
    message=st.text(max_size=40).filter(lambda m: "\n" not in m),
)
@example(path=".P", line="", message="")  # a name pygments colours (Prolog)
def test_any_input_text_round_trips_as_text_and_adds_no_elements(
    path: str, line: str, message: str
) -> None:
    def page_for(path: str, line: str, message: str) -> str:
        payload = DiffPayload(
            path=path,
            hunks=[
                Hunk(old_start=1, old_lines=1, new_start=1, new_lines=1, lines=["-x", "+" + line])
            ],
            stats=DiffStats(added=1, removed=1),
        )
        return render_report([diff_result(payload), error_result("c", message)], title=path)

    def structure(page: str) -> list[tuple[str, Any]]:
        # Syntax colouring depends on the file name (".P" is Prolog), so its spans are left out;
        # that they carry only fixed token classes is checked by the escaping tests above.
        token_classes = {name for _, name in _CLASSES}
        return [
            (e.tag, e.attrs)
            for e in elements(page)
            if not (e.tag == "span" and set(e.classes) <= token_classes) and e.tag != "mark"
        ]

    hostile = elements(page_for(path, line, message))
    assert structure(page_for(path, line, message)) == structure(page_for("p", "l", "m"))
    heading = next(e for e in hostile if e.tag == "h2")
    assert heading.text == visible(path)
    added = next(e for e in hostile if e.tag == "tr" and "add" in e.classes)
    assert added.text.removeprefix("1+") == visible(line)
    assert next(e for e in hostile if "message" in e.classes).text == visible(message)


def test_a_journaled_changeset_reads_cleanly(tmp_path: Path) -> None:
    """The tool's name and id stand apart from the heading, and a diff whose texts are kept by
    reference (every journaled one) carries no "truncated" badge: nothing of it is missing."""
    from edittools import Session

    (tmp_path / "a.txt").write_text("one\n")
    (tmp_path / "b.txt").write_text("two\n")
    with Session(tmp_path, require_read=False) as s:
        s.apply_patch(
            "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n"
            "--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-two\n+TWO\n"
        )
        events = s.journal()
    page = render_report(events, title="journal")
    heading = re.search(r'<span class="tool">apply_patch · [^<]+</span>(.)changeset', page)
    assert heading is not None and heading.group(1) == " "
    assert "truncated" not in page and "texts not kept" not in page


def test_bidirectional_controls_are_named_not_obeyed() -> None:
    """Trojan-source text (an override that makes code read one way and run another) is shown
    with each control named, in the report and in every view built on `visible`."""
    line = 'access = "user\u202e \u2066// admin\u2069 \u2066"'
    assert visible(line) == 'access = "userU+202E U+2066// adminU+2069 U+2066"'
    assert visible("a\u2028b\u200fc\u061c") == "aU+2028bU+200FcU+061C"
    payload = diff_texts("x = 1\n", line + "\n", path="a.py")
    page = render_report([diff_result(payload)], title="a.py")
    assert "\u202e" not in page and "\u2066" not in page and "U+202E" in page
