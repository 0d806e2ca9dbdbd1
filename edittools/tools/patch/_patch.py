"""Parsing patches and applying one file's part of a patch to its text, all in memory.

Lines are split on `\\n` only and compared without a trailing `\\r`, except in a file that uses
lone CRs only, which is split on `\\r` (as `Lines.of` does). Context lines and every untouched
line keep their own bytes and line ending; added lines take the file's dominant newline style
(a lone CR in a CR-only file). Context is compared exactly first, then through the line tiers `edit`
uses (trailing whitespace, indentation, Unicode punctuation); the tier returned says which was
needed, and a tolerated hunk's added lines go through the same line mapping as `edit`'s new lines.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import repeat
from operator import add

from edittools._errors import ToolError
from edittools.diff import DiffError, FilePatch, PatchHunk, is_unified, parse_unified
from edittools.tools.matching import LineMap, Lines, Unmappable, describe_miss, fold_and_strip
from edittools.tools.patch._lineindex import TIERS, LineIndex
from edittools.tools.patch._patch_codex import is_codex, parse_codex

__all__ = [
    "PATCH_TIERS",
    "FilePatch",
    "PatchHunk",
    "apply_file_patch",
    "hunk_regions",
    "parse_patch",
]

# Tiers in order: exact, then the line tiers `edit` uses, under the same names.
PATCH_TIERS = tuple(tier.name for tier in TIERS)


def parse_patch(text: str, *, strip: int | None = None) -> list[FilePatch]:
    """Parse a Codex-style patch or a git-style unified diff, whichever the text is.

    `strip` removes leading path components from a unified diff's file names, as ``patch -p``.
    Raises `ToolError` with code `invalid_patch` (naming the line) when it is neither or is
    malformed.
    """
    if is_codex(text):
        return parse_codex(text)
    if is_unified(text):
        try:
            return parse_unified(text, strip=strip)
        except DiffError as exc:
            raise ToolError(
                "invalid_patch",
                f"{exc.message} Fix the patch and send it again.",
                {"line": exc.line},
            ) from exc
    raise ToolError(
        "invalid_patch",
        "The patch is neither a unified diff (with '---'/'+++' file headers) nor a Codex patch "
        "(starting with '*** Begin Patch'). Send the patch in one of those formats.",
        {"line": 1},
    )


def apply_file_patch(old_text: str, fp: FilePatch) -> tuple[str, str]:
    """Apply one file's patch to its current text; returns the new text and the tier used.

    An added file's text is its `new_content` (the caller checks that the file did not exist).
    A deleted file becomes empty; hunks in a unified delete are checked against the text first.
    Raises `ToolError` with code `patch_conflict` when a hunk's context is not in the text.
    """
    if fp.op == "add":
        return fp.new_content or "", "exact"
    if not fp.hunks:
        return ("" if fp.op == "delete" else old_text), "exact"
    new_text, tier = _apply(old_text, fp)
    if fp.op == "delete":
        if new_text:
            raise ToolError(
                "patch_conflict",
                f"The patch deletes {fp.path}, but the file holds more than the patch removes. "
                f"Re-read {fp.path} and make the patch from its current content.",
                {"path": fp.path},
            )
        return "", tier
    return new_text, tier


def hunk_regions(old_text: str, fp: FilePatch) -> list[tuple[int, int]]:
    """The lines of `old_text` each hunk of `fp` relies on (1-based, inclusive; `(k + 1, k)`:
    the boundary after line k): the lines it changes, and as many of its context lines on each
    side as it takes for those lines to be found there once and only once. A hunk whose lines
    are found only through a tolerance, or not once even with all of its context (it was then
    placed by its line number or its order), relies on all of its context.

    This is what a change made since the read must stay clear of: a context line the hunk did
    not need to be found may change, as a three-way merge (`git merge-file`) lets it. Raises as
    `apply_file_patch` does when the patch does not apply to `old_text`.
    """
    if fp.op == "add" or not fp.hunks:
        return []
    places: list[tuple[int, int]] = []
    _apply(old_text, fp, places)
    if "\r" in old_text and "\n" not in old_text:
        return [(1, 1)]  # one line to the region rule: every change meets it
    contents = [r[:-1] if r.endswith("\r") else r for r in old_text.split("\n")]
    regions = []
    for hunk, (at, tier) in zip(fp.hunks, places, strict=True):
        marks = [line[0] for line in hunk.lines]
        old = [_body(line) for line in hunk.lines if line[0] in " -"]
        lead = next((k for k, m in enumerate(marks) if m != " "), len(marks))
        trail = next((k for k, m in enumerate(reversed(marks)) if m != " "), 0)
        first, stop = at + lead, at + len(old) - trail  # the changed old lines, 0-based
        needed = (lead, trail)
        if tier == 0:
            for k in range(max(lead, trail) + 1):
                a, b = min(k, lead), min(k, trail)
                block = old[lead - a : len(old) - trail + b]
                if block and _found_once(contents, block):
                    needed = (a, b)
                    break
        regions.append((first - needed[0] + 1, stop + needed[1]))
    return regions


def _found_once(contents: list[str], block: list[str]) -> bool:
    """Whether `block` (lines) occurs exactly once in `contents`, compared exactly."""
    head, size, seen = block[0], len(block), 0
    for k, line in enumerate(contents):
        if line == head and contents[k : k + size] == block:
            seen += 1
            if seen > 1:
                return False
    return seen == 1


def _apply(
    old_text: str, fp: FilePatch, places: list[tuple[int, int]] | None = None
) -> tuple[str, str]:
    """`apply_file_patch` of a patch with hunks; `places` receives where each hunk's old lines
    were found (0-based) and the index of the tier that found them."""
    cr_only = "\r" in old_text and "\n" not in old_text
    raw = old_text.split("\r" if cr_only else "\n")
    final_newline = raw[-1] == ""
    if final_newline:
        raw.pop()
    if cr_only:
        contents = raw
        endings = ["\r"] * len(raw)
        hunks = [_split_cr(hunk) for hunk in fp.hunks]
    else:
        contents = [r[:-1] if r.endswith("\r") else r for r in raw]
        endings = ["\r\n" if r.endswith("\r") else "\n" for r in raw]
        hunks = list(fp.hunks)
    if raw and not final_newline:
        endings[-1] = ""
    nl = "\r" if cr_only else _dominant(endings, fp)
    out: list[tuple[str, str, bool]] = []  # (content, ending, added by the patch)
    pos = 0
    worst = 0
    delta = 0  # how far the unified hunks found so far sit from their stated lines
    index = LineIndex(contents)
    for number, hunk in enumerate(hunks, 1):
        old = [_body(line) for line in hunk.lines if line[0] in " -"]
        found = _locate(index, old, hunk, pos, delta)
        if found is None:
            raise _conflict(old_text, fp, number, hunk, old)
        at, tier = found
        worst = max(worst, tier)
        if places is not None:
            places.append((at, tier))
        if hunk.old_start is not None:
            delta = at - _stated(hunk)
        added = [_body(line) for line in hunk.lines if line[0] == "+"]
        if tier and added:
            added = _map_added(old_text, fp, number, hunk, old, contents[at : at + len(old)], tier)
        out += zip(contents[pos:at], endings[pos:at], repeat(False))
        k = at
        new_lines = iter(added)
        for line in hunk.lines:
            if line[0] == " ":
                out.append((contents[k], endings[k], False))
                k += 1
            elif line[0] == "-":
                k += 1
            else:
                out.append((next(new_lines), nl, True))
        pos = k
        if k == len(contents) and out and hunk.new_no_newline:
            out[-1] = (out[-1][0], "", out[-1][2])
    out += zip(contents[pos:], endings[pos:], repeat(False))
    if out and out[-1][2] and raw and not final_newline and hunks[-1].old_start is None:
        out[-1] = (out[-1][0], "", True)  # a Codex patch cannot say: keep the missing newline
    ends = [e for _, e, _ in out]
    k = -1
    while True:  # a line without its ending (the old last one) gains one unless it stays last
        try:
            k = ends.index("", k + 1, len(ends) - 1)
        except ValueError:
            break
        ends[k] = nl
    return "".join(map(add, [c for c, _, _ in out], ends)), PATCH_TIERS[worst]


def _split_cr(hunk: PatchHunk) -> PatchHunk:
    """A hunk for a file with lone-CR line endings, one hunk line per CR-separated line.

    `git diff` sees such a file as one line without a final newline, so its hunk lines hold the
    CRs and carry a `\\ No newline at end of file` marker; a model usually writes one line per
    line instead. Both become the latter. A marker counts only when the last line of its side
    does not end with a CR: a CR-only file never ends with the newline the marker speaks of.
    """
    lines: list[str] = []
    ended = {" -": False, " +": False}  # whether the last old / new line ended with a CR
    for line in hunk.lines:
        tag, body = line[0], line[1:]
        for side in ended:
            if tag in side:
                ended[side] = body.endswith("\r")
        pieces = body.split("\r")
        if pieces[-1] == "":
            pieces.pop()
        lines += [tag + piece for piece in pieces] or [tag]
    return replace(
        hunk,
        lines=tuple(lines),
        old_no_newline=hunk.old_no_newline and not ended[" -"],
        new_no_newline=hunk.new_no_newline and not ended[" +"],
    )


def _dominant(endings: list[str], fp: FilePatch) -> str:
    """The file's most common line ending; the patch's own when the file has none."""
    crlf = endings.count("\r\n")
    lf = endings.count("\n")
    if not crlf and not lf:
        # An LF patch never ends a line with "\r"; the last added line may lack its ending.
        added = (line for hunk in fp.hunks for line in hunk.lines if line[0] == "+")
        return "\r\n" if any(line.endswith("\r") for line in added) else "\n"
    return "\r\n" if crlf > lf else "\n"


def _body(line: str) -> str:
    body = line[1:]
    return body[:-1] if body.endswith("\r") else body


def _stated(hunk: PatchHunk) -> int:
    """The 0-based index where a unified hunk says its old lines start."""
    assert hunk.old_start is not None
    return hunk.old_start - 1 if hunk.old_count else hunk.old_start


def _locate(
    index: LineIndex, old: list[str], hunk: PatchHunk, pos: int, delta: int
) -> tuple[int, int] | None:
    """Where the hunk's old lines start (at or after `pos`) and the index of the tier used."""
    size = len(index.contents)
    if hunk.old_start is not None:
        expected = _stated(hunk) + delta
        if not old:
            return min(max(expected, pos), size), 0
        for t in range(len(TIERS)):
            hit = index.find(t, old, pos, near=expected)
            if hit is not None:
                return hit, t
        return None
    start, worst = pos, 0
    if hunk.context is not None:
        found = _find_header(index, hunk.context, pos)
        if found is None:
            return None
        start, worst = found[0] + 1, found[1]
    if not old:
        return (start if hunk.context is not None else size), worst
    for t in range(len(TIERS)):
        hit = index.tail(t, old, start) if hunk.end_of_file else None
        if hit is None:
            hit = index.find(t, old, start)
        if hit is not None:
            return hit, max(t, worst)
    return None


