"""Staleness judged on the region a change touches: a three-way merge of lines.

The session read `base`; the file now holds `theirs` (someone else changed it since); the change,
located in what the session read, makes `ours` of `base`. When no line the change replaced or
relied on lies in or beside a line the other change touched, the result is both changes applied
to `base` — the same as making this change on the read content and then the other one — and it is
written over the file as it is now. Otherwise the merge refuses (`Overlap`), naming the first
hunk of the other change that collides.

Lines are split on "\\n" (a CR-only file is one line, so any other change collides with it).
Touching counts as colliding: a change to the line just above or below, or lines added at either
edge of the region, leaves the order of the two changes unknowable, so it is refused. So does a
hunk that could as well sit against the region: beside repeated lines (two identical blocks, a
third added) a diff picks one of several equally good places, and a line number carried through
it could land in the other copy (`Hunk.reach`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from edittools._errors import ToolError
from edittools.artifacts import DiffPayload
from edittools.change._commit import text_or_bytes
from edittools.diff import diff_texts, hunk_header, line_diff, unified_excerpt
from sandbox import SandboxError, TextDocument, decode

T = TypeVar("T")


@dataclass(frozen=True)
class Base:
    """What the session read of a file that changed since: its bytes, and who changed it, as
    the words that follow "changed" (" by agent `x` 2 minutes ago", " outside the tools")."""

    data: bytes
    by: str


Lines = tuple[int, int]
"""Lines `first..last` of `base` (1-based, inclusive); `(k + 1, k)` is the boundary after line k."""


@dataclass(frozen=True)
class Hunk:
    """One changed region, in `base` lines: `old_lines` lines from `old_start` (with none, the
    region is the boundary after line `old_start`) became `new` (its lines, each with its "\\n"
    but maybe the file's last)."""

    old_start: int
    old_lines: int
    new: str
    new_start: int = 0
    """Where the region starts in the other content (with no new lines: the line before it)."""
    slide: tuple[int, int] = (0, 0)
    """How many lines up and down the same diff could have put it (see `reach`)."""

    @property
    def new_count(self) -> int:
        """How many lines `new` holds."""
        return line_count(self.new)

    @property
    def lines(self) -> Lines:
        """The base lines it replaces, or its boundary."""
        if self.old_lines == 0:
            return self.old_start + 1, self.old_start
        return self.old_start, self.old_start + self.old_lines - 1

    @property
    def reach(self) -> Lines:
        """The base lines it replaces wherever an equally good diff puts it.

        Beside lines equal to its own edges a hunk slides: a block added after the second of two
        identical blocks may as well have been added before the first, and nothing says which
        was meant. Whether it meets a change is judged on all of that, never on the one place
        the diff happened to pick.
        """
        first, last = self.lines
        return first - self.slide[0], last + self.slide[1]


class Overlap(Exception):
    """The change and the other one meet: `theirs` is the other change's colliding hunk."""

    def __init__(self, theirs: Hunk) -> None:
        super().__init__(f"the other change touches lines {theirs.lines}")
        self.theirs = theirs


def line_count(text: str) -> int:
    """How many lines `text` holds (a last line without its newline counts)."""
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def hunks(base: str, other: str) -> list[Hunk]:
    """The changed regions from `base` to `other`, without context, in order.

    The diff's time budget may make them coarser than minimal, never wrong: a coarse region only
    collides more often.
    """
    found = line_diff(base.encode(), other.encode(), context=0, checked=(False, False)).hunks
    olds = base.split("\n")[: line_count(base)]
    lines = other.split("\n")
    news = lines[: line_count(other)]
    # Each hunk's first line in both contents (1-based), and the first line after it.
    spans = [
        (
            (h.old_start or 0) + (0 if h.old_lines else 1),
            (h.new_start or 0) + (0 if h.new_lines else 1),
        )
        for h in found
    ]
    out = []
    for k, h in enumerate(found):
        first = (h.new_start or 0) - 1 if h.new_lines else 0
        new = "\n".join(lines[first : first + h.new_lines]) if h.new_lines else ""
        if h.new_lines and first + h.new_lines < len(lines):
            new += "\n"
        (a, c), p, q = spans[k], h.old_lines, h.new_lines
        # Slides stay among the lines both contents keep between this hunk and its neighbours.
        low = (1, 1) if k == 0 else (spans[k - 1][0] + found[k - 1].old_lines,
                                      spans[k - 1][1] + found[k - 1].new_lines)  # fmt: skip
        high = (
            (len(olds), len(news))
            if k + 1 == len(found)
            else (spans[k + 1][0] - 1, spans[k + 1][1] - 1)
        )
        up = _slide(olds, news, a, c, p, q, -1, low)
        down = _slide(olds, news, a, c, p, q, 1, high)
        out.append(Hunk(h.old_start or 0, h.old_lines, new, h.new_start or 0, (up, down)))
    return out


def _slide(
    olds: list[str], news: list[str], a: int, c: int, p: int, q: int, step: int, bound: Lines
) -> int:
    """How many lines the hunk replacing `p` lines from line `a` of `olds` with `q` lines from
    line `c` of `news` can move by `step` (-1 up, 1 down) and stay a diff of the same contents:
    while the kept line it would swallow on that side equals the line of its own it would give
    up, in both contents, up to `bound` (the last kept line on that side, in each)."""
    moved = 0
    while True:
        if step < 0:
            i, j = a - 1 - moved, c - 1 - moved  # the kept lines just above
            if i < bound[0] or j < bound[1]:
                return moved
            same = (not p or olds[i - 1] == olds[i + p - 1]) and (
                not q or news[j - 1] == news[j + q - 1]
            )
        else:
            i, j = a + p + moved, c + q + moved  # the kept lines just below
            if i > bound[0] or j > bound[1]:
                return moved
            same = (not p or olds[i - 1] == olds[i - p - 1]) and (
                not q or news[j - 1] == news[j - q - 1]
            )
        if not same:
            return moved
        moved += 1


def merge(base: str, ours: str, theirs: str, relied: Sequence[Lines] = ()) -> str:
    """`base` with both changes applied, or `Overlap` when they meet.

    `relied` adds regions of `base` the change depends on besides the lines it replaced (the
    lines an edit matched, a patch hunk's context, the line an insert follows).
    """
    return _merged(base, hunks(base, ours), hunks(base, theirs), relied)


def _merged(base: str, mine: list[Hunk], other: list[Hunk], relied: Sequence[Lines]) -> str:
    """`merge` of the two changes' hunks."""
    meeting = _first_meeting(other, [h.reach for h in mine] + list(relied))
    if meeting is not None:
        raise Overlap(meeting)
    return _apply(base, sorted(mine + other, key=lambda h: (h.old_start, h.old_lines)))


def _first_meeting(other: list[Hunk], regions: list[Lines]) -> Hunk | None:
    """The first hunk of the other change that meets one of `regions`, if any."""
    return next((h for h in other if any(_meet(h.reach, r) for r in regions)), None)


def _meet(a: Lines, b: Lines) -> bool:
    """Whether two regions overlap or touch (a line apart or sharing an edge)."""
    return a[0] <= b[1] + 1 and b[0] <= a[1] + 1


def _apply(base: str, changes: list[Hunk]) -> str:
    """`base` with disjoint hunks applied (in order of their base lines)."""
    lines = base.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    starts.append(len(base))
    out = []
    at = 0
    for h in changes:
        first, last = h.lines
        cut = starts[min(first - 1, len(starts) - 1)]
        end = starts[min(last, len(starts) - 1)]
        out += [base[at:cut], h.new]
        at = end
    out.append(base[at:])
    return "".join(out)


Make = Callable[[TextDocument], tuple[TextDocument, Sequence[Lines]]]
"""Makes a change of a content: the changed content, and the lines it relied on besides those it
replaced (an edit's matched lines, a patch hunk's context, the line an insert follows)."""


def made_elsewhere(
    path: str, base: Base, current: TextDocument, changed: TextDocument, make: Make
) -> str:
    """Check that `changed` (the change made on `current`, the file as it is now) is what the
    change makes of `base` (the content the session read: `make(base)`) merged with what else
    changed since; the note that tells the model what else changed. Refuses (`stale_read`) a
    change that meets the other one, or that reads differently on the two contents.
    """
    try:
        read = decode(base.data)
        ours, relied = make(read)
    except (SandboxError, ToolError) as exc:  # the change does not apply to what was read
        raise _refusal(path, base, current.text, None) from exc
    theirs = hunks(read.text, current.text)
    try:
        merged = _merged(read.text, hunks(read.text, ours.text), theirs, relied)
    except Overlap as exc:
        raise _refusal(path, base, current.text, exc.theirs) from exc
    if merged != changed.text:
        raise _refusal(path, base, current.text, None)
    other = diff_texts(read.text, current.text, path=path, include_texts=False)
    where = _where(theirs, other)
    return (
        f"\nNote: {path} changed{base.by} since this session read it ({where}), not in "
        "or beside "
        "the lines this change touches: the change was made on the file as it is now. What "
        f"else changed since the read:\n{unified_excerpt(other.unified)}"
    )


def already_made(base: Base, current: TextDocument, make: Make) -> bool:
    """Whether the file as it is now is just what the change makes of `base` (the content the
    session read): the change made since, by another actor, was this very change. The two are
    compared as text in the file's own newlines; a change that fails on `base` or leaves it as
    it is was not made."""
    try:
        read = decode(base.data)
        ours = make(read)[0]
    except (SandboxError, ToolError):
        return False
    return ours.text == current.text and ours.text != read.text


def already_note(path: str, base: Base) -> str:
    """The words of a change found already made (`already_made`): nothing was written."""
    return (
        f"{path} already holds this change: it changed{base.by} since this session read it, to "
        "just what this change makes of the content read, so nothing was written."
    )


def stale_if(
    find: Callable[[TextDocument], T], current: TextDocument, path: str, base: Base, make: Make
) -> T:
    """`find(current)`, where a failure (the text an edit names is gone, or found twice) is
    the refusal of a file that changed since the read, with what changed (first where it
    meets the change as `make` makes it of the content read) — unless the change fails on the
    content read as well: then it is the change's own fault, and its own error stands."""
    try:
        return find(current)
    except ToolError as exc:
        try:
            read = decode(base.data)
            ours, relied = make(read)
        except (ToolError, SandboxError):
            raise exc from None
        regions = [h.reach for h in hunks(read.text, ours.text)] + list(relied)
        meeting = _first_meeting(hunks(read.text, current.text), regions)
        raise _refusal(path, base, current.text, meeting) from exc


def lines_of(text: str, spans: Sequence[tuple[int, int]]) -> list[Lines]:
    """The lines (1-based, inclusive) each character span of `text` covers."""
    out = []
    for start, end in spans:
        first = text.count("\n", 0, start) + 1
        out.append((first, first + text.count("\n", start, max(end - 1, start))))
    return out


def carried(base: str, other: str, lines: Lines) -> Lines:
    """Lines `lines` of `base` (or its boundary) as numbered in `other`: lines added or removed
    above them move them. `Overlap` when a change from `base` to `other` meets them (in or
    beside them, wherever an equally good diff could put it), so where they are is not known."""
    shift = 0
    for h in hunks(base, other):
        if _meet(h.reach, lines):
            raise Overlap(h)
        if h.lines[1] < lines[0]:
            shift += h.new_count - h.old_lines
    return lines[0] + shift, lines[1] + shift


def line_now(path: str, base: Base, current: TextDocument, line: int) -> int:
    """The number in `current` of the boundary after line `line` of `base` (lines added or
    removed above it since move it); `stale_read` when the other change touches it."""
    read = text_or_bytes(base.data)
    if isinstance(read, bytes):
        raise _refusal(path, base, current.text, None)
    try:
        return carried(read, current.text, (line + 1, line))[1]
    except Overlap as exc:
        raise _refusal(path, base, current.text, exc.theirs) from exc


def _where(found: list[Hunk] | None, payload: DiffPayload) -> str:
    """`+a -b at lines x-y, ...` of a diff (`found`: its hunks without context, when the
    contents are text), in the lines of the file as it is now."""
    if found is None:
        return f"+{payload.stats.added} -{payload.stats.removed}"
    places = []
    for h in found[:4]:
        first, last = h.new_start, h.new_start + h.new_count - 1
        places.append(f"line {first}" if first >= last else f"lines {first}-{last}")
    more = ", ..." if len(found) > 4 else ""
    return f"+{payload.stats.added} -{payload.stats.removed} at {', '.join(places)}{more}"


def _refusal(path: str, base: Base, current: str, theirs: Hunk | None) -> ToolError:
    """`stale_read`: the change meets what changed since the read (that part shown first)."""
    read = text_or_bytes(base.data)
    other = diff_texts(read, current, path=path, include_texts=False)
    found = None if isinstance(read, bytes) else hunks(read, current)
    shown = other.unified
    if theirs is not None:
        first, last = theirs.lines
        where = f"line {first}" if first == last else f"lines {first}-{last}"
        if first > last:
            where = f"after line {last}"
        meeting = [
            h
            for h in other.hunks
            if _meet(Hunk(h.old_start or 0, h.old_lines, "").lines, theirs.lines)
        ]
        head = "".join(hunk_header(h) + "\n" + "\n".join(h.lines) + "\n" for h in meeting[:1])
        shown = (
            f"Where it meets this change ({where} of the content read):\n{head}All of it:\n{shown}"
        )
    return ToolError(
        "stale_read",
        f"{path} changed{base.by} since this session last read it "
        f"({_where(found, other)}), in or "
        "beside the lines this change touches, so it was not made. Read it again, then retry.\n"
        + unified_excerpt(shown),
        {"path": path, "diff": other.model_dump(mode="json", by_alias=True)},
    )
