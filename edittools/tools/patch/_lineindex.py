"""Finding runs of lines in a file, once per tier: the search behind apply_patch's hunk location.

Each tier's normalised lines, and the places every normalised line occurs, are built on first
use and kept for every later hunk of the file, so locating many hunks costs one pass over the
file per tier plus the hunks' own lines, never one pass per hunk.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from edittools.tools.matching import LINE_TIERS, Tier, identity

EXACT = Tier("exact", identity)
TIERS: tuple[Tier, ...] = (EXACT, *LINE_TIERS)


class LineIndex:
    """A file's lines, searchable under each tier of `TIERS` (by index into it)."""

    def __init__(self, contents: Sequence[str]) -> None:
        self.contents = contents
        self._lines: dict[int, Sequence[str]] = {}
        self._where: dict[int, dict[str, list[int]]] = {}

    def lines(self, t: int) -> Sequence[str]:
        """The file's lines under tier `t`'s normalisation."""
        if t not in self._lines:
            norm = TIERS[t].normalize
            self._lines[t] = self.contents if norm is identity else list(map(norm, self.contents))
        return self._lines[t]

    def _positions(self, t: int) -> dict[str, list[int]]:
        if t not in self._where:
            where: dict[str, list[int]] = {}
            for k, line in enumerate(self.lines(t)):
                where.setdefault(line, []).append(k)
            self._where[t] = where
        return self._where[t]

    def find(self, t: int, old: Sequence[str], start: int, near: int | None = None) -> int | None:
        """Where `old` occurs under tier `t` at or after line `start`.

        The first such place, or with `near` the one closest to that line (the earlier on a tie).
        """
        m = len(old)
        if t == 0:
            # The exact place a hunk names (or the cursor) usually holds it: check there first,
            # before any index is built.
            at = start if near is None else near
            if start <= at and list(self.contents[at : at + m]) == list(old):
                return at
        norm = TIERS[t].normalize
        want = [norm(line) for line in old]
        have = self.lines(t)
        anchor = max(range(m), key=lambda j: len(want[j]))
        places = self._positions(t).get(want[anchor], [])
        first = bisect_left(places, start + anchor)

        def fits(p: int) -> bool:
            i = p - anchor
            return i + m <= len(have) and list(have[i : i + m]) == want

        if near is None:
            return next((p - anchor for p in places[first:] if fits(p)), None)
        right = max(bisect_left(places, near + anchor), first)
        left = right - 1
        while left >= first or right < len(places):
            go_left = right >= len(places) or (
                left >= first and near + anchor - places[left] <= places[right] - near - anchor
            )
            p = places[left] if go_left else places[right]
            if fits(p):
                return p - anchor
            if go_left:
                left -= 1
            else:
                right += 1
        return None

    def tail(self, t: int, old: Sequence[str], start: int) -> int | None:
        """Where `old` sits as the file's last lines under tier `t`, if it does (at or after start)."""
        norm = TIERS[t].normalize
        at = len(self.contents) - len(old)
        have = self.lines(t)
        if at >= start and list(have[at:]) == [norm(line) for line in old]:
            return at
        return None
