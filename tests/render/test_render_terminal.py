"""The terminal views: headers, colours, escaping of untrusted text, stats."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
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
from rich.console import Console

from edittools.artifacts import (
    DiffPayload,
    DiffStats,
    ImageArtifact,
    ImagePayload,
    StreamEvent,
    TableArtifact,
    TablePayload,
    TextArtifact,
    TextPayload,
    ToolResult,
)
from edittools.artifacts._models import Attachment, Image
from edittools.render import diff_labels, render_result, render_stat, stat_summary

GREEN, RED, CYAN = "\x1b[32m", "\x1b[31m", "\x1b[36m"
ROOT = Path(__file__).resolve().parents[2]


def plain(thing: ToolResult | StreamEvent, width: int = 100) -> str:
    console = Console(file=io.StringIO(), width=width)
    render_result(thing, console)
    return console.file.getvalue()  # type: ignore[attr-defined]


def coloured(thing: ToolResult | StreamEvent) -> str:
    console = Console(file=io.StringIO(), width=100, force_terminal=True, color_system="standard")
    render_result(thing, console)
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_diff_header_shows_path_and_counts() -> None:
    first = plain(diff_result(MODIFY)).splitlines()[0]
    assert first == "pkg/mod.py  +1 -1"


def test_snippet_diff_is_labelled_with_its_tolerance_and_non_minimal() -> None:
    first = plain(diff_result(SNIPPET)).splitlines()[0]
    assert first == "notes.txt  +2 -1  snippet  match: trailing_whitespace  non-minimal"


def test_rename_and_binary_labels() -> None:
    assert plain(diff_result(RENAME)).splitlines()[0] == (
        "new/name.txt  +0 -0  rename old/name.txt -> new/name.txt"
    )
    assert plain(diff_result(BINARY)).splitlines()[0] == "logo.png  new file  binary"
    assert diff_labels(MODIFY) == []


def test_unified_lines_take_their_colours() -> None:
    out = coloured(diff_result(MODIFY))
    assert f"{GREEN}+def main():" in out
    assert f"{CYAN}@@ -1,4 +1,4 @@" in out
    # A removed line that reads like a file header is still a removed line.
    assert f"{RED}--- not a header" in out
    assert "\x1b[1;2m--- a/pkg/mod.py" in out


def test_snippet_hunks_without_unified_text_are_shown_from_hunks() -> None:
    lines = plain(diff_result(SNIPPET)).splitlines()
    assert lines[1:] == ["@@ @@", "-a", "+b", "+c"]


def test_piped_output_has_no_escape_codes() -> None:
    assert "\x1b" not in plain(diff_result(MODIFY))


def test_no_color_turns_colours_off_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    console = Console(file=io.StringIO(), width=100, force_terminal=True)
    render_result(diff_result(MODIFY), console)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert GREEN not in out and RED not in out and CYAN not in out
    assert "+def main():" in out


@pytest.mark.integration
def test_output_of_a_real_pipe_has_no_escape_codes() -> None:
    program = (
        "from rich.console import Console\n"
        "from edittools.artifacts import DiffArtifact, DiffPayload, DiffStats, ToolResult\n"
        "from edittools.render import render_result\n"
        "p = DiffPayload(path='a.py', unified='@@ -1 +1 @@\\n-a\\n+b\\n',"
        " stats=DiffStats(added=1, removed=1))\n"
        "render_result(ToolResult(value='ok', artifact=DiffArtifact(payload=p)), Console())\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.splitlines() == ["a.py  +1 -1", "@@ -1 +1 @@", "-a", "+b"]
    assert "\x1b" not in done.stdout


HOSTILE = "[bold red]boom[/] [link=javascript:alert(1)]x[/link] \x1b[2J\x1b]8;;evil\x07"


def test_markup_in_input_is_printed_verbatim() -> None:
    payload = DiffPayload(
        path=HOSTILE, unified="@@ -1 +1 @@\n-[red]x\n+[/]y\n", stats=DiffStats(added=1, removed=1)
    )
    out = coloured(diff_result(payload))
    assert "[bold red]boom[/] [link=javascript:alert(1)]x[/link]" in out
    # The changed words are styled apart (reverse video); the text between the codes is verbatim.
    plain = re.sub("\x1b\\[[0-9;]*m", "", out)
    assert "-[red]x" in plain and "+[/]y" in plain
    assert "\x1b]8" not in out  # no hyperlink was opened


def test_control_characters_in_input_are_shown_not_sent() -> None:
    out = plain(error_result("bad\x1b[31m", HOSTILE))
    assert "\x1b" not in out and "\x07" not in out
    assert "error bad␛[31m: " in out
    assert "␛[2J" in out


def test_lone_surrogates_do_not_break_output() -> None:
    out = plain(ToolResult(value="a\ud800b"))
    assert out == "a\ufffdb\n"


def test_error_is_red_with_code_and_message() -> None:
    out = coloured(error_result("no_match", "Nothing matched. Read the file again."))
    assert "no_match" in out and "Nothing matched. Read the file again." in out
    assert out.startswith("\x1b[1;31merror ")
    assert (
        plain(error_result("no_match", "Nothing matched.")) == "error no_match: Nothing matched.\n"
    )


def test_code_has_line_numbers_from_its_start_line_and_colours() -> None:
    result = code_result(
        "def f():\n    return 'x'\n",
        lang="python",
        filename="a.py",
        start_line=41,
        end_line=42,
        total_lines=90,
    )
    lines = plain(result).splitlines()
    assert lines[0] == "a.py  lines 41-42 of 90"
    assert lines[1].split() == ["41", "def", "f():"]
    assert lines[2].split() == ["42", "return", "'x'"]
    out = coloured(result)
    assert "def" in out and out.count("\x1b[") > 6  # keywords and strings are coloured


def test_changeset_has_a_section_per_file() -> None:
    out = plain(changeset_result(MODIFY, SNIPPET))
    lines = out.splitlines()
    assert lines[0] == "changeset: 2 files  +3 -2"
    assert "pkg/mod.py  +1 -1" in lines
    assert "notes.txt  +2 -1  snippet  match: trailing_whitespace  non-minimal" in lines


def test_image_is_one_line() -> None:
    payload = ImagePayload(
        path="img/logo.png",
        images=[
            Image(mime="image/png", attachment=Attachment(id="b1", bytes=2048, width=64, height=32))
        ],
    )
    out = plain(ToolResult(value="image", artifact=ImageArtifact(payload=payload)))
    assert out == "image img/logo.png: image/png 64x32 2048 bytes\n"


def test_stream_event_names_its_tool() -> None:
    event = StreamEvent(id="call_1", name="Edit", value="ok", artifact=diff_result(MODIFY).artifact)
    lines = plain(event).splitlines()
    assert lines[0] == "● Edit  call_1"
    assert lines[1] == "pkg/mod.py  +1 -1"


def test_text_and_plain_values() -> None:
    text = ToolResult(value="v", artifact=TextArtifact(payload=TextPayload(text="hello [b]x[/b]")))
    assert plain(text) == "hello [b]x[/b]\n"
    assert plain(ToolResult(value="just text")) == "just text\n"


def test_future_artifact_falls_back_to_value() -> None:
    result = ToolResult.model_validate(
        {
            "value": "the portable text",
            "artifact": {
                "schema": "edittools.tool-artifact",
                "version": 2,
                "kind": "hologram",
                "status": "success",
                "payload": {"x": 1},
            },
        }
    )
    assert plain(result) == "the portable text\n"


def stat_lines(payloads: list[DiffPayload], width: int = 80) -> list[str]:
    console = Console(file=io.StringIO(), width=width)
    render_stat(payloads, console)
    return console.file.getvalue().splitlines()  # type: ignore[attr-defined]


def test_stat_lists_files_like_git() -> None:
    lines = stat_lines([MODIFY, SNIPPET, BINARY, RENAME])
    assert lines == [
        " pkg/mod.py                   |   2 +-",
        " notes.txt                    |   3 ++-",
        " logo.png                     | Bin",
        " old/name.txt => new/name.txt |   0",
        " 4 files changed, 3 insertions(+), 2 deletions(-)",
    ]


def test_stat_bars_scale_to_the_width() -> None:
    big = DiffPayload(path="big.txt", stats=DiffStats(added=900, removed=100))
    small = DiffPayload(path="s.txt", stats=DiffStats(added=0, removed=1))
    lines = stat_lines([big, small], width=60)
    assert all(len(line) <= 60 for line in lines)
    bar = lines[0].split("| 1000 ")[1]
    assert bar.count("+") > 6 * bar.count("-") > 0
    assert lines[1].endswith("-")


def test_stat_summary_wording() -> None:
    one = DiffPayload(path="a", stats=DiffStats(added=1, removed=0))
    assert stat_summary([one]) == "1 file changed, 1 insertion(+)"
    assert stat_summary([]) == "0 files changed, 0 insertions(+), 0 deletions(-)"


def test_a_table_result_renders_its_headers_and_cells() -> None:
    """Regression: headers given as positional Table arguments crashed rich on non-strings."""
    result = ToolResult(
        value="2 rows",
        artifact=TableArtifact(payload=TablePayload(columns=["name", "size"], rows=[["a.py", 3]])),
    )
    console = Console(record=True, width=60, file=io.StringIO())
    render_result(result, console)
    text = console.export_text()
    assert "name" in text and "size" in text and "a.py" in text and "3" in text