def _find_header(index: LineIndex, context: str, pos: int) -> tuple[int, int] | None:
    """The first line at or after `pos` that a Codex `@@ context` header names."""
    for t in range(len(TIERS)):
        hit = index.find(t, [context], pos)
        if hit is not None:
            return hit, t
    # A header often names only the start of its line, e.g. "@@ def total" for "def total(x):".
    want = fold_and_strip(context)
    for k in range(pos, len(index.contents)):
        if fold_and_strip(index.contents[k]).startswith(want):
            return k, PATCH_TIERS.index("indentation")
    return None


def _map_added(
    old_text: str,
    fp: FilePatch,
    number: int,
    hunk: PatchHunk,
    old: list[str],
    found: list[str],
    t: int,
) -> list[str]:
    """A tolerated hunk's added lines, written through the mapping of its old lines to the file's."""
    tier = TIERS[t]
    added = [_body(line) for line in hunk.lines if line[0] == "+"]
    try:
        mapping = LineMap(old, found, indentation=tier.indentation, fold=tier.fold)
        return [mapping.changed(line) for line in added]
    except Unmappable as exc:
        error = _conflict(old_text, fp, number, hunk, old)
        raise ToolError(
            "patch_conflict",
            f"Hunk {number} of {fp.path} matches only with tolerance {tier.name}, but "
            f"{exc.reason}, so the patch was not applied. " + error.message,
            {**(error.detail or {}), "reason": exc.reason},
        ) from None


def _conflict(
    old_text: str, fp: FilePatch, number: int, hunk: PatchHunk, old: list[str]
) -> ToolError:
    expected = old[:5] or ([hunk.context] if hunk.context else [])
    where = f"@@ {hunk.context} " if hunk.context else ""
    if hunk.old_start is not None:
        where = f"@@ -{hunk.old_start},{hunk.old_count} "
    message = (
        f"Hunk {number} ({where}starting {expected[0]!r}) of {fp.path} does not match the file: "
        "its context lines were not found."
        if expected
        else f"Hunk {number} of {fp.path} does not match the file."
    )
    miss = describe_miss(Lines.of(old_text), "\n".join(old or expected)) if expected else None
    if miss is not None:
        message += (
            f" The closest lines are {miss['start_line']}-{miss['end_line']}:\n"
            + "\n".join(miss["numbered"])
            + f"\nHint: {miss['hint']}."
        )
    message += f" Re-read {fp.path} and make the patch from its current lines."
    return ToolError(
        "patch_conflict",
        message,
        {"path": fp.path, "hunk": number, "expected": expected, "closest": miss},
    )
