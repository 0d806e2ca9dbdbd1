"""Matching an `old_string` that lost or gained blank lines: its other lines paired in order.

The non-blank lines of `old_string` must equal (trailing whitespace aside) a run of the file's
non-blank lines. Each gap between two paired lines is then written by one rule: where
`new_string` keeps `old_string`'s blank lines, the file keeps its own; where the file's gap is the
one `old_string` showed, `new_string`'s blank lines are written; a gap that drifted and that
`new_string` also changes is refused, since nothing says which blank lines were meant.
"""

from __future__ import annotations

from edittools.tools.matching._linemap import Unmappable, kept_as, kept_opcodes
from edittools.tools.matching._textlines import WS, Lines, strip_trailing


def _nonblank(lines: list[str]) -> list[int]:
    return [k for k, line in enumerate(lines) if line.strip(WS)]


def blank_line_hits(lines: Lines, old_lines: list[str]) -> list[list[int]]:
    """For each place old_lines' non-blank lines occur in a row, the file line of each of them
    (places that overlap too)."""
    mine = _nonblank(old_lines)
    if len(mine) < 2 or mine[0] != 0 or mine[-1] != len(old_lines) - 1:
        return []
    want = [strip_trailing(old_lines[k]) for k in mine]
    probe = max(want, key=len)
    if probe not in lines.text:
        return []
    theirs = _nonblank(lines.contents)
    have = [strip_trailing(lines.contents[k]) for k in theirs]
    m = len(want)
    hits: list[list[int]] = []
    k = -1
    while True:
        try:
            k = have.index(want[0], k + 1)
        except ValueError:
            return hits
        if have[k : k + m] == want:
            hits.append(theirs[k : k + m])


def carry_blank_lines(
    contents: list[str], old_lines: list[str], paired: list[int], new_lines: list[str]
) -> list[str]:
    """The found region as `new_string` rewrites it, each blank-line gap settled by the rule.

    `paired[i]` is the file line of old_string's i-th non-blank line. Lines of new_string that
    are not old_string's come as sent; the caller maps them.

    A change among alike lines (three `yield` lines, one dropped) can be read as the first of
    them or the last; where the file's blank lines fall between them, the readings put them in
    different places, and the edit is refused unless both write the same lines.
    """
    body = _carry(contents, old_lines, paired, new_lines, tail_first=False)
    try:
        other = _carry(contents, old_lines, paired, new_lines, tail_first=True)
    except Unmappable:
        other = None
    if other is None or kept_as(other) != kept_as(body):
        raise Unmappable(
            "new_string adds or drops one of several alike lines, and which one it is decides "
            "where the file's blank lines between them go"
        )
    return body


def _carry(
    contents: list[str],
    old_lines: list[str],
    paired: list[int],
    new_lines: list[str],
    *,
    tail_first: bool,
) -> list[str]:
    """`carry_blank_lines` with the diff's common lines taken from one end first."""
    mine = _nonblank(old_lines)
    ours = _nonblank(new_lines)
    if not ours:
        return list(new_lines)
    old_kept, new_kept = kept_as(old_lines), kept_as(new_lines)
    ops = kept_opcodes(
        [old_kept[k] for k in mine], [new_kept[k] for k in ours], tail_first=tail_first
    )
    written: set[int] = set()  # gaps of new_string already written, by the index after them
    out: list[str] = []
    files = _files_blank_lines(contents, old_lines, paired, new_lines, tail_first=tail_first)

    def sent(lo: int, hi: int) -> list[str]:
        return [files.get(k, new_lines[k]) for k in range(lo, hi)]

    def new_gap(j: int) -> None:
        if j not in written:
            written.add(j)
            out.extend(
                sent(ours[j - 1] + 1 if j else 0, ours[j] if j < len(ours) else len(new_lines))
            )

    def gap(i: int, j: int, free: bool) -> None:
        """Blank lines between old non-blank lines i-1 and i, where new's j-1 and j meet."""
        if 0 < i < len(mine):
            file_gap = contents[paired[i - 1] + 1 : paired[i]]
            old_count = mine[i] - mine[i - 1] - 1
            lo = ours[j - 1] + 1 if j else 0
            hi = ours[j] if j < len(ours) else len(new_lines)
            if not free and hi - lo == old_count:
                out.extend(file_gap)
                written.add(j)
                return
            if len(file_gap) != old_count:
                raise Unmappable(
                    f"new_string changes the blank lines after file line {paired[i - 1] + 1}, "
                    "where the file's blank lines differ from old_string's"
                )
        new_gap(j)

    new_gap(0)
    for n, (tag, i1, i2, j1, j2) in enumerate(ops):
        if n:
            before = ops[n - 1]
            free = i1 == i2 or j1 == j2 or before[1] == before[2] or before[3] == before[4]
            gap(i1, j1, free)
        if tag == "equal":
            for step in range(i2 - i1):
                if step:
                    gap(i1 + step, j1 + step, False)
                out.append(contents[paired[i1 + step]])
        elif j2 > j1:
            out.extend(sent(ours[j1], ours[j2 - 1] + 1))
    new_gap(len(ours))
    return out


def _files_blank_lines(
    contents: list[str],
    old_lines: list[str],
    paired: list[int],
    new_lines: list[str],
    *,
    tail_first: bool,
) -> dict[int, str]:
    """The file's own line for each blank line of new_lines that old_lines also has, aligned as a
    diff aligns them, where the file's gap holds as many blank lines as old_lines' gap.

    The model's whitespace on a blank line it did not change is drift, like any other.
    """
    mine = _nonblank(old_lines)
    known: dict[int, str] = {}
    for i in range(1, len(mine)):
        gap = contents[paired[i - 1] + 1 : paired[i]]
        if len(gap) == mine[i] - mine[i - 1] - 1:
            known.update(zip(range(mine[i - 1] + 1, mine[i]), gap, strict=True))
    files: dict[int, str] = {}
    ops = kept_opcodes(kept_as(old_lines), kept_as(new_lines), tail_first=tail_first)
    for tag, i1, i2, j1, _ in ops:
        for d in range(i2 - i1 if tag == "equal" else 0):
            if i1 + d in known:
                files[j1 + d] = known[i1 + d]
    return files
