"""Carrying an edit through a tolerant match: the line mapping every tolerance applies through.

A tolerant tier pairs each line of `old_string` with one line of the file (equal after the tier's
normalisation). `new_string` goes through the same pairing, line by line:

- a line that `old_string` also has, trailing whitespace aside (aligned as a diff aligns them, the
  lines around a change kept whole: `kept_opcodes`), is written as its paired file line, bytes
  and all, so an unchanged line never picks up the model's drift;
- any other line keeps its text, with its indentation carried over by the map the pairs prove (one
  file indentation per `old_string` indentation, a nesting step per level) and the Unicode
  punctuation the pairs prove the file writes as ASCII folded back.

Whatever the pairs do not determine (two file indentations for one of `old_string`, a step whose
width the pairs leave open, a nesting the file does not have) raises `Unmappable`: a refusal,
never a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher

from edittools.tools.matching._textlines import WS, Normalizer, indent_of, strip_trailing


class Unmappable(Exception):
    """The pairs do not determine how a line of `new_string` is written; `reason` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class IndentMap:
    """How the indentations of `old_string` stand for the file's, proven by paired lines."""

    def __init__(self, pairs: Sequence[tuple[str, str]]) -> None:
        table: dict[str, str] = {}
        for old, found in pairs:
            if not old.strip(WS):
                continue
            a, b = indent_of(old), indent_of(found)
            if table.setdefault(a, b) != b:
                raise Unmappable(
                    f"old_string indents lines with {a!r} where the file has both "
                    f"{table[a]!r} and {b!r}"
                )
        if len(set(table.values())) != len(table):
            raise Unmappable("old_string nests lines that the file has at one level")
        self.table = table
        self.identity = all(a == b for a, b in table.items())
        self.steps: dict[str, str] = {}
        for key in sorted(table, key=len):
            parents = [p for p in table if len(p) < len(key) and key.startswith(p)]
            if not parents:
                continue
            mine = table[key]
            # A file line aligned with a space under a tab-indented one (a C comment's " * ")
            # extends the tab level, not the aligned one: take the deepest parent that fits.
            fitting = [
                p for p in parents if len(table[p]) < len(mine) and mine.startswith(table[p])
            ]
            if not fitting:
                raise Unmappable("old_string nests its lines differently from the file")
            parent = max(fitting, key=len)
            self._add_step(key[len(parent) :], mine[len(table[parent]) :])
        self.file_indents = set(table.values())
        self.old_chars = {c for a in table for c in a}

    def _add_step(self, old: str, found: str) -> None:
        known = self.steps.get(old)
        if known is not None and known != found:
            raise Unmappable(f"one step of {old!r} in old_string is both {known!r} and {found!r}")
        for o, f in self.steps.items():
            for short, long in ((o, f), (old, found)), ((old, found), (o, f)):
                n = _times(long[0], short[0])
                # Steps written with different characters in the file are different things
                # (an alignment space beside a tab level), not one width measured twice.
                if n and set(long[1]) == set(short[1]) and long[1] != short[1] * n:
                    raise Unmappable(
                        f"the pairs give {short[0]!r} as {short[1]!r} but {long[0]!r} as "
                        f"{long[1]!r}, so the tab width is not determined"
                    )
        self.steps[old] = found

    def _step(self, rest: str) -> str | None:
        if not rest:
            return ""
        for old, found in sorted(self.steps.items(), key=lambda s: -len(s[0])):
            n = _times(rest, old)
            if n:
                return found * n
        return None

    def translate(self, indent: str) -> str:
        """The file's indentation for a line of `new_string` indented with `indent`."""
        if indent in self.table:
            return self.table[indent]
        if self.identity:
            return indent
        if indent in self.file_indents and self.old_chars and not set(indent) & self.old_chars:
            # Written as a paired file line is, with none of the characters old_string indents
            # with: copied from the file, already in its style.
            return indent
        base = max((k for k in self.table if indent.startswith(k)), key=len, default=None)
        if base is not None:
            rest = indent[len(base) :]
            step = self._step(rest)
            if step is not None:
                return self.table[base] + step
        else:
            for key in sorted(self.table, key=len):
                if key.startswith(indent):
                    step = self._step(key[len(indent) :])
                    found = self.table[key]
                    if step and found.endswith(step):
                        return found[: len(found) - len(step)]
        raise Unmappable(
            f"new_string indents a line with {indent!r}, which the lines of old_string do not "
            "map to an indentation of the file"
        )


def _times(text: str, unit: str) -> int:
    """How many times `unit` repeats to make `text` (0 when it does not)."""
    if not unit or len(text) % len(unit):
        return 0
    n = len(text) // len(unit)
    return n if unit * n == text else 0


