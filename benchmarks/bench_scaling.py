"""Inputs that once went quadratic, at growing sizes: the cost per unit must stay flat.

Run: python benchmarks/bench_scaling.py [--repeat K] [--only NAME ...] [--large]

The shapes table runs each shape through a `Session` on a real temporary root and state (one
fresh root per run; building the input is not timed) at 3-5 sizes, each double or more the one
before, and prints the median wall time, the time per unit and the growth: the time per unit
over the one at the size before (about 1 for linear work, about the size ratio for quadratic).
`cut` counts results whose diff was coarsened to its time budget (`minimal` false, said in the
result). `--large` adds the 20,000-file patch and the 16 MB line (minutes on a slow disk: each
new file is synced on its own).

The matching table times the matching and splicing alone, in memory (no disk), beside the
one-pass floor it should scale like (a `str.replace` of the same text, or splitting the file into
lines), and the ratio of the two.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from edittools import Session
from edittools._errors import ToolError
from edittools.artifacts import ToolResult
from edittools.change._splice import splice_spans
from edittools.tools.matching._matching import locate
from edittools.tools.patch._patch import apply_file_patch, parse_patch

# --- shapes through a session ----------------------------------------------------------------

Run = Callable[[], ToolResult | object]
"""A timed step; a `ToolResult` it returns is checked (no error) and counted when cut."""


@dataclass(frozen=True)
class Shape:
    """An input shape: `prepare(root, size)` builds the input and returns the timed steps."""

    name: str
    unit: str
    sizes: tuple[int, ...]
    prepare: Callable[[Session, Path, int], list[Run]]
    large: tuple[int, ...] = ()


@contextmanager
def _root() -> Iterator[tuple[Session, Path]]:
    base = Path(tempfile.mkdtemp(prefix="bench-scaling-"))
    try:
        (base / "root").mkdir()
        with Session(base / "root", state_dir=base / "state", syntax_check="off") as s:
            yield s, base / "root"
    finally:
        _remove(base)


def _remove(base: Path) -> None:
    # Python's recursive removers overflow on chains thousands of folders deep; rm walks them.
    subprocess.run(["rm", "-rf", "--", str(base)], check=False)


def _nested_write(s: Session, root: Path, depth: int) -> list[Run]:
    path = "a/" * depth + "f.txt"
    return [lambda: s.write(path, "x\n"), lambda: s.undo(path)]


def _added_files(s: Session, root: Path, files: int) -> list[Run]:
    body = "".join(f"*** Add File: d{i // 1000}/f{i}.txt\n+line {i}\n" for i in range(files))
    patch = f"*** Begin Patch\n{body}*** End Patch\n"
    return [lambda: s.apply_patch(patch)]


def _long_line(s: Session, root: Path, megabytes: int) -> list[Run]:
    (root / "f.txt").write_bytes(b"x" * (megabytes << 20) + b" MARK " + b"y" * 100 + b"\n")
    s.read("f.txt", limit=1)
    return [lambda: s.edit("f.txt", "MARK", "MORK"), lambda: s.undo("f.txt")]


def _many_hunks(s: Session, root: Path, hunks: int) -> list[Run]:
    lines = [f"value_{i} = compute({i})" for i in range(hunks * 10)]
    (root / "f.py").write_text("\n".join(lines) + "\n")
    s.read("f.py", limit=1)
    parts = ["--- a/f.py\n+++ b/f.py\n"]
    for h in range(hunks):
        k = h * 10 + 2
        parts.append(f"@@ -{k},2 +{k},2 @@\n {lines[k - 1]}\n-{lines[k]}\n+{lines[k]}  # c\n")
    patch = "".join(parts)
    return [lambda: s.apply_patch(patch), lambda: s.undo("f.py")]


def _deep_review(s: Session, root: Path, depth: int) -> list[Run]:
    path = "a/" * depth + "f.txt"
    s.write(path, "one\n")
    cp = s.checkpoint("before")
    s.write(path, "two\n")
    return [lambda: s.changes(since=cp), lambda: s.rewind(cp)]


def _reordered(s: Session, root: Path, lines: int) -> list[Run]:
    rng = random.Random(lines)
    body = [f"line number {i} of the file {rng.random()}\n" for i in range(lines)]
    (root / "f.txt").write_text("".join(body))
    s.read("f.txt", limit=1)
    rng.shuffle(body)
    shuffled = "".join(body)
    return [lambda: s.write("f.txt", shuffled), lambda: s.undo("f.txt")]


def _journal(s: Session, root: Path, entries: int) -> list[Run]:
    """A state index holding `entries` journaled results, undo entries and a checkpoint per ten."""
    (root / "f.txt").write_text("a\n")
    db = sqlite3.connect(s.sandbox.index.path)
    with db:
        db.execute("INSERT INTO intents (state, created) VALUES ('done', 0)")
        intent = db.execute("SELECT MAX(id) FROM intents").fetchone()[0]
        db.executemany("INSERT INTO journal (event) VALUES (?)",
                       ((json.dumps(_event(n)),) for n in range(entries)))  # fmt: skip
        db.executemany(
            "INSERT INTO changes (path, before_blob, after_digest, intent) VALUES (?, ?, ?, ?)",
            ((f"pkg/m{n % 300}.py", f"{n:064x}", f"{n + 1:064x}", intent) for n in range(entries)),
        )
        db.executemany(
            "INSERT INTO checkpoints (auto, created, change_mark, intent_mark) "
            "VALUES ('session', 0, ?, ?)",
            ((n, intent) for n in range(0, entries, 10)),
        )
    db.close()
    state, where = s.sandbox.state_path.parent, root

    def open_edit() -> ToolResult:
        with Session(where, state_dir=state, syntax_check="off") as fresh:
            fresh.read("f.txt")
            return fresh.edit("f.txt", "a", "b")

    return [
        open_edit,
        lambda: sum(1 for _ in s.iter_journal()),
        lambda: len(s.checkpoints()),
    ]


def _event(n: int) -> dict[str, object]:
    hunk = {"old_start": n % 500 + 1, "old_lines": 1, "new_start": n % 500 + 1, "new_lines": 1,
            "lines": [f"-value_{n} = compute({n})", f"+value_{n} = compute({n + 1})"]}  # fmt: skip
    payload = {"path": f"pkg/m{n % 300}.py", "operation": "modify", "granularity": "file",
               "hunks": [hunk], "stats": {"added": 1, "removed": 1}}  # fmt: skip
    artifact = {"schema": "edittools.tool-artifact", "version": 1, "kind": "diff",
                "status": "success", "title": f"pkg/m{n % 300}.py +1 -1", "payload": payload}  # fmt: skip
    return {"id": f"edit-bench-{n}", "name": "edit", "display": None,
            "value": f"Edited pkg/m{n % 300}.py (+1 -1).", "is_error": False,
            "artifact": artifact}  # fmt: skip


SHAPES = {
    "nested": (
        Shape("nested", "folder", (250, 500, 1000, 2000), _nested_write),
        ("write a file under N new folders", "undo that write"),
    ),
    "added": (
        Shape("added", "file", (500, 1000, 2000, 4000), _added_files, large=(20_000,)),
        ("apply_patch adding N one-line files",),
    ),
    "longline": (
        Shape("longline", "MB", (1, 2, 4, 8), _long_line, large=(16,)),
        ("edit in one N MB line", "undo that edit"),
    ),
    "hunks": (
        Shape("hunks", "hunk", (1000, 2000, 4000, 8000), _many_hunks),
        ("apply_patch of N hunks to one file", "undo that patch"),
    ),
    "deep": (
        Shape("deep", "folder", (250, 500, 1000, 2000), _deep_review),
        ("changes since a checkpoint, N folders deep", "rewind to it"),
    ),
    "reordered": (
        Shape("reordered", "line", (5000, 10_000, 20_000, 40_000), _reordered),
        ("write of a file of N lines, reordered", "undo that write"),
    ),
    "journal": (
        Shape("journal", "entry", (12_500, 25_000, 50_000, 100_000), _journal),
        (
            "open a session and edit, N entries",
            "read the journal, N entries",
            "list checkpoints, N changes",
        ),
    ),
}


def _time_shape(shape: Shape, labels: tuple[str, ...], repeat: int, large: bool) -> None:
    sizes = shape.sizes + (shape.large if large else ())
    rows: dict[int, list[tuple[float, int]]] = {}
    for size in sizes:
        runs: list[list[float]] = [[] for _ in labels]
        cut = [0] * len(labels)
        for _ in range(repeat):
            with _root() as (s, root):
                steps = shape.prepare(s, root, size)
                for k, step in enumerate(steps):
                    start = time.perf_counter()
                    result = step()
                    runs[k].append(time.perf_counter() - start)
                    if isinstance(result, ToolResult):
                        if result.is_error:
                            raise SystemExit(f"{shape.name} {size}: {result.value[:300]}")
                        cut[k] += _cut(result)
        rows[size] = [(statistics.median(r), c) for r, c in zip(runs, cut, strict=True)]
    for k, label in enumerate(labels):
        previous: tuple[int, float] | None = None
        for size in sizes:
            seconds, cut_count = rows[size][k]
            per = seconds / size
            growth = "" if previous is None else f"{per / previous[1]:.2f}"
            print(f"{label:<44} {size:>8,} {seconds:>9.3f} {_per(per, shape.unit):>16} "
                  f"{growth:>7} {cut_count if cut_count else '':>4}")  # fmt: skip
            previous = (size, per)


def _cut(result: ToolResult) -> int:
    artifact = result.artifact
    payload = getattr(artifact, "payload", None)
    files = getattr(payload, "files", None) or ([payload] if payload is not None else [])
    return sum(1 for f in files if getattr(f, "minimal", True) is False)


def _per(seconds: float, unit: str) -> str:
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms/{unit}"
    return f"{seconds * 1e6:.1f} us/{unit}"


# --- matching in memory ----------------------------------------------------------------------


def _median(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _source(lines: int, indent: str = "    ") -> list[str]:
    return [f"{indent}value_{i} = compute(value_{i - 1}, {i % 97})" for i in range(lines)]


def _replace_all() -> tuple[Callable[[], object], Callable[[], object]]:
    text = "x = token + 1\n" * 71_500  # about 1 MB, 71,500 lines
    text = text.replace("+", "token", 28_500)  # 100,000 occurrences of "token" in all

    def run() -> None:
        m = locate(text, "token", "other", replace_all=True)
        assert len(m.spans) == 100_000
        splice_spans(text, [(a, b, r) for (a, b), r in zip(m.spans, m.replacements, strict=True)])

    return run, lambda: text.replace("token", "other")


def _patch(
    lines: int, hunks: int, *, drift: bool
) -> tuple[Callable[[], object], Callable[[], object]]:
    body = _source(lines)
    text = "\n".join(body) + "\n"
    step = lines // hunks
    parts = ["--- a/f.py\n+++ b/f.py\n"]
    for h in range(hunks):
        k = h * step + 1  # one line of context, then the changed line
        ctx, old = body[k - 1], body[k]
        if drift:  # sent with a tab where the file has 4 spaces
            ctx, old = "\t" + ctx.lstrip(), "\t" + old.lstrip()
        parts.append(f"@@ -{k},2 +{k},2 @@\n {ctx}\n-{old}\n+{old}  # changed\n")
    fp = parse_patch("".join(parts))[0]

    def run() -> None:
        new_text, tier = apply_file_patch(text, fp)
        assert tier == ("indentation" if drift else "exact"), tier
        assert new_text.count("# changed") == hunks

    return run, lambda: text.split("\n")


def _miss() -> tuple[Callable[[], object], Callable[[], object]]:
    body = _source(50_000)
    text = "\n".join(body) + "\n"
    old = "\n".join(f"    other_{i} = elsewhere({i})" for i in range(2_000)) + "\n"

    def run() -> None:
        try:
            locate(text, old, "x")
        except ToolError as exc:
            assert exc.code == "no_match"
        else:
            raise AssertionError("a missing old_string matched")

    return run, lambda: text.split("\n")


def _matching(repeat: int) -> None:
    cases = {
        "replace_all: 100,000 replacements, 1 MB": _replace_all(),
        "apply_patch: 5,000 exact hunks, 50,000 lines": _patch(50_000, 5_000, drift=False),
        "apply_patch: 100,000 exact hunks, 200,000 lines": _patch(200_000, 100_000, drift=False),
        "apply_patch: 5,000 indentation hunks, 50,000 lines": _patch(50_000, 5_000, drift=True),
        "edit miss: 2,000-line old_string, 50,000 lines": _miss(),
    }
    print(f"\n{'matching in memory':<52} {'median s':>9} {'floor s':>9} {'ratio':>7}")
    for name, (run, floor) in cases.items():
        t = _median(run, repeat)
        f = _median(floor, repeat)
        print(f"{name:<52} {t:>9.3f} {f:>9.4f} {t / f:>7.1f}")


def main() -> None:
    """Print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs of each size (median)")
    parser.add_argument("--only", nargs="*", choices=[*SHAPES, "matching"], default=None)
    parser.add_argument("--large", action="store_true", help="add the largest sizes")
    args = parser.parse_args()
    chosen = args.only or [*SHAPES, "matching"]
    print(f"{'shape':<44} {'size':>8} {'median s':>9} {'per unit':>16} {'growth':>7} {'cut':>4}")
    for name in chosen:
        if name in SHAPES:
            shape, labels = SHAPES[name]
            _time_shape(shape, labels, args.repeat, args.large)
    if "matching" in chosen:
        _matching(max(args.repeat, 3))


if __name__ == "__main__":
    main()
