"""An old_string found at two overlapping places is found twice: never edited at the first one.

Every tier and path counts overlapping occurrences as separate matches. Without `replace_all`
two of them are an `ambiguous_match`; with it they cannot all be replaced, and that is refused
the same way rather than replacing only the places that do not overlap.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from tool_helpers import check_error, unchanged

from edittools import Session, ToolResult
from edittools.change import _commit as commit_module
from edittools.change import exact_byte_spans
from edittools.tools import edit as edit_module

OVERLAPPING = "x\na\nb\na\nb\na\ny\n"  # "a\nb\na\n" starts at lines 2 and 4
OLD = "a\nb\na\n"


@pytest.fixture
def session_options() -> dict[str, Any]:
    return {"require_read": False}


def put(session: Session, name: str, data: bytes) -> None:
    path = session.sandbox.root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def refused(result: ToolResult, lines: list[int], match: str | None = "exact") -> str:
    """Assert `result` is the ambiguity of overlapping places starting at `lines` (and found by
    the tier `match`, unless None)."""
    value = check_error(result, "ambiguous_match", "overlap")
    detail = result.artifact.payload.detail  # type: ignore[union-attr]
    assert detail["lines"] == lines and detail["overlapping"] is True
    if match is not None:
        assert detail["count"] == len(lines) and detail["match"] == match
    return value


def occurrences(text: str, old: str) -> list[int]:
    """Every start of `old` in `text`, overlapping ones too."""
    starts = []
    at = text.find(old)
    while at >= 0:
        starts.append(at)
        at = text.find(old, at + 1)
    return starts


# (file text, old_string, the tier that finds it, the lines its places start at)
TIERS = {
    "exact": (OVERLAPPING, OLD, "exact", [2, 4]),
    "exact_in_one_line": ("abababa\n", "aba", "exact", [1, 1, 1]),
    "newlines": (OVERLAPPING.replace("\n", "\r\n"), OLD, "newlines", [2, 4]),
    "trailing_whitespace": ("x\na \nb\na \nb\na \ny\n", OLD, "trailing_whitespace", [2, 4]),
    "indentation": (
        "x\n    a\n    b\n    a\n    b\n    a\ny\n",
        OLD,
        "indentation",
        [2, 4],
    ),
    "blank_lines": ("x\na\n\nb\n\na\n\nb\n\na\ny\n", OLD, "blank_lines", [2, 6]),
}


@pytest.mark.parametrize("name", sorted(TIERS))
@pytest.mark.parametrize("replace_all", [False, True])
def test_overlapping_places_are_refused_at_every_tier(
    session: Session, name: str, replace_all: bool
) -> None:
    text, old, tier, lines = TIERS[name]
    put(session, "f.txt", text.encode())
    with unchanged(session.sandbox.root):
        result = session.edit("f.txt", old, "NEW\n", replace_all=replace_all)
    value = refused(result, lines, tier)
    assert f"starting at line{'s' if len(set(lines)) > 1 else ''} " in value
    if replace_all:
        assert "replace_all" in value


def test_the_message_keeps_the_ambiguity_shape(session: Session) -> None:
    put(session, "f.txt", OVERLAPPING.encode())
    result = session.edit("f.txt", OLD, "NEW\n")
    value = refused(result, [2, 4])
    assert value.startswith("Error (ambiguous_match): old_string matches 2 places, starting at "
                            "lines 2, 4")  # fmt: skip
    assert "Add surrounding lines to old_string so it matches one place" in value
    assert "set replace_all to change every match" not in value  # it would not help


def test_adjacent_places_that_do_not_overlap_are_still_replaced(session: Session) -> None:
    put(session, "f.txt", b"a\nb\na\nb\nc\n")
    result = session.edit("f.txt", "a\nb\n", "z\n", replace_all=True)
    assert not result.is_error, result.value
    assert (session.sandbox.root / "f.txt").read_bytes() == b"z\nz\nc\n"


def test_multi_edit_refuses_an_edit_whose_places_overlap(session: Session) -> None:
    put(session, "f.txt", OVERLAPPING.encode())
    edits = [
        {"old_string": "x\n", "new_string": "w\n"},
        {"old_string": OLD, "new_string": "NEW\n"},
    ]
    with unchanged(session.sandbox.root):
        result = session.multi_edit("f.txt", edits)
    value = refused(result, [2, 4])
    assert "Edit 2 of 2 failed" in value
    assert result.artifact.payload.detail["edit_index"] == 1  # type: ignore[union-attr]


def test_multi_edit_with_replace_all_refuses_overlapping_places(session: Session) -> None:
    put(session, "f.txt", OVERLAPPING.encode())
    edits = [{"old_string": OLD, "new_string": "NEW\n", "replace_all": True}]
    with unchanged(session.sandbox.root):
        result = session.multi_edit("f.txt", edits)
    refused(result, [2, 4])


# The bytes path: a large file's exact match found on its bytes.

BIG = "".join(f"line {k}\n" for k in range(200)) + OVERLAPPING


@pytest.mark.parametrize("replace_all", [False, True])
def test_the_bytes_path_sees_overlapping_places(replace_all: bool) -> None:
    assert exact_byte_spans(BIG.encode(), OLD, "NEW\n", replace_all=replace_all) is None


def test_the_bytes_path_keeps_non_overlapping_places() -> None:
    data = b"a\nb\na\nb\nc\n"
    spans = exact_byte_spans(data, "a\nb\n", "z\n", replace_all=True)
    assert spans == [(0, 4, b"z\n"), (4, 8, b"z\n")]


@pytest.mark.parametrize("replace_all", [False, True])
def test_a_large_file_is_refused_through_the_bytes_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, replace_all: bool
) -> None:
    monkeypatch.setattr(commit_module, "BYTES_PATH_MIN", 0)
    asked = []
    real = edit_module.exact_byte_spans

    def spy(*args: Any, **kwargs: Any) -> Any:
        asked.append(True)
        return real(*args, **kwargs)

    monkeypatch.setattr(edit_module, "exact_byte_spans", spy)
    (tmp_path / "big.txt").write_bytes(BIG.encode())
    with Session(tmp_path, require_read=False, syntax_max_bytes=0) as session, unchanged(tmp_path):
        result = session.edit("big.txt", OLD, "NEW\n", replace_all=replace_all)
    assert asked == [True]
    refused(result, [202, 204])


# The streamed path: a file over the size cap, scanned in chunks.

CAP = 4096
CHUNK = 64


def streamed(root: Path) -> Session:
    return Session(root, require_read=False, max_file_bytes=CAP, scan_chunk_bytes=CHUNK)


def large(at: int) -> bytes:
    """A file over the cap with the overlapping places of OLD starting at byte `at` or so."""
    head = b"".join(f"row {k:05d}\n".encode() for k in range(at // 10))
    tail = b"".join(f"row {k:05d}\n".encode() for k in range(CAP // 10 + 10))
    return head + OVERLAPPING.encode() + tail


# At 5 * CHUNK - 10 the first place ends past where the pass settles that chunk and the second,
# which overlaps it, is found in the next one.
@pytest.mark.parametrize("at", [0, CHUNK - 10, 5 * CHUNK - 10, 7 * CHUNK - 30, 20 * CHUNK])
@pytest.mark.parametrize("replace_all", [False, True])
def test_a_file_over_the_cap_is_refused_by_the_streamed_pass(
    tmp_path: Path, at: int, replace_all: bool
) -> None:
    data = large(at)
    assert len(data) > CAP
    (tmp_path / "big.txt").write_bytes(data)
    first = at // 10 + 2
    with streamed(tmp_path) as session, unchanged(tmp_path):
        result = session.edit("big.txt", OLD, "NEW\n", replace_all=replace_all)
    refused(result, [first, first + 2])


def test_the_streamed_pass_still_replaces_places_that_do_not_overlap(tmp_path: Path) -> None:
    data = large(CHUNK).replace(OVERLAPPING.encode(), b"x\na\nb\na\nb\nc\n")
    (tmp_path / "big.txt").write_bytes(data)
    with streamed(tmp_path) as session:
        result = session.edit("big.txt", "a\nb\n", "z\n", replace_all=True)
    assert not result.is_error, result.value
    assert (tmp_path / "big.txt").read_bytes() == data.replace(b"a\nb\n", b"z\n")


@pytest.mark.parametrize("replace_all", [False, True])
def test_streamed_multi_edit_refuses_overlapping_places(tmp_path: Path, replace_all: bool) -> None:
    data = large(3 * CHUNK)
    (tmp_path / "big.txt").write_bytes(data)
    first = 3 * CHUNK // 10 + 2
    edits = [
        {"old_string": f"row {CAP // 10 + 9:05d}\n", "new_string": "row last\n"},
        {"old_string": OLD, "new_string": "NEW\n", "replace_all": replace_all},
    ]
    with streamed(tmp_path) as session, unchanged(tmp_path):
        result = session.multi_edit("big.txt", edits)
    value = refused(result, [first, first + 2], None)
    assert "Edit 2 of 2 failed" in value


# Properties: the edit applies only where old_string occurs once, overlaps counted.

_PIECES = st.lists(st.sampled_from(["a", "b", "ab", "ba", "c"]), min_size=1, max_size=12)
_OLD_LINES = st.lists(st.sampled_from(["a", "b", "ab"]), min_size=1, max_size=4)
_names = itertools.count()


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lines=_PIECES, old_lines=_OLD_LINES, ends_nl=st.booleans())
@example(lines=["x", "a", "b", "a", "b", "a", "y"], old_lines=["a", "b", "a"], ends_nl=True)
def test_edit_applies_only_to_a_unique_place_counting_overlaps(
    session: Session, lines: list[str], old_lines: list[str], ends_nl: bool
) -> None:
    text = "".join(f"{line}\n" for line in lines)
    old = "\n".join(old_lines) + ("\n" if ends_nl else "")
    name = f"p{next(_names)}.txt"
    put(session, name, text.encode())
    path = session.sandbox.root / name
    result = session.edit(name, old, "NEW\n")
    count = len(occurrences(text, old))
    if count == 1:
        assert not result.is_error, result.value
        assert path.read_bytes() == text.replace(old, "NEW\n", 1).encode()
    else:
        assert result.is_error
        code = "ambiguous_match" if count else "no_match"
        assert result.artifact.payload.code == code  # type: ignore[union-attr]
        assert path.read_bytes() == text.encode()


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lines=_PIECES, old_lines=_OLD_LINES, ends_nl=st.booleans())
@example(lines=["x", "a", "b", "a", "b", "a", "y"], old_lines=["a", "b", "a"], ends_nl=True)
def test_replace_all_applies_only_where_no_places_overlap(
    session: Session, lines: list[str], old_lines: list[str], ends_nl: bool
) -> None:
    text = "".join(f"{line}\n" for line in lines)
    old = "\n".join(old_lines) + ("\n" if ends_nl else "")
    name = f"r{next(_names)}.txt"
    put(session, name, text.encode())
    path = session.sandbox.root / name
    result = session.edit(name, old, "NEW\n", replace_all=True)
    starts = occurrences(text, old)
    overlap = any(b < a + len(old) for a, b in itertools.pairwise(starts))
    if starts and not overlap:
        assert not result.is_error, result.value
        assert path.read_bytes() == text.replace(old, "NEW\n").encode()
    else:
        assert result.is_error
        code = "ambiguous_match" if starts else "no_match"
        assert result.artifact.payload.code == code  # type: ignore[union-attr]
        assert path.read_bytes() == text.encode()
