"""Syntax checks over real files: false alarms, breaks caught, and what a check costs.

Run: python benchmarks/bench_syntax.py [--per-language N] [--lines N] [--rounds N] [--cost-only]

Files come from the installed Python packages and the system's shared data and headers (.py, .js,
.json, .c/.h, .hpp, .md, .yaml, .toml, .css, .html, .sh, .go), at most N per language, picked with a
fixed seed. For each file:

(a) an unchanged re-write and harmless edits (an identifier renamed, a number or a string's content
    changed, all found through the parse so that none lands in a comment) must give no warning:
    the false-alarm rate, which must be 0. Files that already have syntax errors get the same
    harmless edits: still no warning is the promise.
(b) generated breaking edits — a closing bracket deleted, a quote deleted, a colon dropped, a block's
    body dedented — on every file, already broken ones too: the share flagged per language. Where the standard library has
    a parser (Python: `ast`, JSON: `json`, TOML: `tomllib`), it says which edits really break the
    file; the table then gives the share of those flagged, and any flag on an edit it accepts counts
    as a false alarm.

Python changes are checked twice: from scratch, and with the old text's tree kept (as after a read
or an earlier change), where a change inside one statement is checked on that statement alone;
`kept≠` counts the changes where the two answers differ (it must be 0), `fragment` the share the
statement alone answered.

Then the cost: one-line edits at random lines of a generated 10,000-line Python file and of the
installed module closest to that length, through the session with `syntax_check` `warn` and `off`
side by side in one run: the read, the first edit after it (a full parse: nothing is parsed
ahead), a later edit (checked against the tree the first kept), and the first edit with nothing
read before; median, 90th percentile and maximum of the added time per edit and
of the check's own time.
"""

from __future__ import annotations

import argparse
import ast
import json
import keyword
import math
import os
import random
import re
import statistics
import sys
import sysconfig
import tempfile
import time
import tomllib
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from tree_sitter import Node

import edittools.tools.edit as edit_module
from edittools import Session
from edittools.syntax import _trees as trees
from edittools.syntax import check_change, language_of
from edittools.syntax._errors import faults
from edittools.syntax._languages import checks_fragments, grammar

SUFFIXES = {".py", ".js", ".json", ".c", ".h", ".hpp", ".md", ".yaml", ".toml", ".css", ".html",
            ".sh", ".go"}  # fmt: skip
MAX_BYTES = 200_000
BRACKETS = {")", "]", "}"}
QUOTES = {'"', "'", "`"}
NUMBERS = {"integer", "float", "number", "number_literal", "integer_literal", "int_literal",
           "float_literal", "decimal_integer_literal", "integer_scalar", "float_scalar"}  # fmt: skip
STRINGS = {"string_content", "string_fragment", "text", "inline", "attribute_value"}

SOFT_KEYWORDS = {"match", "case", "type", "_"}

Edit = tuple[str, str]  # (kind, new text)


def _roots() -> list[Path]:
    paths = sysconfig.get_paths()
    roots = {Path(paths["purelib"]), Path(paths["stdlib"])}
    roots |= {Path(sys.base_prefix) / "lib"} | {
        Path("/usr", d) for d in ("share", "include", "lib")
    }
    return sorted(root for root in roots if root.is_dir())


def _files(per_language: int, seed: int) -> dict[str, list[Path]]:
    found: dict[str, list[Path]] = defaultdict(list)
    seen: set[Path] = set()
    for root in _roots():
        for path in root.rglob("*"):
            if path.suffix not in SUFFIXES or path.is_symlink() or not path.is_file():
                continue
            real = path.resolve()
            if real in seen or not 0 < path.stat().st_size <= MAX_BYTES:
                continue
            seen.add(real)
            language = language_of(path.name)
            if language is not None:
                found[language].append(path)
    rng = random.Random(seed)
    return {
        language: rng.sample(sorted(paths), min(per_language, len(paths)))
        for language, paths in sorted(found.items())
    }


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return None


