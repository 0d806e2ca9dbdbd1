"""Soak: every real file of the checked languages edited many ways through the default settings.

Run: python benchmarks/soak_edits.py [--sample N] [--workers N] [--batch N] [--project] [--json]

Files: every file of a language with a syntax grammar in this environment's own site-packages
(found at run time; nothing is downloaded), Python stubs (`.pyi`) among them: a sample holds at
least one, so the corpus has real `...` (`Ellipsis` bodies, `tuple[int, ...]`, docstrings and
comments with an ellipsis); the report counts the stubs and the files holding `...`. A checked
language with no file there is covered by the test suite's sample of it, grown past 16 KiB. Each
file goes through `Session` with its default options (syntax check `warn`, tolerant matching,
placeholders refused, format `off`, diagnostics `report`, though no checker runs: the root
configures none), in batches, each batch in a child process so that a native crash is counted
(signal and faulthandler stack) rather than fatal; a child silent for `--hang` seconds is killed
and counted as a hang. The rest of a batch goes on in a new child after the file that crashed or
hung.

The edits of one file, in turn: a read; a comment added to a line (and taken away); a line
inserted and deleted; a closing bracket deleted and put back; non-ASCII text; a 100 KB line
inserted and deleted; a NUL byte (refused: it would turn the file binary); an edit after a
pause; an undo; in a language with definitions, three of them (first, middle, last) each read with
`read_symbol` and sent back to `edit_symbol` with a comment on its last line. Then a copy with CRLF
line ends and a copy with a syntax error at its top, each read and edited. After every change the
file on disk is compared with what the edit must have made (`wrong` counts the differences, with
the first line that differs).

None of these edits sends an omission placeholder, so every `invalid_arguments` refusal with
reason `placeholder` is a false one: counted as `false_placeholder`, listed with the file, the
edit, the line numbers the guard named and the lines sent. Target: 0.

`--project`: each batch's root is a project that configures its checkers and formatters (a
`pyproject.toml` with `[tool.ruff]` and `[tool.basedpyright]`, a `go.mod`, a `compile_flags.txt`),
and the session runs with `format="project"` and `diagnostics="report"`: a Python file is checked
by ruff server and basedpyright and formatted by ruff format at every change, a Go file by gopls
and gofmt, a C or C++ file by clangd (no formatter: no `.clang-format`); the other languages keep
the syntax check alone. The main copy of each file starts as the formatter leaves it (when it
takes the file), as in a project that formats every change; the CRLF and broken copies start as
found, so their one edit reformats the whole file. The oracle: once a formatter has rewritten the
file, the expected text is what that formatter, run here on its own (`ruff format --stdin-filename
NAME -`, `gofmt`, in the root), makes of the text the edit must have made — if it fails on it (a
syntax error), that text as is; when the result says the change was not formatted, either is
accepted. The file on disk must equal it byte for byte. (Comparing the file with the diff
artifact's `new` text would only prove that the session reports what it wrote, not that it wrote
the right edit.) An edit taken back is taken back by the lines that differ on disk, since the
formatter may have rewritten the ones sent. Each child's processes carry a mark in their
environment, which every server, formatter and what they start in turn inherit, whatever their
process group or parent: once a child has exited, a process still holding its mark after 2 s is
an orphan (counted, listed, then killed). Processes left by a child killed for a hang are counted
apart: a killed child cannot shut its servers down (they stop on their own when their stdin
closes). Matching processes by name instead would count other work on the machine.

Per language: files, calls, crashes, hangs, wrong writes, error results by code, checks that ran
out of time, and the longest syntax check; with `--project` also the changes a checker answered
for, those left pending at the budget, the longest wait for diagnostics, the changes formatted or
not (the notes say why), the longest formatter run, and the checkers' and formatters' notes. Each
part of a call is held to its own budget: a syntax check over `syntax_budget` by more than
`--slack` seconds, a wait for diagnostics over `diagnostics_budget` or a formatter run over
`format_budget` by more than `--slack`, or the rest of the call over `--call-budget` seconds,
counts as over budget. Target: 0 crashes, 0 hangs, 0 wrong writes, 0 calls over budget, 0 false
placeholder refusals, 0 orphans.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import faulthandler
import json
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import edittools.change._commit as change_module
import edittools.change._format as format_module
from edittools import Session
from edittools._options import SessionOptions
from edittools.diagnostics import Checkers
from edittools.syntax import CHECKED_LANGUAGES, SYMBOL_LANGUAGES, language_of

_TESTS = Path(__file__).resolve().parent.parent / "tests" / "syntax"
_MAX_BYTES = 2 * 1024 * 1024  # past the syntax cap (1 MiB) a file is not parsed: a few suffice
_LONG_LINE = 100_000
_PAUSE = 0.05
_COMMENTS = {
    "python": ("# ", ""), "ruby": ("# ", ""), "bash": ("# ", ""), "yaml": ("# ", ""),
    "toml": ("# ", ""), "html": ("<!-- ", " -->"), "markdown": ("<!-- ", " -->"),
    "css": ("/* ", " */"), "json": (" ", ""),
}  # fmt: skip
_C_COMMENT = ("/* ", " */")
_BROKEN_TOP = {
    "python": "def (:\n", "json": "{,\n", "yaml": "a: [\n", "toml": "[a\n", "html": "<a <b\n",
    "markdown": "", "css": "a { b: ; } }\n", "bash": "if then fi (\n",
}  # fmt: skip
_C_BROKEN = "int x = = 1;\n"
# `--project`: the batch's root is a project that configures its checkers and formatters.
_PROJECT_FILES = {
    "pyproject.toml": '[project]\nname = "soak"\nversion = "0"\n\n[tool.ruff]\n\n'
    '[tool.basedpyright]\ntypeCheckingMode = "standard"\n',
    "go.mod": "module soak\n\ngo 1.21\n",
    "compile_flags.txt": "-std=c11\n",
}
_ORACLES = {".py": ("ruff", "format", "--stdin-filename", "{name}", "-"), ".go": ("gofmt",)}
_ORACLES[".pyi"] = _ORACLES[".py"]
# What marks the processes a child started (servers, formatters, what they start in turn).
_MARK = "EDITTOOLS_SOAK_BATCH"


def comment(language: str, words: str) -> str:
    """`words` as a comment of `language` to put at the end of a line (JSON has none: spaces)."""
    start, end = _COMMENTS.get(language, _C_COMMENT)
    return f"  {start}{words}{end}" if language != "json" else " " * len(words)


def find_files(seed: int, sample: int | None) -> list[tuple[Path, str]]:
    """The files to edit, with their language: site-packages first, then grown samples."""
    found: list[tuple[Path, str]] = []
    purelib = Path(sysconfig.get_paths()["purelib"])
    for path in sorted(purelib.rglob("*")):
        language = language_of(path.name)
        if language not in CHECKED_LANGUAGES or path.is_symlink() or not path.is_file():
            continue
        if path.stat().st_size <= _MAX_BYTES:
            found.append((path, language))
    covered = {language for _, language in found}
    found += [
        (sample_path, language) for sample_path, language in _samples() if language not in covered
    ]
    if sample is not None and sample < len(found):
        rng = random.Random(seed)
        by_language: dict[str, list[tuple[Path, str]]] = defaultdict(list)
        for item in found:
            by_language[item[1]].append(item)
        # Every language at least once, then a random draw of the rest.
        picked = [rng.choice(items) for items in by_language.values()]
        rest = [item for item in found if item not in picked]
        picked += rng.sample(rest, max(0, sample - len(picked)))
        stubs = [item for item in rest if item[0].suffix == ".pyi"]
        if stubs and not any(path.suffix == ".pyi" for path, _ in picked):
            picked[-1] = rng.choice(stubs)  # a stub at least: the corpus must hold real `...`
        found = picked
    return found


def _samples() -> Iterator[tuple[Path, str]]:
    """The suite's sample of each language, written grown past 16 KiB to a temporary folder."""
    sys.path.insert(0, str(_TESTS))
    try:
        from syntax_samples import SAMPLES
    finally:
        sys.path.remove(str(_TESTS))
    folder = Path(tempfile.mkdtemp(prefix="soak-samples-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # the children are done by then
    for sample in SAMPLES:
        language = language_of(sample.name)
        if language is None:
            continue
        text = sample.text
        if language not in ("json", "toml", "yaml", "html"):  # a document is one value
            # Copies of the sample, each line made unique by a comment naming it.
            lines = text.rstrip("\n").split("\n")
            copies = 16 * 1024 // len(text) + 2
            text = "".join(
                f"{line}{comment(language, f'{copy}.{number}')}\n"
                for copy in range(copies)
                for number, line in enumerate(lines)
            )
        path = folder / sample.name
        path.write_text(text)
        yield path, language


# The child: edits files, reporting each call as a JSON line before and after it.


@dataclass
class _Child:
    """One child's session over a batch of files, and what it reports."""

    root: Path
    session: Session
    out: Any
    project: bool = False
    check_seconds: float = 0.0
    diagnostics_seconds: float = 0.0
    format_seconds: float = 0.0
    number: int = 0
    difference: list[Any] = field(default_factory=list)

    def report(self, **fields: Any) -> None:
        self.out.write(json.dumps(fields) + "\n")
        self.out.flush()

    def call(self, file: str, kind: str, method: str, *args: Any, **kwargs: Any) -> Any:
        self.report(start=[file, kind])
        self.check_seconds = self.diagnostics_seconds = self.format_seconds = 0.0
        began = time.perf_counter()
        result = getattr(self.session, method)(*args, **kwargs)
        seconds = time.perf_counter() - began
        payload = getattr(result.artifact, "payload", None)
        diagnostics = getattr(payload, "diagnostics", None) or []
        timed_out = any(d.source == "syntax" and "budget" in (d.message or "") for d in diagnostics)
        code = None
        if result.is_error:
            error = getattr(payload, "code", None)
            code = error if isinstance(error, str) else "error"
            detail = getattr(payload, "detail", None) or {}
            if code == "invalid_arguments" and detail.get("reason") == "placeholder":
                # The soak never sends a placeholder: every such refusal is a false one.
                sent = args[2] if method == "edit" and len(args) > 2 else args[-1]
                sent_lines = str(sent).split("\n")
                self.report(
                    placeholder=[file, kind, detail.get("lines"), [s[:200] for s in sent_lines]]
                )
        self.report(
            done=[file, kind],
            seconds=seconds,
            check=self.check_seconds,
            diagnostics=self.diagnostics_seconds,
            format=self.format_seconds,
            code=code,
            timed_out=timed_out,
        )
        return result


def _timed_checks(child: _Child) -> None:
    """Have the child time every syntax check (the tools call it through `_change`)."""
    check = change_module.check_change

    def timed(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return check(*args, **kwargs)
        finally:
            child.check_seconds += time.perf_counter() - began

    change_module.check_change = timed  # type: ignore[assignment]
    if not child.project:
        return
    # The project's checkers (a change's `check`, the next call's `collect` of what was pending)
    # and its formatter, timed, with what they said.
    server_check, server_collect = Checkers.check, Checkers.collect

    def timed_check(self: Checkers, *args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        outcome = server_check(self, *args, **kwargs)
        child.diagnostics_seconds += time.perf_counter() - began
        child.report(checkers=list(outcome.checkers), pending=outcome.pending, notes=outcome.notes)
        return outcome

    def timed_collect(self: Checkers, *args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return server_collect(self, *args, **kwargs)
        finally:
            child.diagnostics_seconds += time.perf_counter() - began

    Checkers.check = timed_check  # type: ignore[method-assign]
    Checkers.collect = timed_collect  # type: ignore[method-assign]
    format_file = format_module.format_file

    def timed_format(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        outcome = format_file(*args, **kwargs)
        child.format_seconds += time.perf_counter() - began
        if outcome.formatter is not None:
            child.report(formatter=outcome.formatter, changed=outcome.changed, note=outcome.note)
        return outcome

    format_module.format_file = timed_format  # type: ignore[assignment]


def _formatted(child: _Child, name: str, text: str) -> str | None:
    """What the project's formatter makes of `text` as file `name` (None: it failed on it, or
    the file has none), run here on its own: the oracle of a change in a formatted project."""
    command = _ORACLES.get(Path(name).suffix) if child.project else None
    program = command and shutil.which(command[0], path=_oracle_path())
    if command is None or program is None:
        return None
    ran = subprocess.run(
        [program, *(part.format(name=name) for part in command[1:])],
        input=text.encode("utf-8"),
        cwd=child.root,
        capture_output=True,
        timeout=60,
    )
    return ran.stdout.decode("utf-8") if ran.returncode == 0 else None


def _oracle_path() -> str:
    """Where the oracle's formatters are found: this interpreter's scripts, then `PATH`."""
    return os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])


def _written(child: _Child, name: str, expected: str, result: Any) -> str | None:
    """What the file must now hold after a change meant to make `expected`, if it does hold
    it (None: a wrong write). In a project the formatter's version of `expected` is what must be
    there, unless the result says the change was not formatted."""
    on_disk = (child.root / name).read_bytes()
    accepted = [expected]
    formatted = _formatted(child, name, expected)
    if formatted is not None:
        kept = "Not formatted (" in getattr(result, "value", "")
        accepted = [formatted, expected] if kept else [formatted]
    for text in accepted:
        if on_disk == text.encode("utf-8"):
            return text
    child.difference = _difference(on_disk.decode("utf-8", "replace"), accepted[0])
    return None


def _difference(on_disk: str, expected: str) -> list[Any]:
    """The first line where the file differs from what it should hold: [number, file's, expected]."""
    have, want = on_disk.split("\n"), expected.split("\n")
    number = next((k for k, (a, b) in enumerate(zip(have, want, strict=False)) if a != b), None)
    number = min(len(have), len(want)) if number is None else number
    shown = [lines[number][:160] if number < len(lines) else None for lines in (have, want)]
    return [number + 1, *shown]


def _unique_line(text: str, at: float, test: Callable[[str], bool] = lambda _: True) -> str | None:
    """A line near `at` (a fraction of the file) that occurs once in `text` and passes `test`."""
    lines = text.split("\n")
    middle = int(len(lines) * at)
    for step in range(min(len(lines), 400)):
        for index in (middle + step, middle - step):
            if 0 <= index < len(lines):
                line = lines[index].rstrip("\r")
                if len(line.strip()) >= 3 and test(line) and text.count(line) == 1:
                    return line
    return None


def _changed_block(text: str, wanted: str) -> tuple[str, str] | None:
    """An edit (old, new) that turns `text` into `wanted`: the lines where they differ, with a
    line around them when that makes the old lines unique in `text` (None: no such edit)."""
    have, want = text.split("\n"), wanted.split("\n")
    shorter = min(len(have), len(want))
    first = 0
    while first < shorter and have[first] == want[first]:
        first += 1
    last = 0
    while last < shorter - first and have[-1 - last] == want[-1 - last]:
        last += 1
    for before, after in [(0, 0), (1, 0), (0, 1), (1, 1)]:
        start, tail = max(first - before, 0), max(last - after, 0)
        old = "\n".join(have[start : len(have) - tail])
        new = "\n".join(want[start : len(want) - tail])
        if start == len(have) - tail or start == len(want) - tail:
            continue  # a side of no lines at all: the line around it carries the newline
        if old.strip() and text.find(old) == text.rfind(old):
            return old, new
    return None


def _in_style(text: str, file_text: str) -> str:
    """`text` with the newline style of most of `file_text`'s lines."""
    crlf = file_text.count("\r\n")
    if crlf <= file_text.count("\n") - crlf:
        return text
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def _edit_file(child: _Child, source: Path, language: str) -> None:
    """Every edit of one file (see the module's docstring)."""
    data = source.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        child.report(skipped=str(source), why="not UTF-8")
        return
    child.number += 1
    name = f"f{child.number}{source.suffix or '.txt'}"
    label = str(source)
    path = child.root / name
    # In a project the file starts as its formatter leaves it (when it takes it), as the files
    # of a project that formats every change do; the variants below start as found.
    current = (_formatted(child, name, text) if child.project else None) or text
    path.write_bytes(current.encode("utf-8") if current is not text else data)
    child.call(label, "read", "read", name)

    def change(kind: str, old: str, new: str) -> bool:
        nonlocal current
        result = child.call(label, kind, "edit", name, old, new)
        if result.is_error:
            return False
        # New lines take the file's newline style (the tools' promise), and so does the old
        # text, which the tools find through that tolerance.
        expected = current.replace(_in_style(old, current), _in_style(new, current), 1)
        written = _written(child, name, expected, result)
        if written is None:
            child.report(wrong=[label, kind, child.difference])
            written = path.read_bytes().decode("utf-8", "replace")
        current = written
        return True

    def there_and_back(kind: str, line: str | None, new: str | None) -> None:
        if line is None or new is None:
            child.report(skipped=label, kind=kind)
            return
        before = current
        if change(kind, line, new):
            # Mended by what is on disk: the formatter may have rewritten the lines sent.
            mend = (new, line) if not child.project else _changed_block(current, before)
            if mend is None:
                child.report(skipped=label, kind=kind + " (mended)")
                return
            change(kind + " (mended)", *mend)

    line = _unique_line(current, 0.5)
    there_and_back("comment", line, None if line is None else line + comment(language, "soak"))
    line = _unique_line(current, 0.3)
    there_and_back("insert line", line, None if line is None else f"{line}\n{line}")
    line = _unique_line(current, 0.6, lambda s: any(c in s for c in ")]}"))
    if line is not None:
        cut = max(line.rfind(c) for c in ")]}")
        there_and_back("bracket", line, line[:cut] + line[cut + 1 :])
    line = _unique_line(current, 0.4)
    words = "héllo wörld — 日本語 🎉"
    there_and_back("non-ASCII", line, None if line is None else line + comment(language, words))
    line = _unique_line(current, 0.7)
    long = comment(language, "x" * _LONG_LINE)
    there_and_back("100 KB line", line, None if line is None else f"{line}\n{long}")
    line = _unique_line(current, 0.2)
    there_and_back("NUL byte", line, None if line is None else line + "\x00")
    line = _unique_line(current, 0.8)
    if line is not None:
        time.sleep(_PAUSE)
        before = current
        if change("after a pause", line, line + comment(language, "later")):
            result = child.call(label, "undo", "undo", name)
            if not result.is_error:
                current = before  # an undo puts back what the file held (never formatted)
                if path.read_bytes() != current.encode("utf-8"):
                    on_disk = path.read_bytes().decode("utf-8", "replace")
                    child.report(wrong=[label, "undo", _difference(on_disk, current)])
    _edit_definitions(child, label, name, path, current, language)
    crlf = text.replace("\r\n", "\n").replace("\n", "\r\n")  # a CRLF file stays as it is
    _edit_variant(child, label, name, "CRLF", crlf, language)
    top = _BROKEN_TOP.get(language, _C_BROKEN)
    if top:
        _edit_variant(child, label, name, "already broken", top + text, language)


def _edit_definitions(
    child: _Child, label: str, name: str, path: Path, current: str, language: str
) -> None:
    """The first, middle and last definitions of the file, each read with `read_symbol` and sent
    back to `edit_symbol` as read with a comment on its last line: only that line may change."""
    if language not in SYMBOL_LANGUAGES or "\r" in current:
        return
    outline = child.call(label, "symbols", "symbols", name)
    if outline.is_error or outline.artifact is None:
        return
    rows = outline.artifact.payload.rows
    if not rows:
        return
    for k in sorted({0, len(rows) // 2, len(rows) - 1}):
        if k and child.project:  # a formatter may have moved the lines: the outline again
            outline = child.call(label, "symbols", "symbols", name)
            if outline.is_error or outline.artifact is None:
                return
            rows = outline.artifact.payload.rows
            if k >= len(rows):
                return
        first, last, _, symbol = rows[k]
        named = f"{symbol}:{first}"
        if child.call(label, "read_symbol", "read_symbol", name, named).is_error:
            continue
        lines = current.split("\n")
        shown = lines[first - 1 : last]
        if not shown:
            continue
        shown[-1] += comment(language, "soak")
        result = child.call(label, "edit_symbol", "edit_symbol", name, named, "\n".join(shown))
        if result.is_error:
            continue
        lines[last - 1] = shown[-1]
        written = _written(child, name, "\n".join(lines), result)
        if written is None:
            child.report(wrong=[label, "edit_symbol", child.difference])
            return
        current = written


def _edit_variant(
    child: _Child, label: str, name: str, kind: str, text: str, language: str
) -> None:
    """Write `text` under a new name, read it and edit one line near its end."""
    variant = f"v{child.number}-{kind.replace(' ', '-')}-{name}"
    path = child.root / variant
    path.write_bytes(text.encode("utf-8"))
    line = _unique_line(text, 0.9)
    child.call(label, f"{kind}: read", "read", variant)
    if line is None:
        return
    new = line + comment(language, "edited")
    result = child.call(label, f"{kind}: edit", "edit", variant, line, new)
    if not result.is_error and _written(child, variant, text.replace(line, new, 1), result) is None:
        child.report(wrong=[label, f"{kind}: edit", child.difference])


def run_child(project: bool) -> None:
    """Edit the files named on stdin (JSON: [[path, language], ...]), reporting on stdout; with
    `project`, in a project that configures its checkers and formatters."""
    faulthandler.enable()
    files = json.loads(sys.stdin.read())
    out = sys.stdout
    with tempfile.TemporaryDirectory(prefix="soak-root-") as root:
        out.write(json.dumps({"root": root}) + "\n")  # removed by the parent if the child is killed
        for config, text in _PROJECT_FILES.items() if project else ():
            (Path(root) / config).write_text(text)
        options = {"format": "project", "diagnostics": "report"} if project else {}
        with Session(root, **options) as session:
            _edit_files(_Child(Path(root), session, out, project), files)


def _edit_files(child: _Child, files: list[list[str]]) -> None:
    _timed_checks(child)
    for source, language in files:
        _edit_file(child, Path(source), language)
        child.report(finished=source)


# The parent: batches in children, crashes and hangs counted, the table.


@dataclass
class Tally:
    """What the children reported, per language."""

    files: Counter[str] = field(default_factory=Counter)
    calls: Counter[str] = field(default_factory=Counter)
    crashes: list[dict[str, Any]] = field(default_factory=list)
    hangs: list[dict[str, Any]] = field(default_factory=list)
    wrong: list[list[str]] = field(default_factory=list)
    codes: Counter[str] = field(default_factory=Counter)
    timed_out: Counter[str] = field(default_factory=Counter)
    over_budget: list[dict[str, Any]] = field(default_factory=list)
    longest_check: dict[str, float] = field(default_factory=dict)
    longest_call: dict[str, float] = field(default_factory=dict)
    skipped: int = 0
    false_placeholder: list[list[Any]] = field(default_factory=list)
    stubs: int = 0
    with_ellipsis: Counter[str] = field(default_factory=Counter)
    # `--project`: the checkers and the formatter, per language.
    longest_diagnostics: dict[str, float] = field(default_factory=dict)
    longest_format: dict[str, float] = field(default_factory=dict)
    checked: Counter[str] = field(default_factory=Counter)
    pending: Counter[str] = field(default_factory=Counter)
    notes: Counter[str] = field(default_factory=Counter)
    formatted: Counter[str] = field(default_factory=Counter)
    not_formatted: Counter[str] = field(default_factory=Counter)
    orphans: list[dict[str, Any]] = field(default_factory=list)
    left_by_killed: list[dict[str, Any]] = field(default_factory=list)


def _run_batch(
    batch: list[tuple[str, str]], tally: Tally, args: argparse.Namespace, budget: SessionOptions
) -> None:
    """Run `batch` in children until every file is done, counting crashes and hangs."""
    language_of_file = dict(batch)
    todo = list(batch)
    while todo:
        mark = uuid.uuid4().hex
        proc = subprocess.Popen(
            [sys.executable, "-X", "faulthandler", __file__, "--child"]
            + ["--project"] * args.project,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, _MARK: mark},
        )
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.write(json.dumps(todo))
        proc.stdin.close()
        current: list[str] | None = None
        root: str | None = None
        finished: set[str] = set()
        hung = False
        while True:
            ready, _, _ = select.select([proc.stdout], [], [], args.hang)
            if not ready:
                hung = True
                proc.kill()
                break
            line = proc.stdout.readline()
            if not line:
                break
            event = json.loads(line)
            language = language_of_file[current[0]] if current else "?"
            if "start" in event:
                current = event["start"]
            elif "root" in event:
                root = event["root"]
            elif "checkers" in event:
                tally.checked[language] += bool(event["checkers"])
                tally.pending[language] += event["pending"]
                tally.notes.update(note[:160] for note in event["notes"])
            elif "formatter" in event:
                if event["note"] is None:
                    tally.formatted[language] += 1
                else:
                    tally.not_formatted[language] += 1
                    tally.notes[event["note"][:160]] += 1
            elif "placeholder" in event:
                tally.false_placeholder.append(event["placeholder"])
            elif "done" in event:
                file, kind = event["done"]
                language = language_of_file[file]
                tally.calls[language] += 1
                if event["code"]:
                    tally.codes[f"{event['code']} ({kind})"] += 1
                if event["timed_out"]:
                    tally.timed_out[language] += 1
                check, seconds = event["check"], event["seconds"]
                waited, formatting = event["diagnostics"], event["format"]
                for longest, value in [
                    (tally.longest_check, check),
                    (tally.longest_call, seconds),
                    (tally.longest_diagnostics, waited),
                    (tally.longest_format, formatting),
                ]:
                    longest[language] = max(longest.get(language, 0), value)
                # Each part against its own budget: the syntax check's, the checkers' and the
                # formatter's; the rest of the call against `--call-budget`.
                if (
                    check > budget.syntax_budget + args.slack
                    or waited > budget.diagnostics_budget + args.slack
                    or formatting > budget.format_budget + args.slack
                    or seconds - waited - formatting > args.call_budget
                ):
                    tally.over_budget.append(
                        {"file": file, "kind": kind, "seconds": seconds, "check": check,
                         "diagnostics": waited, "format": formatting}
                    )  # fmt: skip
                current = None
            elif "finished" in event:
                finished.add(event["finished"])
                tally.files[language_of_file[event["finished"]]] += 1
            elif "wrong" in event:
                tally.wrong.append(event["wrong"])
            elif "skipped" in event:
                tally.skipped += "why" in event
        proc.wait()
        stderr = proc.stderr.read()
        left = _left_behind(mark, proc.pid)
        (tally.left_by_killed if hung else tally.orphans).extend(left)
        if root is not None:
            shutil.rmtree(root, ignore_errors=True)  # a killed child's is left behind
        todo = [item for item in todo if item[0] not in finished]
        if proc.returncode == 0 and not hung:
            break
        what = {
            "file": current[0] if current else None,
            "kind": current[1] if current else None,
            "returncode": proc.returncode,
            "stack": stderr[-4000:],
        }
        (tally.hangs if hung else tally.crashes).append(what)
        # Go on after the file that crashed or hung (or the first left, if none was under way).
        failed = current[0] if current else todo[0][0]
        todo = [item for item in todo if item[0] != failed]


def _marked(mark: str) -> dict[int, str]:
    """The processes whose environment holds `mark` (the child's and what it started, however
    they left its process group or parent chain), with their command lines."""
    found: dict[int, str] = {}
    needle = f"{_MARK}={mark}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue  # gone meanwhile, or not ours to read
        if state != "Z":
            found[int(entry.name)] = command.strip()[:200]
    return found


def _left_behind(mark: str, child: int) -> list[dict[str, Any]]:
    """The processes a child that has exited left running (after a grace of 2 s), killed here
    once counted so that the next batch starts clean."""
    if not Path("/proc/self/environ").exists():
        return []
    deadline = time.monotonic() + 2.0
    while (left := _marked(mark)) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return [{"child": child, "pid": pid, "command": command} for pid, command in left.items()]


def run(args: argparse.Namespace) -> Tally:
    """Edit every file found, in batches over `args.workers` parallel children."""
    files = find_files(args.seed, args.sample)
    batches = [
        [(str(path), language) for path, language in files[i : i + args.batch]]
        for i in range(0, len(files), args.batch)
    ]
    tally = Tally()
    for path, language in files:
        tally.stubs += path.suffix == ".pyi"
        with contextlib.suppress(OSError):
            tally.with_ellipsis[language] += b"..." in path.read_bytes()
    budget = SessionOptions()
    with ThreadPoolExecutor(args.workers) as pool:
        for future in [pool.submit(_run_batch, b, tally, args, budget) for b in batches]:
            future.result()
    return tally


def _table(tally: Tally, wall: float, project: bool) -> str:
    head = "| language | files | calls | timed-out checks | longest check | longest call |"
    if project:
        head += " checked | pending | longest diagnostics | formatted | not formatted | longest format |"
    rows = [head, "|---" * head.count(" | ") + "|---|"]

    def ms(table: dict[str, float], language: str) -> str:
        return f"{table.get(language, 0) * 1000:.0f} ms"

    for language in sorted(tally.calls, key=lambda k: -tally.calls[k]):
        row = (
            f"| {language} | {tally.files[language]:,} | {tally.calls[language]:,} "
            f"| {tally.timed_out[language]} | {ms(tally.longest_check, language)} "
            f"| {ms(tally.longest_call, language)} |"
        )
        if project:
            row += (
                f" {tally.checked[language]:,} | {tally.pending[language]:,} "
                f"| {ms(tally.longest_diagnostics, language)} | {tally.formatted[language]:,} "
                f"| {tally.not_formatted[language]:,} | {ms(tally.longest_format, language)} |"
            )
        rows.append(row)
    files, calls = sum(tally.files.values()), sum(tally.calls.values())
    row = f"| all | {files:,} | {calls:,} | {sum(tally.timed_out.values())} | | |"
    if project:
        row += (
            f" {sum(tally.checked.values()):,} | {sum(tally.pending.values()):,} | "
            f"| {sum(tally.formatted.values()):,} | {sum(tally.not_formatted.values()):,} | |"
        )
    rows.append(row)
    lines = [
        *rows,
        "",
        f"crashes: {len(tally.crashes)}, hangs: {len(tally.hangs)}, wrong writes: "
        f"{len(tally.wrong)}, calls over budget: {len(tally.over_budget)}, false_placeholder: "
        f"{len(tally.false_placeholder)}, orphans: {len(tally.orphans)} (left by a killed "
        f"child: {len(tally.left_by_killed)}), files not UTF-8: {tally.skipped}, wall {wall:.0f} s",
        f"corpus: {tally.stubs:,} Python stubs (.pyi); files holding `...`: "
        + ", ".join(f"{k} {v:,}" for k, v in tally.with_ellipsis.most_common() if v),
        "error results by code: "
        + (", ".join(f"{k} {v}" for k, v in tally.codes.most_common()) or "none"),
    ]
    if tally.notes:
        lines.append("notes: " + "; ".join(f"{k} ({v})" for k, v in tally.notes.most_common(12)))
    for refused in tally.false_placeholder[:20]:
        lines.append(f"false placeholder refusal: {refused}")
    for orphan in tally.orphans[:20] + tally.left_by_killed[:20]:
        lines.append(f"left running: {orphan}")
    for crash in tally.crashes + tally.hangs:
        lines += [
            "",
            f"{crash['file']} ({crash['kind']}): returncode {crash['returncode']}",
            crash["stack"],
        ]
    for over in tally.over_budget[:20]:
        lines.append(f"over budget: {over}")
    for wrong in tally.wrong[:20]:
        lines.append(f"wrong write: {wrong}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--sample", type=int, help="edit this many files (every language once)")
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--batch", type=int, default=200, help="files per child process")
    parser.add_argument(
        "--hang", type=float, default=60.0, help="seconds of silence that is a hang"
    )
    parser.add_argument("--slack", type=float, default=0.05, help="seconds a check may overrun")
    parser.add_argument("--call-budget", type=float, default=2.0, help="seconds a call may take")
    parser.add_argument("--json", action="store_true", help="print the tally as JSON")
    parser.add_argument(
        "--project",
        action="store_true",
        help="in a project that configures ruff, basedpyright, gopls and clangd; format=project",
    )
    args = parser.parse_args()
    if args.child:
        run_child(args.project)
        return
    began = time.perf_counter()
    tally = run(args)
    wall = time.perf_counter() - began
    if args.json:
        print(json.dumps({**tally.__dict__, "wall": wall}, default=dict))
    else:
        print(_table(tally, wall, args.project))


if __name__ == "__main__":
    main()
