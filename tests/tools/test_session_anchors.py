"""Edits by anchor: read(anchors=True) tags lines, edit_lines takes two tags, on real files."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from edittools import Session
from edittools.tools._tags import TAG_CHARS, line_digest, tags

LINES = [f"line {n}: value = compute({n})\n" for n in range(1, 31)]
_SHOWN = re.compile(r"^(\d+)#([0-9a-f]+)\|(.*)$")


def anchors_of(result_value: str) -> dict[int, str]:
    """The anchor of each shown line, by number."""
    found = {}
    for line in result_value.split("\n"):
        if shown := _SHOWN.match(line):
            found[int(shown.group(1))] = f"{shown.group(1)}#{shown.group(2)}"
    return found


def test_a_read_with_anchors_tags_each_line(root: Path, session: Session) -> None:
    (root / "a.txt").write_text("".join(LINES))
    result = session.read("a.txt", anchors=True, offset=3, limit=2)
    first, second = result.value.split("\n")[:2]
    assert re.fullmatch(r"3#[0-9a-f]{3}\|line 3: value = compute\(3\)", first)
    assert second.startswith("4#") and second.endswith("|line 4: value = compute(4)")
    assert first.split("|")[0] == f"3#{line_digest(LINES[2].rstrip(chr(10)))[:TAG_CHARS]}"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="ab \t", max_size=6), min_size=1, max_size=400))
def test_tags_name_one_line_text_each(lines: list[str]) -> None:
    tagged = tags(lines)
    for text, tag in zip(lines, tagged, strict=True):
        assert line_digest(text).startswith(tag) and len(tag) >= TAG_CHARS
    by_text = dict(zip(lines, tagged, strict=True))
    distinct = list(by_text.items())
    for k, (text, tag) in enumerate(distinct):
        for other, other_tag in distinct[k + 1 :]:
            # Two texts never share a tag, nor does one's tag start the other's digest.
            assert not line_digest(other).startswith(tag), (text, other)
            assert not line_digest(text).startswith(other_tag), (text, other)


def test_edit_lines_replaces_the_range_between_two_anchors(root: Path, session: Session) -> None:
    (root / "a.txt").write_text("".join(LINES))
    anchors = anchors_of(session.read("a.txt", anchors=True).value)
    result = session.edit_lines("a.txt", anchors[5], anchors[7], "five to seven\n")
    assert not result.is_error, result.value
    assert result.value.startswith("Replaced lines 5-7 of a.txt (+1 -3).")
    want = [*LINES[:4], "five to seven\n", *LINES[7:]]
    assert (root / "a.txt").read_text() == "".join(want)
    assert not session.undo("a.txt").is_error
    assert (root / "a.txt").read_text() == "".join(LINES)


def test_a_moved_range_is_found_by_its_anchors(root: Path, session: Session) -> None:
    (root / "a.txt").write_text("".join(LINES))
    anchors = anchors_of(session.read("a.txt", anchors=True).value)
    (root / "a.txt").write_text("new 1\nnew 2\n" + "".join(LINES))  # two lines above, outside
    result = session.edit_lines("a.txt", anchors[10], anchors[11], "ten\neleven\n")
    assert not result.is_error, result.value
    assert "read as 10-11, found at 12-13" in result.value
    want = ["new 1\n", "new 2\n", *LINES[:9], "ten\n", "eleven\n", *LINES[11:]]
    assert (root / "a.txt").read_text() == "".join(want)


def test_a_changed_range_is_refused_with_what_it_reads_now(root: Path, session: Session) -> None:
    (root / "a.txt").write_text("".join(LINES))
    anchors = anchors_of(session.read("a.txt", anchors=True).value)
    changed = "".join(LINES).replace("compute(12)", "compute(99)")
    (root / "a.txt").write_text(changed)
    result = session.edit_lines("a.txt", anchors[12], anchors[13], "x\n")
    assert result.is_error and "stale_read" in result.value
    assert "compute(99)" in result.value
    assert (root / "a.txt").read_text() == changed


def test_a_change_between_the_anchors_is_refused(root: Path, session: Session) -> None:
    (root / "a.txt").write_text("".join(LINES))
    anchors = anchors_of(session.read("a.txt", anchors=True).value)
    changed = "".join(LINES).replace("compute(15)", "compute(-1)")  # inside 14-16
    (root / "a.txt").write_text(changed)
    result = session.edit_lines("a.txt", anchors[14], anchors[16], "x\n")
    assert result.is_error and "stale_read" in result.value
    assert (root / "a.txt").read_text() == changed


def test_empty_text_deletes_and_crlf_is_kept(root: Path, session: Session) -> None:
    (root / "w.txt").write_bytes("".join(LINES).replace("\n", "\r\n").encode())
    anchors = anchors_of(session.read("w.txt", anchors=True).value)
    assert not session.edit_lines("w.txt", anchors[2], anchors[3], "").is_error
    assert not session.edit_lines("w.txt", anchors[5], anchors[5], "five\n").is_error
    want = LINES[:1] + LINES[3:4] + ["five\n"] + LINES[5:]
    assert (root / "w.txt").read_bytes() == "".join(want).replace("\n", "\r\n").encode()


def test_bad_anchors_are_refused_and_nothing_is_written(root: Path, session: Session) -> None:
    (root / "a.txt").write_text("".join(LINES))
    anchors = anchors_of(session.read("a.txt", anchors=True).value)
    for start, end in (("12", anchors[12]), (anchors[5], anchors[3]), ("x#abc", "1#abc")):
        result = session.edit_lines("a.txt", start, end, "x\n")
        assert result.is_error and "invalid_arguments" in result.value, result.value
    assert (root / "a.txt").read_text() == "".join(LINES)


def test_anchors_are_for_whole_files(root: Path) -> None:
    (root / "big.txt").write_text("".join(LINES) * 4000)
    with Session(root, max_file_bytes=1 << 20) as s:
        result = s.read("big.txt", anchors=True)
    assert result.is_error and "too_large" in result.value


def test_two_texts_whose_digests_share_a_prefix_get_longer_tags() -> None:
    seen: dict[str, str] = {}
    for n in range(100_000):  # two of a few thousand texts share 3 hex characters
        text = f"text {n}"
        prefix = line_digest(text)[:TAG_CHARS]
        if prefix in seen:
            break
        seen[prefix] = text
    pair = [seen[prefix], text]
    tagged = tags(["alone", *pair, pair[0]])
    assert len(tagged[0]) == TAG_CHARS
    assert len(tagged[1]) > TAG_CHARS and tagged[1] != tagged[2]
    assert tagged[3] == tagged[1]  # the same text, the same tag


def test_a_file_without_a_final_newline_keeps_having_none(root: Path, session: Session) -> None:
    (root / "a.txt").write_text("one\ntwo")
    anchors = anchors_of(session.read("a.txt", anchors=True).value)
    assert not session.edit_lines("a.txt", anchors[2], anchors[2], "TWO\n").is_error
    assert (root / "a.txt").read_text() == "one\nTWO"


ENTRIES = "items:\n" + "".join(f"- name: {n}\n  value: 1\n" for n in ("alpha", "beta", "gamma"))
"""Same-shaped entries: every `  value: 1` line shares its tag."""


def test_anchors_read_before_the_sessions_own_change_are_carried_through_it(
    root: Path, session: Session
) -> None:
    (root / "c.yaml").write_text(ENTRIES)
    anchors = anchors_of(session.read("c.yaml", anchors=True).value)
    assert not session.insert("c.yaml", 1, "- name: zero\n  value: 1\n").is_error
    # gamma's value was line 7; the tag at line 7 now is beta's value line's, the same text.
    result = session.edit_lines("c.yaml", anchors[7], anchors[7], "  value: 2\n")
    assert not result.is_error, result.value
    assert result.value.startswith("Replaced lines 9-9 of c.yaml")
    assert "read as 7-7 before c.yaml changed since, now at 9-9" in result.value
    want = "items:\n- name: zero\n  value: 1\n" + ENTRIES[len("items:\n") :]
    assert (root / "c.yaml").read_text() == want.replace("gamma\n  value: 1", "gamma\n  value: 2")
    # Anchors of the same read go on being carried, through that change too.
    assert not session.edit_lines("c.yaml", anchors[3], anchors[3], "  value: 3\n").is_error
    assert (root / "c.yaml").read_text().count("alpha\n  value: 3\n") == 1


def test_anchors_the_sessions_own_change_touched_are_refused(root: Path, session: Session) -> None:
    (root / "c.yaml").write_text(ENTRIES)
    anchors = anchors_of(session.read("c.yaml", anchors=True).value)
    assert not session.insert("c.yaml", 5, "- name: between\n  value: 1\n").is_error
    now = (root / "c.yaml").read_text()
    for first, last in ((4, 5), (6, 7), (5, 5)):  # beside the lines put in, above and below
        result = session.edit_lines("c.yaml", anchors[first], anchors[last], "- x\n")
        assert result.is_error and "stale_read" in result.value, result.value
        assert "Read the lines again with anchors" in result.value
    assert (root / "c.yaml").read_text() == now
    anchors = anchors_of(session.read("c.yaml", anchors=True).value)  # read again: they hold
    assert not session.edit_lines("c.yaml", anchors[8], anchors[9], "- x\n").is_error


def test_anchors_read_before_another_agents_change_are_refused_where_tags_repeat(
    root: Path, session: Session
) -> None:
    (root / "c.yaml").write_text(ENTRIES)
    anchors = anchors_of(session.read("c.yaml", anchors=True).value)
    with Session(root, agent="other") as other:
        other.read("c.yaml")
        assert not other.insert("c.yaml", 1, "- name: zero\n  value: 1\n").is_error
    now = (root / "c.yaml").read_text()
    result = session.edit_lines("c.yaml", anchors[7], anchors[7], "  value: 2\n")
    assert result.is_error and "stale_read" in result.value, result.value
    assert (root / "c.yaml").read_text() == now
