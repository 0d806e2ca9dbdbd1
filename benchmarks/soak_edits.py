"""Soak: every real file of the checked languages edited many ways through the default settings.

Run: python benchmarks/soak_edits.py [--sample N] [--workers N] [--batch N] [--json]

Files: every file of a language with a syntax grammar in this environment's own site-packages
(found at run time; nothing is downloaded). A checked language with no file there is covered by
the test suite's sample of it, grown past 16 KiB. Each file goes through `Session` with its
default options (syntax check `warn`, tolerant matching), in batches, each batch in a child process
so that a native crash is counted (signal and faulthandler stack) rather than fatal; a child
silent for `--hang` seconds is killed and counted as a hang. The rest of a batch goes on in a new
child after the file that crashed or hung.

The edits of one file, in turn: a read; a comment added to a line (and taken away); a line
inserted and deleted; a closing bracket deleted and put back; non-ASCII text; a 100 KB line
inserted and deleted; a NUL byte (refused: it would turn the file binary); an edit after a
pause; an undo; in a language with definitions, three of them (first, middle, last) each read with
`read_symbol` and sent back to `edit_symbol` with a comment on its last line. Then a copy with CRLF line ends and a copy with a syntax error at its top, each
read and edited. After every change the file on
disk is compared with what the edit must have made (`wrong` counts the differences).

Per language: files, calls, crashes, hangs, wrong writes, error results by code, checks that ran
out of time, and the longest syntax check. A check over its budget (`syntax_budget`) by more than
`--slack` seconds, or a call over `--call-budget` seconds, counts as over budget. Target: 0
crashes, 0 hangs, 0 wrong writes, 0 calls over budget.
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import os
import random
import select
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import edittools.change._commit as change_module
from edittools import Session
from edittools._options import SessionOptions
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
    check_seconds: float = 0.0
    number: int = 0

    def report(self, **fields: Any) -> None:
        self.out.write(json.dumps(fields) + "\n")
        self.out.flush()

    def call(self, file: str, kind: str, method: str, *args: Any, **kwargs: Any) -> Any:
        self.report(start=[file, kind])
        self.check_seconds = 0.0
        began = time.perf_counter()
        result = getattr(self.session, method)(*args, **kwargs)
        seconds = time.perf_counter() - began
        payload = getattr(result.artifact, "payload", None)
        diagnostics = getattr(payload, "diagnostics", None) or []
        timed_out = any("budget" in (d.message or "") for d in diagnostics)
        code = None
        if result.is_error:
            error = getattr(payload, "code", None)
            code = error if isinstance(error, str) else "error"
        self.report(
            done=[file, kind],
            seconds=seconds,
            check=self.check_seconds,
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
    path.write_bytes(data)
    child.call(label, "read", "read", name)
    current = text

    def change(kind: str, old: str, new: str) -> bool:
        nonlocal current
        result = child.call(label, kind, "edit", name, old, new)
        if result.is_error:
            return False
        # New lines take the file's newline style (the tools' promise), and so does the old
        # text, which the tools find through that tolerance.
        expected = current.replace(_in_style(old, current), _in_style(new, current), 1)
        if path.read_bytes() != expected.encode("utf-8"):
            child.report(wrong=[label, kind])
        current = expected
        return True

    def there_and_back(kind: str, line: str | None, new: str | None) -> None:
        if line is None or new is None:
            child.report(skipped=label, kind=kind)
            return
        if change(kind, line, new):
            change(kind + " (mended)", new, line)

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
        if change("after a pause", line, line + comment(language, "later")):
            before = current
            result = child.call(label, "undo", "undo", name)
            if not result.is_error:
                current = before.replace(line + comment(language, "later"), line, 1)
                if path.read_bytes() != current.encode("utf-8"):
                    child.report(wrong=[label, "undo"])
    _edit_definitions(child, label, name, path, current, language)
    _edit_variant(child, label, name, "CRLF", text.replace("\n", "\r\n"), language)
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
    for first, last, _, symbol in [rows[k] for k in sorted({0, len(rows) // 2, len(rows) - 1})]:
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
        current = "\n".join(lines)
        if path.read_bytes() != current.encode("utf-8"):
            child.report(wrong=[label, "edit_symbol"])
            return


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
    if not result.is_error and path.read_bytes() != text.replace(line, new, 1).encode("utf-8"):
        child.report(wrong=[label, f"{kind}: edit"])


def run_child() -> None:
    """Edit the files named on stdin (JSON: [[path, language], ...]), reporting on stdout."""
    faulthandler.enable()
    files = json.loads(sys.stdin.read())
    out = sys.stdout
    with tempfile.TemporaryDirectory(prefix="soak-root-") as root, Session(root) as session:
        child = _Child(Path(root), session, out)
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


def _run_batch(
    batch: list[tuple[str, str]], tally: Tally, args: argparse.Namespace, budget: float
) -> None:
    """Run `batch` in children until every file is done, counting crashes and hangs."""
    language_of_file = dict(batch)
    todo = list(batch)
    while todo:
        proc = subprocess.Popen(
            [sys.executable, "-X", "faulthandler", __file__, "--child"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.write(json.dumps(todo))
        proc.stdin.close()
        current: list[str] | None = None
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
            if "start" in event:
                current = event["start"]
            elif "done" in event:
                file, kind = event["done"]
                language = language_of_file[file]
                tally.calls[language] += 1
                if event["code"]:
                    tally.codes[f"{event['code']} ({kind})"] += 1
                if event["timed_out"]:
                    tally.timed_out[language] += 1
                check, seconds = event["check"], event["seconds"]
                tally.longest_check[language] = max(tally.longest_check.get(language, 0), check)
                tally.longest_call[language] = max(tally.longest_call.get(language, 0), seconds)
                if check > budget + args.slack or seconds > args.call_budget:
                    tally.over_budget.append(
                        {"file": file, "kind": kind, "seconds": seconds, "check": check}
                    )
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


def run(args: argparse.Namespace) -> Tally:
    """Edit every file found, in batches over `args.workers` parallel children."""
    files = find_files(args.seed, args.sample)
    batches = [
        [(str(path), language) for path, language in files[i : i + args.batch]]
        for i in range(0, len(files), args.batch)
    ]
    tally = Tally()
    budget = SessionOptions().syntax_budget
    with ThreadPoolExecutor(args.workers) as pool:
        for future in [pool.submit(_run_batch, b, tally, args, budget) for b in batches]:
            future.result()
    return tally


def _table(tally: Tally, wall: float) -> str:
    rows = [
        "| language | files | calls | timed-out checks | longest check | longest call |",
        "|---|---|---|---|---|---|",
    ]
    for language in sorted(tally.calls, key=lambda k: -tally.calls[k]):
        rows.append(
            f"| {language} | {tally.files[language]:,} | {tally.calls[language]:,} "
            f"| {tally.timed_out[language]} | {tally.longest_check.get(language, 0) * 1000:.0f} ms "
            f"| {tally.longest_call.get(language, 0) * 1000:.0f} ms |"
        )
    files, calls = sum(tally.files.values()), sum(tally.calls.values())
    rows.append(f"| all | {files:,} | {calls:,} | {sum(tally.timed_out.values())} | | |")
    lines = [
        *rows,
        "",
        f"crashes: {len(tally.crashes)}, hangs: {len(tally.hangs)}, wrong writes: "
        f"{len(tally.wrong)}, calls over budget: {len(tally.over_budget)}, files not UTF-8: "
        f"{tally.skipped}, wall {wall:.0f} s",
        "error results by code: "
        + (", ".join(f"{k} {v}" for k, v in tally.codes.most_common()) or "none"),
    ]
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
    args = parser.parse_args()
    if args.child:
        run_child()
        return
    began = time.perf_counter()
    tally = run(args)
    wall = time.perf_counter() - began
    if args.json:
        print(json.dumps({**tally.__dict__, "wall": wall}, default=dict))
    else:
        print(_table(tally, wall))


if __name__ == "__main__":
    main()