def punctuation_map(pairs: Sequence[tuple[str, str]], fold: Normalizer) -> dict[str, str]:
    """Unicode punctuation of `old_string` that the file writes, everywhere in the pairs, as ASCII.

    Only that direction is ever applied to changed lines: turning a model's ASCII into the file's
    curly quotes could rewrite code, while a curly quote the file never uses is never wanted.
    """
    mapped: dict[str, set[str]] = {}
    counts: dict[str, int] = {}
    for old, found in pairs:
        o, f = old.strip(WS), found.strip(WS)
        i = j = 0
        while i < len(o) and j < len(f):
            if o[i] == f[j]:
                i += 1
                j += 1
                continue
            step = _fold_step(o, i, f, j, fold)
            if step is None:
                break
            a, b = step
            if not a.isascii() and b.isascii() and b.strip(WS):
                mapped.setdefault(a, set()).add(b)
                counts[a] = counts.get(a, 0) + 1
            i += len(a)
            j += len(b)
    olds = "\n".join(old for old, _ in pairs)
    return {
        a: next(iter(b)) for a, b in mapped.items() if len(b) == 1 and olds.count(a) == counts[a]
    }


def _fold_step(o: str, i: int, f: str, j: int, fold: Normalizer) -> tuple[str, str] | None:
    for n in (1, 2, 3):
        for m in (1, 2, 3):
            a, b = o[i : i + n], f[j : j + m]
            if len(a) == n and len(b) == m and fold(a) == fold(b) and fold(a):
                return a, b
    return None


class LineMap:
    """Old_string's lines paired with the file's found lines, and what follows for new lines."""

    def __init__(
        self,
        old_lines: Sequence[str],
        found: Sequence[str],
        *,
        indentation: bool,
        fold: Normalizer | None,
    ) -> None:
        self.old_lines = list(old_lines)
        self.found = list(found)
        pairs = list(zip(self.old_lines, self.found, strict=True))
        self.indents = IndentMap(pairs) if indentation else None
        self.punctuation = punctuation_map(pairs, fold) if fold is not None else {}

    def changed(self, line: str) -> str:
        """A line that is new or changed, written with the conventions the pairs prove."""
        if not line.strip(WS):
            return line
        for a, b in self.punctuation.items():
            line = line.replace(a, b)
        if self.indents is None:
            return line
        indent = indent_of(line)
        return self.indents.translate(indent) + line[len(indent) :]

    def transfer(self, new_lines: Sequence[str]) -> list[str]:
        """`new_string`'s lines as the file gets them: unchanged ones as the file's own lines."""
        out: list[str] = []
        for tag, i1, _, j1, j2 in kept_opcodes(kept_as(self.old_lines), kept_as(new_lines)):
            if tag == "equal":
                out += self.found[i1 : i1 + (j2 - j1)]
            else:
                out += [self.changed(line) for line in new_lines[j1:j2]]
        return out


def kept_as(lines: Sequence[str]) -> list[str]:
    """The lines as old_string's and new_string's are compared to tell which new_string keeps.

    Trailing whitespace is left out (a whitespace-only line is empty): every line tier forgives
    it, so it is drift on either side, and a line that differs from one of old_string's only
    there is that line, written as the file has it. Compared as sent, drift on one side made
    every such line a change, written with the model's whitespace, and left only the blank
    lines for the diff to pair. Indentation is compared: a line moved to another column is a
    change, carried through the indentation map.
    """
    return [strip_trailing(line) for line in lines]


Opcode = tuple[str, int, int, int, int]


def kept_opcodes(
    old: Sequence[str], new: Sequence[str], *, tail_first: bool = False
) -> list[Opcode]:
    """`difflib` opcodes turning `old` into `new`, their common first and last lines equal.

    `SequenceMatcher` pairs the longest common run first, which in a run of alike lines (blank
    ones) is not the run a single change leaves: blank, X, blank, blank less X paired the last
    two blank lines and took the third for an added line, written as sent instead of as the
    file's. A change's unchanged surroundings are kept whole, as diff tools trim them; only
    what lies between is left to the matcher. Where the two ends share lines (a change among
    alike lines), the end taken first keeps them: `tail_first` gives the other reading.
    """
    n = min(len(old), len(new))
    head = tail = 0
    for first in (not tail_first, tail_first):
        if first:
            while head < n - tail and old[head] == new[head]:
                head += 1
        else:
            while tail < n - head and old[-1 - tail] == new[-1 - tail]:
                tail += 1
    a_end, b_end = len(old) - tail, len(new) - tail
    ops: list[Opcode] = [("equal", 0, head, 0, head)] if head else []
    middle = SequenceMatcher(None, old[head:a_end], new[head:b_end], autojunk=False)
    ops += [
        (tag, i1 + head, i2 + head, j1 + head, j2 + head)
        for tag, i1, i2, j1, j2 in middle.get_opcodes()
    ]
    if tail:
        ops.append(("equal", a_end, len(old), b_end, len(new)))
    return ops
