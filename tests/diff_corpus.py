"""A generated corpus of old/new file pairs for the diff tests (fixed seed, built in memory).

Realistic code with random edits, duplicate-heavy files, moved blocks, empty files, files without a
final newline, CRLF and lone-CR line endings, and Unicode text.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

_NAMES = ["value", "count", "items", "result", "path", "index", "total", "node", "key", "text"]
_FREQUENT = ["", "", "", "}", "    }", "    return result", "        pass", "{", "    else:"]


@dataclass(frozen=True)
class Case:
    """One old/new pair; either side None means the file does not exist."""

    name: str
    old: bytes | None
    new: bytes | None


def code_line(rng: random.Random) -> str:
    """One plausible line of Python- or C-like code, often a frequent duplicate."""
    if rng.random() < 0.3:
        return rng.choice(_FREQUENT)
    name = rng.choice(_NAMES)
    other = rng.choice(_NAMES)
    k = rng.randint(0, 40)
    indent = " " * (4 * rng.randint(0, 3))
    template = rng.choice(
        [
            f"def {name}_{k}({other}, *args):",
            f"{indent}{name} = {other} + {k}",
            f"{indent}if {name} > {k}:",
            f"{indent}for {name} in {other}:",
            f"{indent}return {name}",
            f"{indent}# {name} holds the {other}",
            f"class {name.title()}{k}:",
            f"{indent}{name}.append({other}[{k}])",
            f'{indent}raise ValueError("bad {name}")',
            f"{indent}while ({name} < {k}) {{",
        ]
    )
    return template


def code_file(rng: random.Random, n: int) -> list[str]:
    """`n` lines of generated code."""
    return [code_line(rng) for _ in range(n)]


def edit_lines(rng: random.Random, lines: list[str], edits: int) -> list[str]:
    """Apply random inserts, deletes, replacements and block moves."""
    out = list(lines)
    for _ in range(edits):
        kind = rng.random()
        pos = rng.randint(0, len(out))
        size = rng.randint(1, 6)
        if kind < 0.25:
            out[pos:pos] = [code_line(rng) for _ in range(size)]
        elif kind < 0.5:
            del out[pos : pos + size]
        elif kind < 0.85:
            out[pos : pos + size] = [code_line(rng) for _ in range(rng.randint(1, 6))]
        else:
            block = out[pos : pos + size]
            del out[pos : pos + size]
            target = rng.randint(0, len(out))
            out[target:target] = block
    return out


def join(lines: list[str], newline: str = "\n", final: bool = True) -> bytes:
    """Lines joined with `newline`, with or without one after the last line."""
    text = newline.join(lines)
    if final and lines:
        text += newline
    return text.encode("utf-8")


def corpus(seed: int = 20240601) -> list[Case]:
    """The whole corpus, the same on every run."""
    rng = random.Random(seed)
    cases: list[Case] = []
    for i in range(40):
        old = code_file(rng, rng.randint(1, 250))
        new = edit_lines(rng, old, rng.randint(1, 8))
        cases.append(Case(f"code-{i}", join(old), join(new)))
    for i in range(10):
        old = [rng.choice(["", "}", "{", "    return;", "  }"]) for _ in range(rng.randint(5, 120))]
        new = edit_lines(rng, old, rng.randint(1, 6))
        cases.append(Case(f"duplicates-{i}", join(old), join(new)))
    for i in range(5):
        old = code_file(rng, 120)
        block_start = rng.randint(0, 80)
        block = old[block_start : block_start + 20]
        rest = old[:block_start] + old[block_start + 20 :]
        target = rng.randint(0, len(rest))
        new = rest[:target] + block + rest[target:]
        cases.append(Case(f"moved-block-{i}", join(old), join(new)))
    for i in range(6):
        old = code_file(rng, rng.randint(1, 60))
        new = edit_lines(rng, old, rng.randint(0, 4))
        cases.append(
            Case(
                f"no-final-newline-{i}",
                join(old, final=i % 3 != 0),
                join(new, final=i % 3 == 1),
            )
        )
    for i in range(5):
        old = code_file(rng, rng.randint(1, 80))
        new = edit_lines(rng, old, rng.randint(1, 5))
        cases.append(Case(f"crlf-{i}", join(old, "\r\n"), join(new, "\r\n", final=i != 2)))
    for i in range(3):
        old = code_file(rng, 40)
        new = edit_lines(rng, old, 3)
        mixed_old = b"".join((line + rng.choice(["\n", "\r\n", "\r\n"])).encode() for line in old)
        mixed_new = b"".join((line + rng.choice(["\n", "\r\n"])).encode() for line in new)
        cases.append(Case(f"mixed-endings-{i}", mixed_old, mixed_new))
    cases += [
        Case("lone-cr", b"a\rb\nc\rd\ne\n", b"a\rb\nc\rD\ne\rf\n"),
        Case("cr-at-end", b"one\ntwo\r", b"one\ntwo\r\nthree"),
        Case(
            "unicode", "héllo\n世界\n😀 ok\n".encode(), "héllo\n世間\n😀 ok\n\u2028sep\n".encode()
        ),
        Case("form-feed-and-vt", b"a\x0cb\nc\x0bd\n", b"a\x0cb\nc\x0bD\n"),
        Case("empty-both", b"", b""),
        Case("empty-old", b"", b"first\nsecond\n"),
        Case("empty-new", b"first\nsecond\n", b""),
        Case("empty-old-no-newline", b"", b"only"),
        Case("gain-final-newline", b"a\nb", b"a\nb\n"),
        Case("lose-final-newline", b"a\nb\n", b"a\nb"),
        Case("single-line-change", b"x", b"y"),
        Case("identical", b"same\n", b"same\n"),
        Case("rewrite", join(code_file(rng, 50)), join(code_file(rng, 60))),
        Case("create", None, b"new file\nwith two lines\n"),
        Case("create-empty", None, b""),
        Case("create-no-newline", None, b"tail"),
        Case("delete", b"gone\nsoon\n", None),
        Case("delete-empty", b"", None),
    ]
    return cases


def large_corpus(seed: int = 77) -> list[Case]:
    """Pairs big enough (over 64 KiB) for the windowed scanner, which small pairs never reach."""
    rng = random.Random(seed)
    cases: list[Case] = []
    for i in range(6):
        old = code_file(rng, rng.randint(3000, 8000))
        new = edit_lines(rng, old, rng.randint(5, 40))
        cases.append(Case(f"large-scattered-{i}", join(old), join(new, final=i != 3)))
    for i in range(3):
        old = [rng.choice(["", "}", "{", "    return;", "  }", "x"]) for _ in range(12000)]
        new = edit_lines(rng, old, rng.randint(5, 30))
        cases.append(Case(f"large-duplicates-{i}", join(old), join(new)))
    old = code_file(rng, 6000)
    block = old[1000:1300]
    new = old[:1000] + old[1300:5000] + block + old[5000:]
    cases.append(Case("large-moved-block", join(old), join(new)))
    old = code_file(rng, 6000)
    dense = [code_line(rng) if rng.random() < 0.5 else line for line in old[2000:4000]]
    cases.append(Case("large-dense-middle", join(old), join(old[:2000] + dense + old[4000:])))
    old = code_file(rng, 5000)
    cases.append(Case("large-tail-insert", join(old), join(old + code_file(rng, 5000))))
    cases.append(Case("large-head-delete", join(old), join(old[4200:])))
    old = code_file(rng, 5000)
    new = edit_lines(rng, old, 20)
    cases.append(Case("large-crlf", join(old, "\r\n"), join(new, "\r\n")))
    return cases


def lines_of(data: bytes) -> list[bytes]:
    """Split on ``\\n`` only, keeping the ends (the last line may lack one)."""
    if not data:
        return []
    parts = data.split(b"\n")
    last = parts.pop()
    lines = [part + b"\n" for part in parts]
    if last:
        lines.append(last)
    return lines
