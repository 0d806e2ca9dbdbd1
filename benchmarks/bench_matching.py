"""Matching accuracy on drifted edits of real files: edittools beside aider and OpenHands.

Run: python benchmarks/bench_matching.py [--files N] [--modes M,...] [--aider-site DIR]
     [--openhands-python EXE]

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

Two more modes of edittools run over the same cases (`--modes`, all three by default), the way an
agent that never copies old text back would make the same change. Each case gets a session of its
own on a folder of its own (state in the run's temporary folder), the file named with its
language's suffix; the agent reads the file as it was before the drift, the drift is written to
the file, and then the agent changes the line it meant to change:

- `anchors`: it read the lines around it with `anchors=True`, and calls `edit_lines` with the
  anchor of that line as start and end (the lines it changes) and the line as read, changed;
- `symbols`: from `symbols` and `read_symbol` before the drift, the innermost definition holding
  the line (dotted name; `NAME:LINE` where the outline lists the name more than once), and
  `edit_symbol(..., where="replace")` with the definition's lines as read, the change made in
  them. A line in no definition, or a file of a language without symbols, is "n/a".

For these modes the drift is what changed in the file after the read. Four classes hold such a
drift: `crlf` (the file's newlines became CRLF), `trailing_whitespace` (two spaces put at the end
of the block's lines, the changed one included), `ambiguous` (the block appended again at the end
of the file) and `wrong_line` (at the read the line above the changed one ends in ` x`, as
old_string has it; then it loses it). In the other classes the defect is in the old_string a
model sent, which these modes do not send: the file is as read. The intended result is the file
after the drift with the line changed where it was meant, in every class (a refusal is never
wrong, a write other than that always is).
"""

from __future__ import annotations

import argparse
import difflib
import importlib.util
import json
import os
import random
import re
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import types
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from edittools import Session
from edittools.artifacts import ToolResult

LANGUAGES = {"python": ".py", "c": ".h", "javascript": ".js", "json": ".json", "markdown": ".md"}
LANGUAGES["yaml"] = ".yaml"
MODES = ("old_string", "anchors", "symbols")
DRIFTS = {
    "crlf": "the file's newlines became CRLF after the read",
    "trailing_whitespace": "two spaces were put at the end of the block's non-empty lines",
    "ambiguous": "the 5-line block around the line was appended again at the end of the file",
    "wrong_line": "the line above the changed one lost its final ' x' after the read",
}
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
    line: int = 0  # 0-based: the line of `read` the intended change edits (or deletes)
    delete: bool = False  # the intended change deletes that line
    read: bytes | None = None  # what an agent of the anchor and symbol modes read; None: `data`

    @property
    def before(self) -> bytes:
        """The file as the agent read it, before the drift."""
        return self.data if self.read is None else self.read


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
            start + mid,
            delete,
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
        start + 2,
        read=crlf.data,
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
        mid,
        read=text.encode(),
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
    # For the anchor and symbol modes: the copy appended after the read; and the line the
    # agent read as old_string says it, changed back since.
    twice = text + "\n".join(block) + "\n"
    yield Case("ambiguous", language, source, twice.encode(), "\n".join(block) + "\n",
               "\n".join([*block[:2], block[2] + " EDITED", *block[3:]]) + "\n", None,
               start + 2, read=text.encode())  # fmt: skip
    wrong = [*block[:1], block[1] + " x", *block[2:]]
    was = [*lines[: start + 1], block[1] + " x", *lines[start + 2 :]]
    yield Case("wrong_line", language, source, text.encode(), "\n".join(wrong) + "\n",
               "\n".join([*wrong[:2], wrong[2] + " EDITED", *wrong[3:]]) + "\n", None,
               start + 2, read=("\n".join(was) + "\n").encode())  # fmt: skip


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
    with Session(
        root, require_read=False, journal=False, state_dir=root.with_name(root.name + "-state")
    ) as session:
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


# --- the anchor and symbol modes ---------------------------------------------------------------


@dataclass(frozen=True)
class Attempt:
    """One call of an anchor or symbol mode: the file's bytes afterwards and the error, if any."""

    after: bytes
    error: str  # the error's code; "" when the call succeeded
    took: float  # seconds of the changing call


def intended(case: Case) -> bytes:
    """The file after the drift with the intended change made on the line meant."""
    lines = case.data.decode().split("\n")
    read = case.before.decode().split("\n")[case.line]
    end = "\r" if lines[case.line].endswith("\r") else ""
    lines[case.line : case.line + 1] = [] if case.delete else [read + " EDITED" + end]
    return "\n".join(lines).encode()


