"""Matching accuracy on drifted edits of real files: edittools beside aider and OpenHands.

Run: python benchmarks/bench_matching.py [--files N] [--aider-site DIR] [--openhands-python EXE]

The corpus is built from real source files found on this machine (the running interpreter's
packages, /usr/include, /usr/share, /usr/lib): Python, C, JavaScript, JSON, Markdown and YAML.
In each file one block of lines gets one intended change, and each defect class sends that change
the way models get it wrong (line-number prefixes, tabs for spaces, curly quotes, lost blank
lines...), with the expected bytes written down; a few send new_string otherwise than old_string, as
models also do (old_string numbered `44: ` and new_string plain; old_string JSON-escaped and
new_string on real lines with its quotes escaped). Two negative classes (`ambiguous`, `wrong_line`)
must be refused: any write there is wrong.

Each case runs through edittools' `edit` tool, aider's SEARCH/REPLACE application (its
`do_replace`, reading and writing the file as aider does) and OpenHands' `str_replace` editor.
The peers are not dependencies; set them up beside the project, for example:

    python3 -m venv /tmp/aider-venv && /tmp/aider-venv/bin/pip install --no-deps aider-chat
    python3.12 -m venv /tmp/oh-venv && /tmp/oh-venv/bin/pip install openhands-aci

and pass `--aider-site` (the site-packages holding `aider/`; only its pure-Python matcher module
is loaded, with the chat machinery it imports stubbed out) and `--openhands-python`. A missing
peer is skipped with a note. Prints, per class and engine: correct / refused / WRONG and the
median time per call.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from edittools import Session

LANGUAGES = {"python": ".py", "c": ".h", "javascript": ".js", "json": ".json", "markdown": ".md"}
LANGUAGES["yaml"] = ".yaml"
ROOTS = [sysconfig.get_paths()["purelib"], "/usr/include", "/usr/share", "/usr/lib"]
NEGATIVE = ("ambiguous", "wrong_line")


@dataclass(frozen=True)
class Case:
    """One drifted edit: the file's bytes, what the model sent, and the bytes it meant."""

    kind: str
    language: str
    source: str
    data: bytes
    old: str
    new: str
    expected: bytes | None  # None: the edit must be refused


def _candidates(suffix: str, want: int) -> list[Path]:
    found: list[Path] = []
    for root in ROOTS:
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                path = Path(folder, name)
                if name.endswith(suffix) and not path.is_symlink():
                    try:
                        size = path.stat().st_size
                    except OSError:
                        continue
                    if 2_000 <= size <= 60_000:
                        found.append(path)
            if len(found) >= want:
                return found
    return found


def _text(path: Path) -> str | None:
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if "\r" in text or ("\t" in text and path.suffix != ".h"):
        return None  # the classes add their own tabs and CRs
    return text if text.endswith("\n") else None


