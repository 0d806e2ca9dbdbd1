"""Fixed-seed corpus for the diff benchmark, generated once into ``benchmarks/.corpus/``.

Each case is a pair of files ``<name>.old`` and ``<name>.new`` of realistic code-like lines
(about 40 bytes a line), edited in the ways the benchmark cases describe.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / ".corpus"
SEED = 1234
VERSION = 1

_WORDS = [
    "value", "count", "items", "result", "path", "index", "total", "node", "key", "text",
    "buffer", "offset", "config", "handler", "record", "stream", "parser", "token", "cache",
]  # fmt: skip


@dataclass(frozen=True)
class Case:
    """One benchmark case: where its files are and, for a known-span case, the span."""

    name: str
    title: str
    old: Path
    new: Path
    span: tuple[int, int, bytes] | None = None


class _Lines:
    """A fast generator of code-like lines, with frequent duplicates like real code."""

    def __init__(self, rng: random.Random, duplicates: float = 0.12) -> None:
        self.rng = rng
        self.duplicates = duplicates
        self.frequent = [b"", b"", b"    }", b"}", b"        return result", b"    else:"]

    def line(self) -> bytes:
        rng = self.rng
        if rng.random() < self.duplicates:
            return rng.choice(self.frequent)
        a, b, c = rng.choice(_WORDS), rng.choice(_WORDS), rng.randrange(100000)
        indent = b"    " * rng.randrange(4)
        shape = rng.randrange(6)
        if shape == 0:
            text = f"{a}_{c} = compute({b}, {c % 97}, flag=True)"
        elif shape == 1:
            text = f"if {a}.{b} > {c}:"
        elif shape == 2:
            text = f"for {a} in {b}_{c}.items():"
        elif shape == 3:
            text = f"# update the {a} of the {b} ({c})"
        elif shape == 4:
            text = f"return {a}[{c}] + {b}"
        else:
            text = f"self.{a} = {b}_{c}"
        return indent + text.encode()

    def lines(self, n: int) -> list[bytes]:
        return [self.line() for _ in range(n)]


def _scatter(rng: random.Random, gen: _Lines, lines: list[bytes], edits: int) -> list[bytes]:
    """Apply `edits` small edits at scattered positions (replace, insert or delete lines)."""
    out = list(lines)
    positions = sorted(rng.sample(range(len(out)), edits), reverse=True)
    for pos in positions:
        kind = rng.randrange(3)
        if kind == 0:
            out[pos : pos + rng.randint(1, 3)] = gen.lines(rng.randint(1, 3))
        elif kind == 1:
            out[pos:pos] = gen.lines(rng.randint(1, 5))
        else:
            del out[pos : pos + rng.randint(1, 5)]
    return out


def _join(lines: list[bytes]) -> bytes:
    return b"\n".join(lines) + b"\n"


def _write(name: str, old: bytes, new: bytes) -> tuple[Path, Path]:
    old_path, new_path = CORPUS / f"{name}.old", CORPUS / f"{name}.new"
    old_path.write_bytes(old)
    new_path.write_bytes(new)
    return old_path, new_path


def build(names: set[str] | None = None) -> list[Case]:
    """Generate (or reuse) the corpus; `names` limits it to some cases."""
    CORPUS.mkdir(exist_ok=True)
    stamp = CORPUS / "VERSION"
    fresh = stamp.exists() and stamp.read_text() == f"{VERSION} {SEED}"
    if not fresh:
        for stale in CORPUS.glob("*.old"):
            stale.unlink()
        for stale in CORPUS.glob("*.new"):
            stale.unlink()
        stamp.write_text(f"{VERSION} {SEED}")
    cases: list[Case] = []
    specs = [
        ("200-1", "200 lines / 1 edit", 200, 1),
        ("10k-10", "10k lines / 10 edits", 10_000, 10),
        ("100k-100", "100k lines / 100 edits", 100_000, 100),
        ("1m-100", "1M lines / 100 scattered edits", 1_000_000, 100),
    ]
    for name, title, size, edits in specs:
        if names is not None and name not in names:
            continue
        old_path, new_path = CORPUS / f"{name}.old", CORPUS / f"{name}.new"
        if not (old_path.exists() and new_path.exists()):
            rng = random.Random(f"{SEED}-{name}")
            gen = _Lines(rng)
            old = gen.lines(size)
            _write(name, _join(old), _join(_scatter(rng, gen, old, edits)))
        cases.append(Case(name, title, old_path, new_path))
    if names is None or "100k-50pct" in names:
        cases.append(_rewrite())
    if names is None or "dups-moved" in names:
        cases.append(_duplicates())
    if names is None or "1m-span" in names:
        cases.append(_span())
    return cases


def _rewrite() -> Case:
    name = "100k-50pct"
    old_path, new_path = CORPUS / f"{name}.old", CORPUS / f"{name}.new"
    if not (old_path.exists() and new_path.exists()):
        rng = random.Random(f"{SEED}-{name}")
        gen = _Lines(rng)
        old = gen.lines(100_000)
        new = [gen.line() if rng.random() < 0.5 else line for line in old]
        _write(name, _join(old), _join(new))
    return Case(name, "100k lines, ~50% changed", old_path, new_path)


def _duplicates() -> Case:
    name = "dups-moved"
    old_path, new_path = CORPUS / f"{name}.old", CORPUS / f"{name}.new"
    if not (old_path.exists() and new_path.exists()):
        rng = random.Random(f"{SEED}-{name}")
        gen = _Lines(rng, duplicates=0.6)
        old = gen.lines(100_000)
        start = rng.randrange(10_000, 40_000)
        block = old[start : start + 200]
        rest = old[:start] + old[start + 200 :]
        target = rng.randrange(60_000, 90_000)
        new = _scatter(rng, gen, rest[:target] + block + rest[target:], 20)
        _write(name, _join(old), _join(new))
    return Case(name, "100k lines, 60% blank/`}`, moved block", old_path, new_path)


def _span() -> Case:
    name = "1m-span"
    old_path, new_path = CORPUS / f"{name}.old", CORPUS / f"{name}.new"
    rng = random.Random(f"{SEED}-{name}")
    gen = _Lines(rng)
    if not old_path.exists():
        old_path.write_bytes(_join(gen.lines(1_000_000)))
    old = old_path.read_bytes()
    start = old.index(b"\n", len(old) // 2) + 1
    end = old.index(b"\n", start)
    replacement = b"    changed_line = compute(value, 42)"
    if not new_path.exists():
        new_path.write_bytes(old[:start] + replacement + old[end:])
    return Case(
        name, "1M lines, one known-span edit", old_path, new_path, (start, end, replacement)
    )