def _error(result: ToolResult) -> str:
    payload = getattr(result.artifact, "payload", None)
    return str(getattr(payload, "code", "error")) if result.is_error else ""


def _agent(case: Case, root: Path) -> tuple[Path, str]:
    """A fresh root holding the file as read (named with its language's suffix)."""
    folder = Path(tempfile.mkdtemp(dir=root))
    name = "f" + LANGUAGES[case.language]
    (folder / name).write_bytes(case.before)
    return folder, name


def _changed(case: Case, text: str) -> str:
    """The line the agent read, as it writes it: changed, or nothing (deleted)."""
    return "" if case.delete else text + " EDITED\n"


def run_anchors(case: Case, root: Path) -> Attempt:
    folder, name = _agent(case, root)
    number = case.line + 1
    with Session(folder, state_dir=root / "state", journal=False) as session:
        shown = session.read(name, anchors=True, offset=max(1, number - 20), limit=41)
        found = re.search(rf"^{number}#([0-9a-f]+)\|(.*)$", shown.value, re.MULTILINE)
        if shown.is_error or found is None:
            raise RuntimeError(f"line {number} of {case.source} not in its anchored read")
        anchor = f"{number}#{found.group(1)}"
        (folder / name).write_bytes(case.data)  # the drift
        start = time.perf_counter()
        result = session.edit_lines(name, anchor, anchor, _changed(case, found.group(2)))
        took = time.perf_counter() - start
    return Attempt((folder / name).read_bytes(), _error(result), took)


def run_symbols(case: Case, root: Path) -> Attempt | None:
    """None when the line is in no definition (or the language has none)."""
    folder, name = _agent(case, root)
    number = case.line + 1
    with Session(folder, state_dir=root / "state", journal=False) as session:
        outline = session.symbols(name)
        if outline.is_error:
            return None  # a language without symbols
        rows = outline.artifact.payload.rows  # type: ignore[union-attr]
        holding = [(r[0], -r[1], k) for k, r in enumerate(rows) if r[0] <= number <= r[1]]
        if not holding:
            return None
        first, last, _, symbol = rows[max(holding)[2]]  # the innermost
        if sum(r[3] == symbol for r in rows) > 1:
            symbol = f"{symbol}:{first}"  # the form the tool asks for a shared name
        # The read: the definition's lines, by name, or by number where the name fails.
        if session.read_symbol(name, symbol).is_error:
            session.read(name, offset=first, limit=last - first + 1)
        text = [line + "\n" for line in case.before.decode().split("\n")[first - 1 : last]]
        at = case.line - (first - 1)
        text[at] = _changed(case, text[at][:-1])
        (folder / name).write_bytes(case.data)  # the drift
        start = time.perf_counter()
        result = session.edit_symbol(name, symbol, "".join(text), where="replace")
        took = time.perf_counter() - start
    return Attempt((folder / name).read_bytes(), _error(result), took)


def judge(case: Case, attempt: Attempt) -> str:
    """correct: the intended result; refused: an error and the file as the drift left it."""
    if attempt.after == case.data and attempt.error:
        return "refused"
    return "correct" if not attempt.error and attempt.after == intended(case) else "WRONG"


def verdict(case: Case, outcome: Outcome) -> str:
    after, _ = outcome
    if after is None or after == case.data:
        return "correct" if case.expected is None else "refused"
    return "correct" if after == case.expected else "WRONG"


def _cell(verdicts: list[str | None], times: list[float], *, na: bool = False) -> str:
    """`correct / refused / WRONG`, the cases not applicable if any (`na`), the median ms."""
    v = [x for x in verdicts if x is not None]
    ms = f"{statistics.median(times) * 1000:6.2f}" if times else "     -"
    skipped = f" ({len(verdicts) - len(v)} n/a)" if na and len(v) < len(verdicts) else ""
    return f"{v.count('correct')} / {v.count('refused')} / {v.count('WRONG')}{skipped}  {ms}"


def _report_wrong(mode: str, case: Case, attempt: Attempt, seed: int) -> None:
    """A wrong write of an anchor or symbol mode: enough to reproduce it, and what was written."""
    drift = DRIFTS.get(case.kind, "none after the read")
    print(f"{mode} WRONG: {case.kind} in {case.source}, line {case.line + 1} (drift: {drift}; "
          f"seed {seed}){f'; error {attempt.error}' if attempt.error else ''}; written against "
          "intended:", file=sys.stderr)  # fmt: skip
    diff = difflib.unified_diff(
        intended(case).decode(errors="replace").splitlines(),
        attempt.after.decode(errors="replace").splitlines(),
        "intended",
        "written",
        n=0,
        lineterm="",
    )
    for line in list(diff)[:14]:
        print(f"    {line[:160]}", file=sys.stderr)