def _leaves(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        node = stack.pop()
        if node.child_count == 0:
            yield node
        else:
            stack.extend(reversed(node.children))


def _splice(text: bytes, node: Node, replacement: bytes) -> str:
    return (text[: node.start_byte] + replacement + text[node.end_byte :]).decode("utf-8")


def _edits(
    text: str, language: str, rng: random.Random, per_kind: int
) -> tuple[list[Edit], list[Edit]]:
    """Harmless and breaking edits of `text`, found through its parse tree."""
    lang = grammar(language)
    assert lang is not None
    source = text.encode("utf-8")
    leaves = list(_leaves(trees.parse(lang, source, math.inf).root_node))
    harmless: list[Edit] = []
    breaking: list[Edit] = []

    def pick(test: Callable[[Node], bool]) -> list[Node]:
        chosen = [leaf for leaf in leaves if test(leaf) and not leaf.is_missing]
        return rng.sample(chosen, min(per_kind, len(chosen)))

    for leaf in pick(lambda n: n.is_named and n.type.endswith("identifier")):
        harmless.append(
            ("rename", _splice(source, leaf, source[leaf.start_byte : leaf.end_byte] + b"_x"))
        )
    for leaf in pick(lambda n: n.is_named and n.type in NUMBERS):
        harmless.append(("number", _splice(source, leaf, b"42")))
    for leaf in pick(lambda n: n.is_named and n.type in STRINGS):
        harmless.append(
            ("string", _splice(source, leaf, b"x" + source[leaf.start_byte : leaf.end_byte]))
        )
    for leaf in pick(lambda n: n.type in BRACKETS):
        breaking.append(("bracket", _splice(source, leaf, b"")))
    for leaf in pick(lambda n: n.type in QUOTES):
        breaking.append(("quote", _splice(source, leaf, b"")))
    for leaf in pick(lambda n: n.type == ":"):
        breaking.append(("colon", _splice(source, leaf, b"")))
    lines = text.split("\n")
    bodies = [i for i in range(1, len(lines)) if _indent(lines[i]) > _indent(lines[i - 1]) > -1
              and lines[i - 1].rstrip().endswith(":")]  # fmt: skip
    for i in rng.sample(bodies, min(per_kind, len(bodies))):
        dedented = [*lines[:i], lines[i].lstrip(), *lines[i + 1 :]]
        breaking.append(("dedent", "\n".join(dedented)))
    return harmless, breaking


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip()) if line.strip() else -1


def _oracle(language: str) -> Callable[[str], bool] | None:
    """A standard-library parser for `language`: True when the text is valid."""

    def accepts(parse: Callable[[str], object]) -> Callable[[str], bool]:
        def check(text: str) -> bool:
            try:
                parse(text)
            except (SyntaxError, ValueError):
                return False
            return True

        return check

    return {
        "python": accepts(ast.parse),
        "json": accepts(json.loads),
        "toml": accepts(tomllib.loads),
    }.get(language)


class _Checker:
    """Checks a change from scratch and, for languages checked by fragments, also with the old
    text's tree kept (as after a read); counts where the two differ and how often a fragment
    answered. Returns whether either flagged the change."""

    def __init__(self, language: str, counts: dict[str, int], times: list[float]) -> None:
        self.language, self.counts, self.times = language, counts, times
        self.kept: trees.Kept | None = None

    def start_file(self, text: str) -> None:
        lang = grammar(self.language)
        assert lang is not None
        source = text.encode("utf-8")
        fragments = checks_fragments(self.language)
        self.kept = (
            trees.Kept(lang, source, trees.parse(lang, source, math.inf)) if fragments else None
        )

    def flagged(self, name: str, old: str, new: str) -> bool:
        trees._trees.clear()
        start = time.perf_counter()
        check = check_change(name, old, new)
        self.times.append(time.perf_counter() - start)
        broken = check is not None and check.broken
        if self.kept is None:
            return broken
        trees._trees.clear()
        trees.keep(name, replace(self.kept, tree=self.kept.tree.copy()))
        with_tree = check_change(name, old, new)
        after = trees._trees.get(name)
        self.counts["kept"] += 1
        self.counts["fragment"] += after is not None and bool(after.regions)
        self.counts["differ"] += with_tree != check
        return broken or (with_tree is not None and with_tree.broken)


