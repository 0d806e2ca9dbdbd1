"""The journal keeps what the model was told: every tool's journaled value is its live value.

A read is journaled by reference to the content it showed and cut again when read back, so a
tool that words its text around the window (`read_symbol`'s header) must come back the same,
byte for byte, as must every other tool, read option, footer and note.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from edittools import Session
from edittools.cli import main

CLASS = "class C:\n    def load(self):\n        x = 1\n        return x\n\n    def save(self):\n        pass\n"
LINE = st.one_of(
    st.sampled_from(["x = 1", "y = 2", "", "  pass", "é ünï ✓", "a" * 60, "tab\there"]),
    st.text(st.characters(blacklist_categories=["Cs", "Cc"]), max_size=30),
)
NEWLINE = st.sampled_from(["\n", "\r\n"])


@st.composite
def contents(draw: st.DrawFn) -> str:
    newline = draw(NEWLINE)
    lines = draw(st.lists(LINE, min_size=1, max_size=12))
    at = draw(st.integers(0, len(lines)))
    text = "\n".join([*lines[:at], CLASS.rstrip("\n"), *lines[at:]]) + "\n"
    return text.replace("\n", newline) if draw(st.booleans()) else text


def _anchor(value: str, line: int) -> str:
    found = re.search(rf"^{line}#\w+", value, re.M)
    return found.group(0) if found else f"{line}#zz"


def _patch(text: str) -> str:
    first = text.replace("\r\n", "\n").split("\n")[0]
    return f"--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-{first}\n+patched\n"


@st.composite
def calls(draw: st.DrawFn) -> list[tuple[str, dict[str, Any]]]:
    """A sequence of tool calls on `m.py`: reads of every kind, changes, records, errors."""
    reads = st.builds(
        lambda offset, limit, anchors: ("read", {"path": "m.py", "offset": offset,
                                                 "limit": limit, "anchors": anchors}),
        st.integers(1, 25), st.integers(1, 25), st.booleans(),
    )  # fmt: skip
    fixed = st.sampled_from(
        [
            ("read", {"path": "m.py"}),
            ("read", {"path": "m.py", "anchors": True}),
            ("read_symbol", {"path": "m.py", "symbol": "C.load"}),
            ("read_symbol", {"path": "m.py", "symbol": "C"}),
            ("read_symbol", {"path": "m.py", "symbol": "nope"}),
            ("symbols", {"path": "m.py"}),
            ("edit", {"path": "m.py", "old_string": "x = 1", "new_string": "x = 3"}),
            ("edit", {"path": "m.py", "old_string": "zzz", "new_string": "y"}),
            ("multi_edit", {"path": "m.py", "edits": [
                {"old_string": "return x", "new_string": "return x + 1"},
                {"old_string": "pass", "new_string": "return None"}]}),
            ("insert", {"path": "m.py", "line": 1, "text": "# top"}),
            ("edit_symbol", {"path": "m.py", "symbol": "C.save", "new_text": "def save(self):\n    return 2\n"}),
            ("edit_symbol", {"path": "m.py", "symbol": "C.load", "new_text": "return 5", "where": "body"}),
            ("edit_lines", {"path": "m.py", "start": "@3", "end": "@4", "new_text": "z = 9"}),
            ("apply_patch", {"patch": "@patch"}),
            ("write", {"path": "n.py", "content": "new\n"}),
            ("undo", {"path": "m.py"}),
            ("changes", {}),
            ("rewind", {"checkpoint": 0}),
            ("reject", {"path": "m.py", "hunk": 0}),
            ("accept", {"path": "m.py"}),
            ("read", {"path": "missing.py"}),
        ]
    )  # fmt: skip
    return draw(st.lists(st.one_of(reads, fixed), min_size=1, max_size=8))


def _journal_export(root: Path, state: Path) -> list[dict[str, Any]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["log", "--jsonl", "--root", str(root), "--state-dir", str(state)]) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    text=contents(),
    sequence=calls(),
    line_chars=st.sampled_from([2000, 12]),
    streamed=st.booleans(),
)
def test_every_journaled_value_is_the_live_value(
    tmp_path_factory: Any, text: str, sequence: list[tuple[str, dict[str, Any]]],
    line_chars: int, streamed: bool,
) -> None:  # fmt: skip
    root = tmp_path_factory.mktemp("root")
    state = tmp_path_factory.mktemp("state")
    (root / "m.py").write_bytes(text.encode())
    # A small cap streams the reads (their footers carry a note); a small line cap cuts lines.
    cap = 64 if streamed else 1 << 20
    live = []
    with Session(root, state_dir=state, read_line_chars=line_chars, max_file_bytes=cap) as s:
        last_read = ""
        for name, arguments in sequence:
            if name == "edit_lines":
                start, end = (_anchor(last_read, int(a[1:])) for a in ("@3", "@4"))
                arguments = {**arguments, "start": start, "end": end}
            if name == "apply_patch":
                arguments = {"patch": _patch((root / "m.py").read_bytes().decode())}
            result = s.call(name, arguments)
            if name == "read":
                last_read = result.value
            live.append(result.value)
            assert s.journal()[-1].value == result.value, (name, arguments)
        assert [e.value for e in s.journal()] == live
    assert [e["value"] for e in _journal_export(root, state)] == live
