"""Word-level highlights in the views: reverse video in the terminal, <mark> in the HTML report."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from render_pages import elements
from render_samples import diff_result
from rich.console import Console

from edittools.artifacts import ChangedSpan, DiffPayload, DiffStats, Hunk
from edittools.diff import diff_texts, line_diff
from edittools.render import render_report, render_result, write_line_diff
from edittools.render._sanitize import visible

OLD = "total = price * count\nprint(total)\n"
NEW = "total = price * amount\nprint(total)\n"


def _marks(page: str, table: str) -> list[tuple[str, str]]:
    """(row or cell class, marked text) of each <mark> inside the tables of class `table`."""
    found = []
    inside = ""
    cls = ""
    for element in elements(page):
        if element.tag == "table":
            inside = "unified" if "unified" in element.classes else "split"
        if element.tag in ("tr", "td") and element.classes & {"add", "del"}:
            cls = next(iter(element.classes & {"add", "del"}))
        if element.tag == "mark" and inside == table:
            found.append((cls, element.text))
    return found


def test_html_marks_the_changed_words_in_unified_and_split_views() -> None:
    page = render_report([diff_result(diff_texts(OLD, NEW, path="a.py"))], title="t")
    assert _marks(page, "unified") == [("del", "count"), ("add", "amount")]
    assert _marks(page, "split") == [("del", "count"), ("add", "amount")]


def test_html_marks_survive_syntax_colouring_across_tokens() -> None:
    old, new = 'x = f("a b")\n', 'x = g("a c")\n'
    page = render_report([diff_result(diff_texts(old, new, path="a.py"))], title="t")
    assert [text for _, text in _marks(page, "unified")] == ["f", "b", "g", "c"]


HOSTILE_WORDS = st.sampled_from(["<script>", "&amp;", '"', "'", "<", "x", " ", "\x1b[2J", "\x85"])


@settings(max_examples=60, deadline=None)
@given(st.lists(HOSTILE_WORDS, min_size=1, max_size=6), st.lists(HOSTILE_WORDS, max_size=6))
def test_hostile_text_in_marked_words_stays_text(old: list[str], new: list[str]) -> None:
    before, after = "keep " + "".join(old) + "\n", "keep " + "".join(new) + "\n"
    page = render_report([diff_result(diff_texts(before, after, path="a.html"))], title="t")
    assert {e.tag for e in elements(page)} <= {
        "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "p", "span",
        "ol", "li", "a", "div", "button", "main", "article", "table", "tr", "td", "script",
        "mark",
    }  # fmt: skip
    assert page.count("<script>") == 1  # the report's own
    lines = (visible(before), visible(after))
    assert all(any(e.text in line for line in lines) for e in elements(page) if e.tag == "mark")


def test_marks_move_with_controls_made_visible() -> None:
    # A C1 control shows as four characters (\x85): the mark after it moves with it.
    payload = diff_texts("\x85 old\n", "\x85 new\n", path="a.txt")
    page = render_report([diff_result(payload)], title="t")
    assert [text for _, text in _marks(page, "unified")] == ["old", "new"]


def test_spans_from_a_payload_are_untrusted() -> None:
    hunk = Hunk(
        old_start=1,
        old_lines=1,
        new_start=1,
        new_lines=1,
        lines=[" same"],
        spans=[ChangedSpan(line=0, start=0, end=4), ChangedSpan(line=9, start=0, end=1)],
    )
    payload = DiffPayload(path="a", hunks=[hunk], stats=DiffStats(added=0, removed=0))
    page = render_report([diff_result(payload)], title="t")
    assert "<mark>" not in page  # a context line is never marked; a missing line is ignored


def _rich(payload: DiffPayload) -> str:
    console = Console(
        file=io.StringIO(), force_terminal=True, color_system="standard", width=100, soft_wrap=True
    )
    render_result(diff_result(payload), console)
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_terminal_views_show_changed_words_in_reverse_video() -> None:
    out = _rich(diff_texts(OLD, NEW, path="a.py"))
    assert "\x1b[7;31mcount\x1b[0m" in out and "\x1b[7;32mamount\x1b[0m" in out
    plain = io.StringIO()
    write_line_diff(line_diff(OLD.encode(), NEW.encode()), plain, path="a.py", colour=True)
    assert "\x1b[7;31mcount\x1b[0m" in plain.getvalue()
    assert "\x1b[7;32mamount\x1b[0m" in plain.getvalue()
    bare = io.StringIO()
    write_line_diff(line_diff(OLD.encode(), NEW.encode()), bare, path="a.py", colour=False)
    assert "\x1b" not in bare.getvalue() and "-total = price * count\n" in bare.getvalue()


def test_a_payload_without_hunks_gets_its_highlights_from_its_unified_text() -> None:
    unified = "@@ -1 +1 @@ def f():\n-a = count\n+a = amount\n"
    payload = DiffPayload(path="a", unified=unified, stats=DiffStats(added=1, removed=1))
    assert "\x1b[7;32mamount\x1b[0m" in _rich(payload)
    page = render_report([diff_result(payload)], title="t")
    assert [text for _, text in _marks(page, "unified")] == ["count", "amount"]
    assert "@@ -1 +1 @@ def f():" in page  # the heading read back from the text
