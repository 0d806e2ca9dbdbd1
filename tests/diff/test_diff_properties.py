"""Round-trip properties: applying the hunks to old gives new, minimally, on any input."""

from __future__ import annotations

from diff_corpus import lines_of
from hunk_apply import apply_hunks
from hypothesis import given, settings
from hypothesis import strategies as st

from edittools.diff import diff_span, diff_texts, snippet_diff
from edittools.diff._myers import diff_ids

# Few distinct lines so that duplicates and repeated structure are common.
LINES = st.sampled_from(["", "}", "a", "b", "x = 1", "  return", "é✓", "c\r", "\r", "\x0c"])


@st.composite
def texts(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(LINES, max_size=30))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    text = ending.join(lines)
    if lines and draw(st.booleans()):
        text += ending
    return text.encode()


@st.composite
def edited(draw: st.DrawFn) -> tuple[bytes, bytes]:
    old = draw(texts())
    if draw(st.booleans()):
        return old, draw(texts())
    lines = lines_of(old)
    for _ in range(draw(st.integers(0, 4))):
        pos = draw(st.integers(0, len(lines)))
        cut = draw(st.integers(0, 3))
        new_lines = [line.encode() + b"\n" for line in draw(st.lists(LINES, max_size=3))]
        lines[pos : pos + cut] = new_lines
    return old, b"".join(lines)


def _minimum(old: bytes, new: bytes) -> int:
    ids: dict[bytes, int] = {}
    a = [ids.setdefault(line, len(ids)) for line in lines_of(old)]
    b = [ids.setdefault(line, len(ids)) for line in lines_of(new)]
    return sum(a1 - a0 + b1 - b0 for a0, a1, b0, b1 in diff_ids(a, b))


@settings(max_examples=300, deadline=None)
@given(edited(), st.integers(0, 4))
def test_hunks_turn_old_into_new_with_the_fewest_changed_lines(
    pair: tuple[bytes, bytes], context: int
) -> None:
    old, new = pair
    payload = diff_texts(old, new, path="f", context=context)
    assert apply_hunks(old, payload.hunks) == new
    assert payload.stats.added + payload.stats.removed == _minimum(old, new)
    assert payload.unified.count("\n+") - payload.unified.count("\n+++ ") == payload.stats.added


@settings(max_examples=200, deadline=None)
@given(texts(), st.data())
def test_known_span_diff_equals_full_diff(old_bytes: bytes, data: st.DataObject) -> None:
    old = old_bytes.decode()
    start = data.draw(st.integers(0, len(old)))
    end = data.draw(st.integers(start, len(old)))
    replacement = data.draw(st.text(alphabet="ab\n\r}", max_size=12))
    new = old[:start] + replacement + old[end:]
    fast = diff_span(old, start, end, replacement, path="f")
    full = diff_texts(old, new, path="f")
    assert fast.stats == full.stats
    assert apply_hunks(old_bytes, fast.hunks) == new.encode()
    assert (fast.old, fast.new) == (old, new)


@settings(max_examples=100, deadline=None)
@given(edited())
def test_snippet_stats_match_the_file_diff(pair: tuple[bytes, bytes]) -> None:
    old, new = pair
    snippet = snippet_diff(old.decode(), new.decode(), path="f")
    full = diff_texts(old, new, path="f")
    # The snippet prints no missing-newline marker, otherwise the same lines change.
    assert snippet.stats == full.stats
