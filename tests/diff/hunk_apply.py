"""Apply structured hunks to old bytes, checking every context and removed line on the way.

An independent reader of the hunk model, used as an oracle by the diff tests.
"""

from __future__ import annotations

from diff_corpus import lines_of

from edittools.artifacts import Hunk

NO_NEWLINE = "\\ No newline at end of file"


def _body(hunk: Hunk) -> list[tuple[str, bytes]]:
    """(marker, line bytes with their newline) pairs; the marker line strips the newline before."""
    body: list[tuple[str, bytes]] = []
    for line in hunk.lines:
        if line == NO_NEWLINE:
            marker, data = body[-1]
            assert data.endswith(b"\n")
            body[-1] = (marker, data[:-1])
            continue
        body.append((line[0], line[1:].encode("utf-8", "surrogatepass") + b"\n"))
    return body


def apply_hunks(old: bytes, hunks: list[Hunk]) -> bytes:
    """Return the new bytes; fail if a context or removed line does not match old."""
    old_lines = lines_of(old)
    out: list[bytes] = []
    cursor = 0
    for hunk in hunks:
        assert hunk.old_start is not None
        start = hunk.old_start - 1 if hunk.old_lines else hunk.old_start
        assert start >= cursor, "hunks overlap or are out of order"
        out += old_lines[cursor:start]
        cursor = start
        assert hunk.new_start == len(out) + (1 if hunk.new_lines else 0), "wrong new start"
        body = _body(hunk)
        assert sum(m != "+" for m, _ in body) == hunk.old_lines
        assert sum(m != "-" for m, _ in body) == hunk.new_lines
        for marker, data in body:
            if marker in " -":
                assert old_lines[cursor] == data, (old_lines[cursor], data)
                cursor += 1
            if marker in " +":
                out.append(data)
    out += old_lines[cursor:]
    return b"".join(out)
