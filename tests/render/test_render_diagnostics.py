"""Diagnostics on diffs: the terminal and HTML views show each under the hunk it falls in."""

from __future__ import annotations

import io
from pathlib import Path

from render_pages import elements, with_class
from rich.console import Console

from edittools import Session, ToolResult
from edittools.artifacts import Diagnostic, DiffPayload
from edittools.artifacts.builders import diff_result
from edittools.render import render_report, render_result

# Two functions far apart, so that editing both gives two hunks.
SOURCE = "def first():\n    return 1\n" + "\n" * 12 + "def second():\n    return 2\n"


def two_hunk_result(tmp_path: Path) -> ToolResult:
    """A real change whose second hunk breaks the syntax."""
    (tmp_path / "a.py").write_text(SOURCE)
    with Session(tmp_path, require_read=False) as s:
        result = s.multi_edit(
            "a.py",
            [
                {"old_string": "return 1", "new_string": "return 10"},
                {"old_string": "def second():", "new_string": "def second()"},
            ],
        )
    assert not result.is_error
    return result


def plain(result: ToolResult) -> list[str]:
    console = Console(file=io.StringIO(), width=120)
    render_result(result, console)
    return console.file.getvalue().splitlines()  # type: ignore[attr-defined]


def test_terminal_shows_the_diagnostic_after_its_hunk(tmp_path: Path) -> None:
    lines = plain(two_hunk_result(tmp_path))
    hunks = [i for i, line in enumerate(lines) if line.startswith("@@")]
    marks = [i for i, line in enumerate(lines) if line.startswith("! syntax error")]
    assert len(hunks) == 2 and len(marks) == 1
    assert marks[0] > hunks[1] and "line 15, column 1 to line 16" in lines[marks[0]]
    assert "+def second()" in lines[hunks[1] : marks[0]]


def test_html_puts_the_diagnostic_row_in_its_hunk_in_both_views(tmp_path: Path) -> None:
    page = render_report([two_hunk_result(tmp_path)], title="t")
    rows = with_class(page, "diagnostic")
    assert len(rows) == 2  # unified and split
    unified = with_class(page, "lines", "unified")[0].text
    assert unified.index("def second()") < unified.index("syntax error, line 15, column 1")
    second_hunk = unified.index("@@", unified.index("@@") + 2)
    assert second_hunk < unified.index("syntax error")
    assert len(with_class(page, "diag-error")) == 2


def payload_saying(message: str) -> DiffPayload:
    return DiffPayload(
        path="a.py",
        diagnostics=[
            Diagnostic(line=None, message=message, severity="info", source="syntax"),
            Diagnostic(line=99, column=1, end_line=99, message=message, source="<b>x</b>"),
        ],
        unified="--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-a\n+b\n",
    )


def test_untrusted_diagnostics_stay_text() -> None:
    result = diff_result("changed", payload_saying("<script>alert(1)</script> \x1b[31m"))
    page = render_report([result], title="t")
    benign = render_report([diff_result("changed", payload_saying("fine"))], title="t")
    assert [e.tag for e in elements(page)] == [e.tag for e in elements(benign)]
    notes = with_class(page, "diag-note") + with_class(page, "diag-error")
    assert len(notes) == 2  # a whole-file note and one that meets no hunk, both above the diff
    assert all("<script>alert(1)</script>" in note.text for note in notes)
    text = "\n".join(plain(result))
    assert "\x1b[31m" not in text and "<script>alert(1)</script>" in text
