"""Syntax checks over real files: false alarms, breaks caught, and what a check costs.

Run: python benchmarks/bench_syntax.py [--per-language N] [--lines N] [--repeat K]

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

Then the cost: the median time of one check, and a one-line `edit` of a 10,000-line Python file
through the session with `syntax_check` `warn` and `off`, side by side in one run (steady state: the
previous change's tree is kept and re-parsed incrementally; and cold: the first change of a file).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import statistics
import sys
import sysconfig
import tempfile
import time
import tomllib
from collections import defaultdict
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from tree_sitter import Node

import edittools.tools.edit as edit_module
from edittools import Session
from edittools.syntax import _trees as trees
from edittools.syntax import check_change, language_of
from edittools.syntax._errors import faults
from edittools.syntax._languages import grammar

SUFFIXES = {".py", ".js", ".json", ".c", ".h", ".hpp", ".md", ".yaml", ".toml", ".css", ".html",
            ".sh", ".go"}  # fmt: skip
MAX_BYTES = 200_000
BRACKETS = {")", "]", "}"}
QUOTES = {'"', "'", "`"}
NUMBERS = {"integer", "float", "number", "number_literal", "integer_literal", "int_literal",
           "float_literal", "decimal_integer_literal", "integer_scalar", "float_scalar"}  # fmt: skip
STRINGS = {"string_content", "string_fragment", "text", "inline", "attribute_value"}

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
    leaves = list(_leaves(trees.parse(lang, source).root_node))
    harmless: list[Edit] = []
    breaking: list[Edit] = []

    def pick(test: Callable[[Node], bool]) -> list[Node]:
        chosen = [leaf for leaf in leaves if test(leaf) and not leaf.is_missing]
        return rng.sample(chosen, min(per_kind, len(chosen)))

    for leaf in pick(lambda n: n.is_named and n.type.endswith("identifier")):
        harmless.append(("rename", _splice(source, leaf, (leaf.text or b"") + b"_x")))
    for leaf in pick(lambda n: n.is_named and n.type in NUMBERS):
        harmless.append(("number", _splice(source, leaf, b"42")))
    for leaf in pick(lambda n: n.is_named and n.type in STRINGS):
        harmless.append(("string", _splice(source, leaf, b"x" + (leaf.text or b""))))
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


def _flagged(name: str, old: str, new: str, times: list[float]) -> bool:
    start = time.perf_counter()
    check = check_change(name, old, new)
    times.append(time.perf_counter() - start)
    return check is not None and check.broken


def accuracy(per_language: int, per_kind: int, seed: int) -> None:
    """Print the false-alarm and catch table."""
    rng = random.Random(seed)
    print(f"{'language':<11}{'files':>6}{'broken':>7}{'harmless':>9}{'false':>6}"
          f"{'breaking':>9}{'flagged':>8}{'oracle':>7}{'caught':>8}{'ms/check':>9}")  # fmt: skip
    total_false = 0
    for language, paths in _files(per_language, seed).items():
        lang = grammar(language)
        assert lang is not None
        counts: dict[str, int] = defaultdict(int)
        times: list[float] = []
        oracle = _oracle(language)
        for path in paths:
            text = _text(path)
            if text is None or (oracle is not None and not oracle(text)):
                continue  # not UTF-8, or not valid to begin with by the reference parser
            name = path.name
            clean = not faults(trees.parse(lang, text.encode("utf-8")))
            counts["files"] += 1
            counts["broken"] += not clean
            harmless, breaking = _edits(text, language, rng, per_kind)
            for _, new in [("same", text), *harmless]:
                if oracle is not None and not oracle(new):
                    continue
                counts["harmless"] += 1
                counts["false"] += _flagged(name, text, new, times)
            for _, new in breaking:
                flagged = _flagged(name, text, new, times)
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
        print(f"{language:<11}{counts['files']:>6}{counts['broken']:>7}{counts['harmless']:>9}"
              f"{counts['false']:>6}{counts['breaking']:>9}{share:>8}{oracle_name:>7}"
              f"{caught:>8}{median:>9.2f}")  # fmt: skip
    print(f"false alarms in total: {total_false}")


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


def cost(lines: int, repeat: int) -> None:
    """Print the edit cost on a generated file with `lines` lines and on a real module that long."""
    text = _python_file(lines)
    middle = f"def function_{(lines // 16) * 8}("
    _cost(f"a generated {lines}-line Python file", text, middle, repeat)
    real = _real_module(lines)
    if real is not None:
        name, text, middle = real
        _cost(f"{name} ({text.count(chr(10))} lines, installed)", text, middle, repeat)


def _cost(title: str, text: str, middle: str, repeat: int) -> None:
    """Print the edit cost of the check on a large Python file, warn against off, in one run.

    Each round edits with `off` and with `warn` (in alternating order, after a sync), and the extra
    cost is the median of the rounds' differences, so a busy machine slows both sides alike. The
    check's own time inside the `warn` edits is measured too.
    """
    assert text.count(middle) == 1
    renamed = middle.replace("self.", "self .", 1) if "self." in middle else middle + "  # x"
    renamed = middle.replace("(", "_a(", 1) if middle.startswith("def ") else renamed
    spent: list[float] = []
    original_vet = edit_module.vet

    def timed_vet(ws: Any, *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return original_vet(ws, *args, **kwargs)
        finally:
            if ws.options.syntax_check != "off":
                spent.append(time.perf_counter() - start)

    cases = ("off", "warn", "cold")  # cold: warn with no kept tree, as on a file's first change
    times: dict[str, list[float]] = {case: [] for case in cases}
    with tempfile.TemporaryDirectory() as root:
        for case in cases:  # one file per case: a change by one case must not touch another's
            Path(root, f"{case}.py").write_text(text)
        size = Path(root, "off.py").stat().st_size
        sessions = {p: Session(root, require_read=False, syntax_check=p) for p in ("off", "warn")}
        current = dict.fromkeys(cases, middle)

        def run(case: str) -> None:
            new = renamed if current[case] == middle else middle
            session = sessions["off" if case == "off" else "warn"]
            os.sync()  # the previous edit's write-back must not land on this one
            start = time.perf_counter()
            result = session.edit(f"{case}.py", current[case], new)
            times[case].append(time.perf_counter() - start)
            assert not result.is_error, result.value
            current[case] = new

        edit_module.vet = timed_vet
        try:
            run("warn")  # the first change of the file: from then on its tree is kept
            spent.clear()
            times["warn"].clear()
            for round_ in range(repeat):
                for case in ("off", "warn") if round_ % 2 else ("warn", "off"):
                    run(case)
            check = statistics.median(spent)
            # Clearing the kept trees makes every change a first one.
            for _ in range(repeat):
                trees._trees.clear()
                run("cold")
        finally:
            edit_module.vet = original_vet
        for s in sessions.values():
            s.close()
    steady = statistics.median(w - o for w, o in zip(times["warn"], times["off"], strict=True))
    cold = statistics.median(times["cold"]) - statistics.median(times["off"])
    print(f"one-line edit of {title} ({size} bytes), {repeat} rounds:")
    print(
        f"  edit with syntax_check off           {statistics.median(times['off']) * 1000:7.2f} ms"
    )
    print(
        f"  warn, tree kept: extra per edit      {steady * 1000:+7.2f} ms  (median of paired rounds)"
    )
    print(f"  warn, tree kept: the check itself    {check * 1000:7.2f} ms")
    print(f"  warn, first change of a file: extra  {cold * 1000:+7.2f} ms")
    source = text.encode()
    lang = grammar("python")
    assert lang is not None
    full = statistics.median(_timed(lambda: trees.parse(lang, source)) for _ in range(repeat))
    print(f"  (a full parse of the file alone: {full * 1000:.2f} ms)")


def spread(lines: int, count: int, seed: int) -> None:
    """Print how the check's own time spreads over edits at random lines of a real module.

    One position (the cost table's) can be a lucky one: tree-sitter's incremental re-parse costs
    what the parser must redo around the change, which depends on where the change lands.
    """
    real = _real_module(lines)
    if real is None:
        print(f"note: no installed module of about {lines} lines; spread skipped")
        return
    name, text, _ = real
    rows = text.split("\n")
    rng = random.Random(seed)
    check_change("m.py", None, text)  # the first parse: later checks start from a kept tree
    times: list[float] = []
    while len(times) < 2 * count:
        i = rng.randrange(len(rows))
        if not rows[i].strip() or any(c in rows[i] for c in "#'\"\\"):
            continue
        changed = "\n".join([*rows[:i], rows[i] + "  # edited", *rows[i + 1 :]])
        times.append(_timed(partial(check_change, "m.py", text, changed)))
        times.append(_timed(partial(check_change, "m.py", changed, text)))  # and back
    times.sort()
    ms = [t * 1000 for t in times]
    print(
        f"check of a one-line edit at {count} random lines of {name} (and back): "
        f"median {statistics.median(ms):.1f} ms, 90th percentile {ms[int(len(ms) * 0.9)]:.1f} "
        f"ms, max {ms[-1]:.1f} ms"
    )


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
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    accuracy(args.per_language, args.per_kind, args.seed)
    print()
    cost(args.lines, args.repeat)
    spread(args.lines, 60, args.seed)


if __name__ == "__main__":
    main()