def _block(lines: list[str], rng: random.Random, size: int, *, indented: bool) -> int | None:
    """Start of a block of `size` lines that occurs once and suits an edit."""
    starts = list(range(1, len(lines) - size - 1))
    rng.shuffle(starts)
    text = "\n".join(lines)
    for s in starts[:400]:
        block = lines[s : s + size]
        middle = block[size // 2]
        if not middle.strip() or len(middle) > 200 or len(block[0].strip()) < 4:
            continue
        if not block[-1].strip() or any(len(line) > 200 for line in block):
            continue
        if indented and not (block[0][:1] in " \t" and block[0].strip()):
            continue
        if text.count("\n".join(block)) == 1:
            return s
    return None


def _indent_unit(block: list[str]) -> str | None:
    widths = sorted({len(b) - len(b.lstrip(" ")) for b in block if b.strip()} - {0})
    if not widths or any("\t" in b[: len(b) - len(b.lstrip())] for b in block):
        return None
    steps = {b - a for a, b in zip([0, *widths], widths, strict=False)}
    unit = min(steps)
    return " " * unit if all(w % unit == 0 for w in widths) else None


def _cases_for(language: str, path: Path, text: str, rng: random.Random) -> Iterator[Case]:
    lines = text.split("\n")[:-1]
    source = str(path)

    def make(
        kind: str,
        start: int,
        size: int,
        drift: Callable[[list[str]], list[str]],
        *,
        mid: int = 2,
        end: str = "\n",
        sent_new: Callable[[list[str]], str] | None = None,
        delete: bool = False,
    ) -> Case:
        """The case; `sent_new` sends new_string otherwise than old_string, `delete` drops the
        line at `mid` instead of editing it."""
        block = lines[start : start + size]
        changed = [*block[:mid], *([] if delete else [block[mid] + " EDITED"]), *block[mid + 1 :]]
        after = [*lines[:start], *changed, *lines[start + size :]]
        return Case(
            kind,
            language,
            source,
            text.encode(),
            "\n".join(drift(block)) + end,
            sent_new(changed) if sent_new else "\n".join(drift(changed)) + end,
            ("\n".join(after) + "\n").encode(),
        )

    start = _block(lines, rng, 5, indented=False)
    if start is None:
        return
    block = lines[start : start + 5]
    yield make("exact", start, 5, lambda b: b)
    crlf = make("crlf", start, 5, lambda b: b)
    yield Case(
        "crlf",
        language,
        source,
        crlf.data.replace(b"\n", b"\r\n"),
        crlf.old,
        crlf.new,
        (crlf.expected or b"").replace(b"\n", b"\r\n"),
    )
    # The file has trailing spaces on the block's lines that the model did not copy.
    spaced = [*lines[:start], *(b + "  " if b.strip() else b for b in block), *lines[start + 5 :]]
    mid = start + 2
    expected = [*spaced[:mid], lines[mid] + " EDITED", *spaced[mid + 1 :]]
    yield Case(
        "trailing_whitespace",
        language,
        source,
        ("\n".join(spaced) + "\n").encode(),
        "\n".join(block) + "\n",
        "\n".join([*block[:2], block[2] + " EDITED", *block[3:]]) + "\n",
        ("\n".join(expected) + "\n").encode(),
    )
    yield make(
        "line_numbers_arrow",
        start,
        5,
        lambda b: [f"{start + 1 + k:>6}→{x}" for k, x in enumerate(b)],
    )
    yield make(
        "line_numbers_tab",
        start,
        5,
        lambda b: [f"{start + 1 + k:>6}\t{x}" for k, x in enumerate(b)],
    )
    if any('"' in b for b in block):
        yield make("curly_quotes", start, 5, lambda b: [_curl(x) for x in b])
        # old_string JSON-escaped; new_string on real lines with only its quotes escaped.
        yield make(
            "escaped_quotes",
            start,
            5,
            lambda b: [json.dumps("\n".join(b) + "\n")[1:-1]],
            end="",
            sent_new=lambda b: ("\n".join(b) + "\n").replace('"', '\\"'),
        )
    if any("--" in b or "..." in b for b in block):
        yield make(
            "unicode_dashes",
            start,
            5,
            lambda b: [x.replace("--", "\u2014").replace("...", "\u2026") for x in b],
        )
    yield make("escaped", start, 5, lambda b: [json.dumps("\n".join(b) + "\n")[1:-1]], end="")
    indented = _block(lines, rng, 5, indented=True)
    if indented is not None:
        block_i = lines[indented : indented + 5]
        base = min(len(b) - len(b.lstrip()) for b in block_i if b.strip())
        yield make("indentation_shift", indented, 5, lambda b: [x[base:] for x in b])
        # `44: ` numbering (a reader's colon and space) on old_string only, new_string plain.
        yield make(
            "line_numbers_colon",
            indented,
            5,
            lambda b: [f"{indented + 1 + k}: {x}" for k, x in enumerate(b)],
            sent_new=lambda b: "\n".join(b) + "\n",
        )
        unit = _indent_unit(block_i)
        if unit is not None:
            yield make("tabs_for_spaces", indented, 5, lambda b: [_tabs(x, unit) for x in b])
    blank = next(
        (s for s in range(1, len(lines) - 6) if not lines[s + 2].strip() and _unique(lines, s, 6)),
        None,
    )
    if blank is not None:
        for s in (blank, blank - 1):
            if lines[s + 3].strip():
                yield make("blank_line_missing", s, 6, lambda b: [x for x in b if x.strip()], mid=3)
                break
        # Blank lines sent with the next line's indentation, and that line deleted.
        if lines[blank + 3][:1] in (" ", "\t"):
            yield make("blank_line_spaces", blank, 6, _spaced_blanks, mid=3, delete=True)
    long = _block(lines, rng, 12, indented=False)
    if long is not None:
        yield make("elided", long, 12, lambda b: [*b[:3], "...", *b[-2:]], mid=1)
    # Negative: the block twice in the file; and a line of old_string that the file lacks.
    twice = text + "\n".join(block) + "\n"
    yield Case("ambiguous", language, source, twice.encode(), "\n".join(block) + "\n",
               "\n".join([*block[:2], block[2] + " EDITED", *block[3:]]) + "\n", None)  # fmt: skip
    wrong = [*block[:1], block[1] + " x", *block[2:]]
    yield Case("wrong_line", language, source, text.encode(), "\n".join(wrong) + "\n",
               "\n".join([*wrong[:2], wrong[2] + " EDITED", *wrong[3:]]) + "\n", None)  # fmt: skip


def _unique(lines: list[str], s: int, size: int) -> bool:
    block = lines[s : s + size]
    return bool(block[0].strip()) and "\n".join(lines).count("\n".join(block)) == 1


def _spaced_blanks(block: list[str]) -> list[str]:
    """The block with each empty line given the indentation of the next line that has text."""
    out = []
    for k, line in enumerate(block):
        after = next((x for x in block[k + 1 :] if x.strip()), "")
        out.append(line or after[: len(after) - len(after.lstrip())])
    return out


def _curl(line: str) -> str:
    out, opening = [], True
    for ch in line:
        if ch == '"':
            out.append("\u201c" if opening else "\u201d")
            opening = not opening
        else:
            out.append(ch)
    return "".join(out)


def _tabs(line: str, unit: str) -> str:
    body = line.lstrip(" ")
    n = len(line) - len(body)
    return "\t" * (n // len(unit)) + " " * (n % len(unit)) + body


def build_corpus(files: int, seed: int) -> list[Case]:
    """The cases, `files` files per language."""
    rng = random.Random(seed)
    cases: list[Case] = []
    for language, suffix in LANGUAGES.items():
        paths = _candidates(suffix, files * 20)
        rng.shuffle(paths)
        used = 0
        for path in paths:
            text = _text(path)
            if text is None:
                continue
            found = list(_cases_for(language, path, text, rng))
            if found:
                cases += found
                used += 1
            if used == files:
                break
    return cases


# --- engines ----------------------------------------------------------------------------------

Outcome = tuple[bytes | None, float]  # bytes after the call (None: refused), seconds


def run_edittools(case: Case, root: Path) -> Outcome:
    path = root / "f"
    path.write_bytes(case.data)
    with Session(root, require_read=False, journal=False) as session:
        start = time.perf_counter()
        result = session.edit("f", case.old, case.new)
        took = time.perf_counter() - start
    return (None if result.is_error else path.read_bytes()), took


def load_aider(site: str) -> Callable[[str, str, str, str], str | None] | None:
    """aider's `do_replace`, loaded from its module alone (its chat imports stubbed)."""
    source = Path(site, "aider", "coders", "editblock_coder.py")
    if not source.exists():
        return None
    for name in ("aider", "aider.coders"):
        package = types.ModuleType(name)
        package.__path__ = [str(Path(site, *name.split(".")))]
        sys.modules[name] = package
    stubs: dict[str, dict[str, object]] = {
        "aider.utils": {},
        "aider.dump": {"dump": lambda *a: None},
        "aider.coders.base_coder": {"Coder": object},
        "aider.coders.editblock_prompts": {"EditBlockPrompts": object},
    }
    for name, attrs in stubs.items():
        module = types.ModuleType(name)
        module.__dict__.update(attrs)
        sys.modules[name] = module
    sys.modules["aider"].utils = sys.modules["aider.utils"]  # type: ignore[attr-defined]
    spec = importlib.util.spec_from_file_location("aider.coders.editblock_coder", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fence = module.DEFAULT_FENCE
    return lambda *args: module.do_replace(*args, fence)


def run_aider(do_replace: Callable[..., str | None], case: Case, root: Path) -> Outcome:
    path = root / "f"
    path.write_bytes(case.data)
    start = time.perf_counter()
    try:
        content = path.read_text()  # aider reads in text mode, as here
        new = do_replace(str(path), content, case.old, case.new)
        if new is not None:
            path.write_text(new)
    except Exception:
        new = None
    took = time.perf_counter() - start
    return (None if new is None else path.read_bytes()), took


_OPENHANDS_RUNNER = r"""
import json, logging, os, sys, tempfile, time
logging.disable(logging.CRITICAL)
from openhands_aci.editor.editor import OHEditor
editor = OHEditor()
root = tempfile.mkdtemp()
for line in sys.stdin:
    case = json.loads(line)
    path = os.path.join(root, "f.txt")
    with open(path, "wb") as f:
        f.write(bytes.fromhex(case["data"]))
    start = time.perf_counter()
    try:
        editor(command="str_replace", path=path, old_str=case["old"], new_str=case["new"])
        ok = True
    except Exception:
        ok = False
    took = time.perf_counter() - start
    with open(path, "rb") as f:
        after = f.read()
    print(json.dumps({"after": after.hex() if ok else None, "took": took}), flush=True)
"""


def run_openhands(python: str, cases: list[Case]) -> list[Outcome] | None:
    payload = "".join(
        json.dumps({"data": c.data.hex(), "old": c.old, "new": c.new}) + "\n" for c in cases
    )
    try:
        done = subprocess.run(
            [python, "-c", _OPENHANDS_RUNNER],
            input=payload,
            capture_output=True,
            text=True,
            timeout=1800,
            check=True,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"note: OpenHands did not run ({exc}); its column is left out", file=sys.stderr)
        return None
    out = []
    for line in done.stdout.splitlines():
        row = json.loads(line)
        out.append((None if row["after"] is None else bytes.fromhex(row["after"]), row["took"]))
    return out


def verdict(case: Case, outcome: Outcome) -> str:
    after, _ = outcome
    if after is None or after == case.data:
        return "correct" if case.expected is None else "refused"
    return "correct" if after == case.expected else "WRONG"


def main() -> None:
    """Print the table (and the wrong applications of edittools, if any)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=4, help="files per language")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--aider-site", default=None)
    parser.add_argument("--openhands-python", default=None)
    args = parser.parse_args()
    cases = build_corpus(args.files, args.seed)
    results: dict[str, list[Outcome]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        results["edittools"] = [run_edittools(c, root) for c in cases]
        do_replace = load_aider(args.aider_site) if args.aider_site else None
        if do_replace is None:
            print("note: aider not given or not found; its column is left out", file=sys.stderr)
        else:
            results["aider"] = [run_aider(do_replace, c, root) for c in cases]
    if args.openhands_python:
        oh = run_openhands(args.openhands_python, cases)
        if oh is not None:
            results["openhands"] = oh
    else:
        print("note: OpenHands not given; its column is left out", file=sys.stderr)
    kinds = list(dict.fromkeys(c.kind for c in cases))
    files = len({c.source for c in cases})
    print(f"{len(cases)} cases from {files} files ({', '.join(LANGUAGES)}); "
          "each cell: correct / refused / WRONG, median ms per call")  # fmt: skip
    header = f"| {'class':<20} | " + " | ".join(f"{e:<22}" for e in results) + " |"
    print(header)
    print("|" + "|".join("-" * (len(p) + 0) for p in header.split("|")[1:-1]) + "|")
    for kind in [*kinds, "all"]:
        idx = [k for k, c in enumerate(cases) if kind in ("all", c.kind)]
        cells = []
        for outcomes in results.values():
            v = [verdict(cases[k], outcomes[k]) for k in idx]
            ms = statistics.median(outcomes[k][1] for k in idx) * 1000
            cells.append(
                f"{v.count('correct')} / {v.count('refused')} / {v.count('WRONG')}  {ms:6.2f}"
            )
        print(f"| {kind:<20} | " + " | ".join(f"{c:<22}" for c in cells) + " |")
    for k, case in enumerate(cases):
        if verdict(case, results["edittools"][k]) == "WRONG":
            print(f"edittools WRONG: {case.kind} in {case.source}", file=sys.stderr)


if __name__ == "__main__":
    main()