def accuracy(per_language: int, per_kind: int, seed: int) -> None:
    """Print the false-alarm and catch table."""
    rng = random.Random(seed)
    print(f"{'language':<11}{'files':>6}{'broken':>7}{'harmless':>9}{'false':>6}"
          f"{'breaking':>9}{'flagged':>8}{'oracle':>7}{'caught':>8}{'ms/check':>9}"
          f"{'kept≠':>7}{'fragment':>9}")  # fmt: skip
    total_false = total_differ = 0
    for language, paths in _files(per_language, seed).items():
        lang = grammar(language)
        assert lang is not None
        counts: dict[str, int] = defaultdict(int)
        times: list[float] = []
        oracle = _oracle(language)
        checker = _Checker(language, counts, times)
        for path in paths:
            text = _text(path)
            if text is None or (oracle is not None and not oracle(text)):
                continue  # not UTF-8, or not valid to begin with by the reference parser
            name = path.name
            encoded = text.encode("utf-8")
            clean = not faults(trees.parse(lang, encoded, math.inf), encoded)
            counts["files"] += 1
            counts["broken"] += not clean
            harmless, breaking = _edits(text, language, rng, per_kind)
            checker.start_file(text)
            for _, new in [("same", text), *harmless]:
                if oracle is not None and not oracle(new):
                    continue
                counts["harmless"] += 1
                counts["false"] += checker.flagged(name, text, new)
            for _, new in breaking:
                flagged = checker.flagged(name, text, new)
                counts["breaking"] += 1
                counts["flagged"] += flagged
                if oracle is not None:
                    if oracle(new):
                        counts["false"] += flagged  # valid by the reference parser: no alarm due
                    else:
                        counts["invalid"] += 1
                        counts["caught"] += flagged
        total_false += counts["false"]
        share = f"{counts['flagged'] / counts['breaking']:.0%}" if counts["breaking"] else "-"
        caught = f"{counts['caught'] / counts['invalid']:.0%}" if counts["invalid"] else "-"
        oracle_name = str(counts["invalid"]) if oracle is not None else "-"
        median = statistics.median(times) * 1000 if times else 0.0
        differ = str(counts["differ"]) if counts["kept"] else "-"
        fragment = f"{counts['fragment'] / counts['kept']:.0%}" if counts["kept"] else "-"
        total_differ += counts["differ"]
        print(f"{language:<11}{counts['files']:>6}{counts['broken']:>7}{counts['harmless']:>9}"
              f"{counts['false']:>6}{counts['breaking']:>9}{share:>8}{oracle_name:>7}"
              f"{caught:>8}{median:>9.2f}{differ:>7}{fragment:>9}")  # fmt: skip
    print(f"false alarms in total: {total_false}; checks with a kept tree that differ from "
          f"checks from scratch: {total_differ}")  # fmt: skip


def _python_file(lines: int) -> str:
    rng = random.Random(3)
    out: list[str] = []
    while len(out) < lines:
        n = len(out)
        out += [
            f"def function_{n}(alpha, beta={rng.randint(0, 99)}):",
            f'    """Return a value for case {n}."""',
            f"    total = alpha * {rng.randint(1, 9)} + beta",
            "    for index in range(3):",
            "        total += index",
            f"    return [total, {{'k': {n}}}, (alpha, beta)]",
            "",
            "",
        ]
    return "\n".join(out[:lines]) + "\n"


