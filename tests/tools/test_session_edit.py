"""The edit tool through the session: each tolerance tier, ambiguity, creation, the value and the diff."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from edittools import Session, ToolResult


@pytest.fixture
def session_options() -> dict[str, Any]:
    return {"require_read": False}


def put(session: Session, name: str, data: bytes) -> Path:
    path = session.sandbox.root / name
    path.write_bytes(data)
    return path


def match_of(result: ToolResult) -> str:
    assert not result.is_error, result.value
    assert result.artifact is not None and result.artifact.kind == "diff"
    return result.artifact.payload.match  # type: ignore[union-attr,return-value]


# (file bytes, old_string, new_string, expected bytes, tier)
TIERS = {
    "exact": (b"a = 1\nb = 2\n", "b = 2", "b = 3", b"a = 1\nb = 3\n", "exact"),
    "newlines": (b"a = 1\r\nb = 2\r\nc\r\n", "a = 1\nb = 2", "a = 1\nb = 3",
                 b"a = 1\r\nb = 3\r\nc\r\n", "newlines"),
    "trailing_whitespace": (b"def f():   \n    return 1 \n", "def f():\n    return 1\n",
                            "def f():\n    return 2\n", b"def f():   \n    return 2\n",
                            "trailing_whitespace"),
    "indentation": (b"class A:\n    def f(self):\n        return 1\n",
                    "def f(self):\n    return 1\n", "def f(self):\n    x = 1\n    return x\n",
                    b"class A:\n    def f(self):\n        x = 1\n        return x\n", "indentation"),
    "indentation_tabs": (b"if x:\n\tif y:\n\t\tgo()\n", "if y:\n\tgo()\n", "if y:\n\tstop()\n",
                         b"if x:\n\tif y:\n\t\tstop()\n", "indentation"),
    "unicode_punctuation": ("msg = \u201chello\u201d \u2014 it\u2019s\u00a0ok\n".encode(),
                            "msg = \"hello\" - it's ok", "msg = \"bye\"",
                            b"msg = \"bye\"\n", "unicode_punctuation"),
    "line_numbers": (b"alpha\nbeta\ngamma\n", "     2\tbeta\n     3\tgamma",
                     "     2\tBETA\n     3\tgamma", b"alpha\nBETA\ngamma\n", "line_numbers"),
}  # fmt: skip


@pytest.mark.parametrize("case", TIERS)
def test_each_tier_is_used_and_stated(session: Session, case: str) -> None:
    data, old, new, expected, tier = TIERS[case]
    path = put(session, "f.py", data)
    result = session.edit("f.py", old, new)
    assert match_of(result) == tier
    assert path.read_bytes() == expected
    stated = [line for line in result.value.splitlines() if line.startswith("Matched with")]
    if tier == "exact":
        assert stated == []
    else:
        assert stated == [f"Matched with tolerance: {tier.replace('_', ' ')}."]


def test_exact_wins_over_a_tolerant_match_elsewhere(session: Session) -> None:
    # Line 1 would match with trailing whitespace forgiven; line 2 matches exactly.
    path = put(session, "f.py", b"x = 1  \nx = 1\n")
    assert match_of(session.edit("f.py", "x = 1\n", "x = 2\n")) == "exact"
    assert path.read_bytes() == b"x = 1  \nx = 2\n"


@pytest.mark.parametrize(
    ("data", "old", "tier"),
    [
        (b"if a:\n    go()\nif b:\n        go()\n", "go()\n", "exact"),
        (b"  x = 1  \n\tx = 1\t\n", "x = 1\n", "indentation"),
        (b"a \nb\na\t\nb\n", "a\nb\n", "trailing_whitespace"),
        (
            "a = \u2018x\u2019\nb\na = \u2019x\u2018\nb\n".encode(),
            "a = 'x'\nb",
            "unicode_punctuation",
        ),
    ],
)
def test_a_tier_matching_twice_is_ambiguous(
    session: Session, data: bytes, old: str, tier: str
) -> None:
    path = put(session, "f.py", data)
    result = session.edit("f.py", old, "changed\n")
    assert result.is_error
    payload = result.artifact.payload  # type: ignore[union-attr]
    assert payload.code == "ambiguous_match"
    assert payload.detail["count"] == 2 and payload.detail["match"] == tier
    assert path.read_bytes() == data


def test_tolerance_off_leaves_only_exact_and_newlines(tmp_path: Path) -> None:
    (tmp_path / "f.py").write_bytes(b"def f():   \n    return 1 \n")
    (tmp_path / "g.py").write_bytes(b"a\r\nb\r\n")
    with Session(tmp_path, require_read=False, tolerant=False) as s:
        missed = s.edit("f.py", "def f():\n    return 1\n", "x\n")
        assert missed.artifact.payload.code == "no_match"  # type: ignore[union-attr]
        assert match_of(s.edit("g.py", "a\nb", "c\nd")) == "newlines"
    assert (tmp_path / "f.py").read_bytes() == b"def f():   \n    return 1 \n"
    assert (tmp_path / "g.py").read_bytes() == b"c\r\nd\r\n"


def test_no_match_shows_the_closest_region(session: Session) -> None:
    body = "".join(f"line {n}\n" for n in range(1, 30)) + "def compute(x):\n    return x * 2\n"
    path = put(session, "f.py", body.encode())
    result = session.edit("f.py", "def compute(y):\n    return y * 2\n", "pass\n")
    payload = result.artifact.payload  # type: ignore[union-attr]
    assert payload.code == "no_match"
    assert "30\tdef compute(x):" in result.value and "31\t    return x * 2" in result.value
    assert path.read_bytes() == body.encode()


def test_replace_all_changes_every_place(session: Session) -> None:
    path = put(session, "f.py", b"x = 1\ny = x\nx = x + 1\n")
    result = session.edit("f.py", "x", "value", replace_all=True)
    assert not result.is_error
    assert path.read_bytes() == b"value = 1\ny = value\nvalue = value + 1\n"
    assert result.value.startswith("Replaced 4 occurrences in f.py (+3 -3).")


def test_value_states_the_change_and_shows_numbered_lines(session: Session) -> None:
    put(session, "f.py", "".join(f"l{n}\n" for n in range(1, 21)).encode())
    result = session.edit("f.py", "l10\n", "ten\nTEN\n")
    first, *rest = result.value.splitlines()
    assert first == "Edited f.py (+2 -1)."
    # Three lines of context either side, numbered as in the new file.
    assert rest == [f"{n:>6}\t{t}" for n, t in
                    [(7, "l7"), (8, "l8"), (9, "l9"), (10, "ten"), (11, "TEN"), (12, "l11"),
                     (13, "l12"), (14, "l13")]]  # fmt: skip


def test_diff_artifact_is_a_full_file_modify(session: Session) -> None:
    put(session, "f.py", b"a\nb\nc\n")
    artifact = session.edit("f.py", "b", "B").artifact
    assert artifact is not None and artifact.kind == "diff"
    assert artifact.title == "f.py +1 -1"
    payload = artifact.payload
    assert (payload.path, payload.operation, payload.granularity) == ("f.py", "modify", "file")
    assert (payload.old, payload.new) == ("a\nb\nc\n", "a\nB\nc\n")
    assert payload.hunks[0].lines == [" a", "-b", "+B", " c"]
    assert payload.unified.endswith("@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n")


def test_empty_old_string_creates_a_missing_file(session: Session) -> None:
    result = session.edit("pkg/new.py", "", "print('hi')\n")
    assert not result.is_error, result.value
    assert (session.sandbox.root / "pkg/new.py").read_bytes() == b"print('hi')\n"
    assert result.artifact.payload.operation == "create"  # type: ignore[union-attr]


def test_edit_after_own_edit_needs_no_new_read(tmp_path: Path) -> None:
    (tmp_path / "f.py").write_bytes(b"a\nb\n")
    with Session(tmp_path) as s:
        s.read("f.py")
        assert not s.edit("f.py", "a", "A").is_error
        assert not s.edit("f.py", "b", "B").is_error
    assert (tmp_path / "f.py").read_bytes() == b"A\nB\n"


def test_file_mode_is_kept(session: Session) -> None:
    path = put(session, "run.sh", b"#!/bin/sh\necho a\n")
    path.chmod(0o750)
    assert not session.edit("run.sh", "echo a", "echo b").is_error
    assert path.stat().st_mode & 0o777 == 0o750