def main() -> None:
    """Print the table (and the wrong applications of edittools, if any)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=4, help="files per language")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--modes",
        default=",".join(MODES),
        help="edittools' modes, comma-separated: old_string (edit), anchors (edit_lines), "
        "symbols (edit_symbol); all by default",
    )
    parser.add_argument("--aider-site", default=None)
    parser.add_argument("--openhands-python", default=None)
    args = parser.parse_args()
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if not modes or set(modes) - set(MODES):
        parser.error(f"--modes takes some of {', '.join(MODES)}")
    cases = build_corpus(args.files, args.seed)
    for case in cases:  # the new modes' intended result is old_string's, where it has one
        assert case.expected is None or intended(case) == case.expected, case
    results: dict[str, list[Outcome]] = {}
    attempts: dict[str, list[Attempt | None]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        if "old_string" in modes:
            results["edittools"] = [run_edittools(c, root) for c in cases]
        if "anchors" in modes:
            attempts["anchors"] = [run_anchors(c, root) for c in cases]
        if "symbols" in modes:
            attempts["symbols"] = [run_symbols(c, root) for c in cases]
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
    # Each column: per case its verdict (None: not applicable) and its seconds.
    columns: dict[str, list[tuple[str | None, float]]] = {}
    if "edittools" in results:
        columns["edittools"] = [
            (verdict(c, o), o[1]) for c, o in zip(cases, results["edittools"], strict=True)
        ]
    for mode, tried in attempts.items():
        columns[mode] = [
            (None, 0.0) if a is None else (judge(c, a), a.took)
            for c, a in zip(cases, tried, strict=True)
        ]
    for engine in ("aider", "openhands"):
        if engine in results:
            columns[engine] = [
                (verdict(c, o), o[1]) for c, o in zip(cases, results[engine], strict=True)
            ]
    kinds = list(dict.fromkeys(c.kind for c in cases))
    files = len({c.source for c in cases})
    print(f"{len(cases)} cases from {files} files ({', '.join(LANGUAGES)}); "
          "each cell: correct / refused / WRONG, median ms per call")  # fmt: skip
    table = []
    for kind in [*kinds, "all"]:
        idx = [k for k, c in enumerate(cases) if kind in ("all", c.kind)]
        cells = []
        for name, column in columns.items():
            rows = [column[k] for k in idx]
            times = [t for v, t in rows if v is not None]
            cells.append(_cell([v for v, _ in rows], times, na=name == "symbols"))
        table.append((kind, cells))
    width = max([22, *(len(c) for _, cells in table for c in cells)])
    header = f"| {'class':<20} | " + " | ".join(f"{e:<{width}}" for e in columns) + " |"
    print(header)
    print("|" + "|".join("-" * (len(p) + 0) for p in header.split("|")[1:-1]) + "|")
    for kind, cells in table:
        print(f"| {kind:<20} | " + " | ".join(f"{c:<{width}}" for c in cells) + " |")
    for mode in attempts:
        verdicts = [v for v, _ in columns[mode]]
        if "edittools" in results:
            refused = [k for k, (after, _) in enumerate(results["edittools"])
                       if after is None or after == cases[k].data]  # fmt: skip
            made = [k for k in refused if verdicts[k] == "correct"]
            negative = sum(cases[k].kind in NEGATIVE for k in made)
            print(f"{mode}: {len(made)} of the {len(refused)} cases old_string refused made as "
                  f"meant ({negative} of them in {' and '.join(NEGATIVE)}, where refusing was "
                  "old_string's right answer)")  # fmt: skip
        codes = Counter(
            a.error for a, v in zip(attempts[mode], verdicts, strict=True) if v == "refused" and a
        )
        said = ", ".join(f"{code} {n}" for code, n in codes.most_common()) or "none"
        wrong = {(cases[k].source, cases[k].line) for k, v in enumerate(verdicts) if v == "WRONG"}
        where = f", at {len(wrong)} distinct lines of files (a line serves several classes)"
        print(f"{mode}: refusals by code: {said}; WRONG {verdicts.count('WRONG')}"
              f"{where if wrong else ''}")  # fmt: skip
    for k, case in enumerate(cases):
        if "edittools" in columns and columns["edittools"][k][0] == "WRONG":
            print(f"edittools WRONG: {case.kind} in {case.source}", file=sys.stderr)
        for mode, tried in attempts.items():
            attempt = tried[k]
            if attempt is not None and columns[mode][k][0] == "WRONG":
                _report_wrong(mode, case, attempt, args.seed)


if __name__ == "__main__":
    main()