def _real_module(lines: int) -> tuple[str, str, str] | None:
    """The installed package module closest to `lines` lines (within 20%), and a one-word edit
    of its middle line that names `self`: (name, text, the line to replace)."""
    best: tuple[int, Path] | None = None
    for path in Path(sysconfig.get_paths()["purelib"]).rglob("*.py"):
        try:
            count = path.read_bytes().count(b"\n")
        except OSError:
            continue
        if abs(count - lines) <= lines // 5 and (best is None or abs(count - lines) < best[0]):
            best = (abs(count - lines), path)
    text = None if best is None else _text(best[1])
    if best is None or text is None:
        return None
    rows = text.split("\n")
    middle = next(r for r in rows[len(rows) // 2 :] if "self." in r and text.count(r) == 1)
    return f"{best[1].parent.name}/{best[1].name}", text, middle


def cost(lines: int, rounds: int, seed: int) -> None:
    """Print the edit cost on a generated file with `lines` lines and on a real module that long."""
    _cost(f"a generated {lines}-line Python file", _python_file(lines), rounds, seed)
    real = _real_module(lines)
    if real is None:
        print(f"note: no installed module of about {lines} lines; its cost table is skipped")
        return
    name, text, _ = real
    _cost(f"{name} ({text.count(chr(10))} lines, installed)", text, rounds, seed)


def _renames(text: str, count: int, seed: int) -> list[tuple[str, str]]:
    """One-line edits at `count` random lines: the line's first name renamed (a harmless edit)."""
    rows = text.split("\n")
    rng = random.Random(seed)
    edits: list[tuple[str, str]] = []
    while len(edits) < count:
        row = rows[rng.randrange(len(rows))]
        name = re.search(r"\b[A-Za-z_][A-Za-z0-9_]*\b", row)
        if name is None or text.count(row) != 1 or name.group() in SOFT_KEYWORDS:
            continue
        if row[name.end() : name.end() + 1] in ("'", '"'):
            continue  # a string's prefix (f'', rb""), not a name
        if keyword.iskeyword(name.group()):
            continue
        edits.append((row, row[: name.end()] + "_x" + row[name.end() :]))
    return edits


def _cost(title: str, text: str, rounds: int, seed: int) -> None:
    """Print what the check adds to one-line edits of a large Python file, warn against off.

    Each round takes a random line: the file is restored and read; then the line is edited (the
    first edit after the read), and another random line (a later edit). `off` and `warn`
    sessions do the same in alternating order, each on its own copy, after a sync; the extra cost is a round's warn time minus its off time.
    The check's own time is measured inside the `warn` edits too. Then the same first edit with no
    read at all.
    """
    firsts = _renames(text, rounds, seed)
    laters = _renames(text, rounds, seed + 1)
    spent: list[float] = []
    original_vet = edit_module.vet

    def timed_vet(ws: Any, *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return original_vet(ws, *args, **kwargs)
        finally:
            if ws.options.syntax_check != "off":
                spent.append(time.perf_counter() - start)

    cases = ("off", "warn")
    times: dict[str, list[float]] = defaultdict(list)
    checks: dict[str, list[float]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as root:
        sessions = {case: Session(root, syntax_check=case) for case in cases}
        unread = {case: Session(root, syntax_check=case, require_read=False) for case in cases}

        def timed_edit(case: str, path: str, old: str, new: str, label: str) -> None:
            os.sync()  # the previous edit's write-back must not land on this one
            spent.clear()
            start = time.perf_counter()
            result = (unread if label == "no read" else sessions)[case].edit(path, old, new)
            times[f"{label} {case}"].append(time.perf_counter() - start)
            assert not result.is_error, result.value
            assert "Syntax check" not in result.value, result.value
            if case == "warn":
                checks[label] += spent

        def round_(case: str, first: tuple[str, str], later: tuple[str, str]) -> None:
            path = f"{case}.py"
            Path(root, path).write_text(text)
            os.sync()
            start = time.perf_counter()
            sessions[case].read(path)
            times[f"read {case}"].append(time.perf_counter() - start)
            timed_edit(case, path, *first, "first")
            if later[0] in first[0]:
                return
            timed_edit(case, path, *later, "later")

        edit_module.vet = timed_vet
        try:
            for number, (first, later) in enumerate(zip(firsts, laters, strict=True)):
                for case in cases if number % 2 else reversed(cases):
                    round_(case, first, later)
            for number, first in enumerate(firsts[: max(3, rounds // 4)]):
                for label, read_first in (("no read", False),):
                    for case in cases if number % 2 else reversed(cases):
                        path = f"{case}.py"
                        Path(root, path).write_text(text)
                        os.sync()
                        trees._trees.clear()
                        if read_first:
                            sessions[case].read(path)
                        timed_edit(case, path, *first, label)
        finally:
            edit_module.vet = original_vet
        for session in [*sessions.values(), *unread.values()]:
            session.close()
    size = len(text.encode())
    print(f"one-line edits of {title} ({size} bytes), {rounds} random lines:")
    print(f"{'':34}{'off ms':>8}{'warn ms':>9}{'ratio':>7}{'extra: median':>15}{'p90':>7}{'max':>7}"
          f"{'check: median':>15}{'p90':>7}{'max':>7}")  # fmt: skip
    for label, name in (
        ("read", "the read"),
        ("first", "first edit after a read"),
        ("later", "a later edit"),
        ("no read", "first edit, nothing parsed"),
    ):
        off, warn = times[f"{label} off"], times[f"{label} warn"]
        extra = sorted(w - o for w, o in zip(warn, off, strict=True))
        own = sorted(checks.get(label, []))
        row = f"  {name:<32}{_ms(statistics.median(off)):>8}{_ms(statistics.median(warn)):>9}"
        row += f"{statistics.median(warn) / statistics.median(off):>6.2f}x"
        row += f"{_ms(statistics.median(extra), sign=True):>15}{_ms(_p90(extra), sign=True):>7}"
        row += f"{_ms(extra[-1], sign=True):>7}"
        if own:
            row += f"{_ms(statistics.median(own)):>15}{_ms(_p90(own)):>7}{_ms(own[-1]):>7}"
        print(row)
    lang = grammar("python")
    assert lang is not None
    source = text.encode()
    full = statistics.median(_timed(lambda: trees.parse(lang, source, math.inf)) for _ in range(5))
    print(f"  (a full parse of the file alone: {full * 1000:.2f} ms)")


def _p90(values: list[float]) -> float:
    return values[min(len(values) - 1, int(len(values) * 0.9))]


def _ms(seconds: float, *, sign: bool = False) -> str:
    return f"{seconds * 1000:+.2f}" if sign else f"{seconds * 1000:.2f}"


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    """Print both tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-language", type=int, default=60)
    parser.add_argument("--per-kind", type=int, default=2, help="edits of each kind per file")
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=60, help="random lines edited per file")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--cost-only", action="store_true", help="skip the accuracy table")
    args = parser.parse_args()
    if not args.cost_only:
        accuracy(args.per_language, args.per_kind, args.seed)
        print()
    cost(args.lines, args.rounds, args.seed)


if __name__ == "__main__":
    main()
