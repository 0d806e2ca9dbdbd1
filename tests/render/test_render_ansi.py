"""The plain ANSI view of a `LineDiff` prints what the rich `DiffView` prints for the same diff."""

from __future__ import annotations

import io

import pytest
from diff_corpus import Case, corpus
from rich.console import Console

from edittools.artifacts.builders import diff_result
from edittools.diff import diff_texts, line_diff
from edittools.render import render_result, wants_colour, write_line_diff

CHANGED = [
    case
    for case in corpus()
    if case.old != case.new and case.old is not None and case.new is not None
] + [Case("binary", b"a\0b\n", b"a\0c\n"), Case("escape", b"\x1b[2Jx\n", b"\x1b[2Jy\r\n")]


def _rich(old: bytes, new: bytes, *, colour: bool) -> str:
    payload = diff_texts(old, new, path="pkg/f.py", include_texts=False)
    console = Console(
        file=io.StringIO(),
        highlight=False,
        soft_wrap=True,
        force_terminal=colour,
        color_system="standard" if colour else None,
        width=100,
    )
    render_result(diff_result("", payload), console)
    return console.file.getvalue()  # type: ignore[attr-defined]


def _plain(old: bytes, new: bytes, *, colour: bool) -> str:
    out = io.StringIO()
    write_line_diff(line_diff(old, new, path="pkg/f.py"), out, path="pkg/f.py", colour=colour)
    return out.getvalue()


@pytest.mark.parametrize("colour", [False, True])
@pytest.mark.parametrize("case", CHANGED, ids=lambda case: case.name)
def test_the_plain_view_prints_what_the_rich_view_prints(case: Case, colour: bool) -> None:
    assert case.old is not None and case.new is not None
    assert _plain(case.old, case.new, colour=colour) == _rich(case.old, case.new, colour=colour)


def test_control_characters_are_shown_not_sent() -> None:
    out = _plain(b"ok\n", b"\x1b]0;title\x07\n", colour=True)
    assert "\x1b]" not in out and "\x07" not in out
    assert "+␛]0;title␇" in out


def test_tabs_stay_tabs_so_the_text_still_applies() -> None:
    assert "\n-\tx\n+\ty\n" in _plain(b"\tx\n", b"\ty\n", colour=False)


def test_each_side_can_carry_its_own_label() -> None:
    out = io.StringIO()
    write_line_diff(
        line_diff(b"a\n", b"b\n"), out, path="new.txt", old_path="old.txt", colour=False
    )
    lines = out.getvalue().splitlines()
    assert lines[:4] == [
        "new.txt  +1 -1",
        "diff --git a/old.txt b/new.txt",
        "--- a/old.txt",
        "+++ b/new.txt",
    ]


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("env", "tty", "expected"),
    [
        ({}, True, True),
        ({}, False, False),
        ({"NO_COLOR": "1"}, True, False),
        ({"FORCE_COLOR": "1"}, False, True),
        ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, True, False),
        ({"TERM": "dumb"}, True, False),
    ],
)
def test_colour_follows_the_usual_conventions(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], tty: bool, expected: bool
) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert wants_colour(_Stream(tty)) is expected
