"""Function context in hunk headers: git's headings, language rules, and every reader accepts them."""

from __future__ import annotations

import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

from edittools.dialects._patches import payload_from_unified
from edittools.diff import diff_span, diff_spans, diff_texts, line_diff, parse_unified

STDLIB = Path(sysconfig.get_paths()["stdlib"])
# Real files: Python under git's python driver; C headers and Python under git's default rule.
REAL = {
    "textwrap.py": STDLIB / "textwrap.py",
    "decoder.py": STDLIB / "json" / "decoder.py",
    "wrap.txt": STDLIB / "textwrap.py",
    "stdio.txt": Path("/usr/include/stdio.h"),
    "zlib.txt": Path("/usr/include/zlib.h"),
}


def _headers(unified: str) -> list[str]:
    return [line for line in unified.split("\n") if line.startswith("@@")]


def _changed(data: bytes, step: int) -> bytes:
    lines = data.split(b"\n")
    for i in range(7, len(lines), step):
        lines[i] = b"changed " + lines[i]
    return b"\n".join(lines)


@pytest.mark.integration
def test_headings_match_git_on_real_files(tmp_path: Path) -> None:
    files = {name: path for name, path in REAL.items() if path.is_file()}
    assert len(files) >= 3
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitattributes").write_text("*.py diff=python\n")
    for name, source in files.items():
        shutil.copy(source, tmp_path / name)
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "old"], check=True)
    compared = 0
    for name in files:
        old = (tmp_path / name).read_bytes()
        for step in (37, 101):
            new = _changed(old, step)
            (tmp_path / name).write_bytes(new)
            theirs = subprocess.run(
                [*git, "diff", "--no-color", "--", name], capture_output=True, check=True
            ).stdout.decode()
            ours = diff_texts(old, new, path=name).unified
            assert _headers(ours) == _headers(theirs), name
            compared += sum(" @@ " in h for h in _headers(ours))
    assert compared > 50  # most hunks have a heading, so the comparison means something


def test_python_prefers_the_enclosing_def_over_a_statement() -> None:
    old = (
        "class A:\n    def f(self):\n"
        + "        x = 1\n" * 3
        + "        if x:\n"
        + ("            y = 2\n" + "        z = 3\n" * 3)
    )
    new = old.replace("y = 2", "y = 4")
    [hunk] = diff_texts(old, new, path="a.py").hunks
    assert hunk.heading == "def f(self):"
    # Git's default rule takes the nearest line starting with a letter: here none (all indented
    # but the class line).
    [plain] = diff_texts(old, new, path="a.txt").hunks
    assert plain.heading == "class A:"


@pytest.mark.parametrize(
    ("path", "above", "heading"),
    [
        ("m.go", "package m\n\nfunc (s *S) Run(x int) error {\n", "func (s *S) Run(x int) error {"),
        ("m.rs", "mod m {\n    pub fn run(&self) -> u8 {\n", "pub fn run(&self) -> u8 {"),
        ("m.rs", "impl<T> Foo for Bar<T> {\n", "impl<T> Foo for Bar<T> {"),
        (
            "M.java",
            "public class M {\n    private static int count(List<String> xs) {\n",
            "private static int count(List<String> xs) {",
        ),
        ("m.ts", "export class Shop {\n  async total(items: Item[]): number {\n", None),
        ("m.js", "const add = (a, b) => {\n", "const add = (a, b) => {"),
        ("m.js", "export async function load(url) {\n", "export async function load(url) {"),
        ("m.c", "int main(int argc, char **argv)\n{\nretry:\n", "int main(int argc, char **argv)"),
        ("m.cpp", "void Shop::run()\n{\npublic:\n", "void Shop::run()"),
    ],
)
def test_language_rules_pick_the_section_line(path: str, above: str, heading: str | None) -> None:
    body = "    a = 1;\n    b = 2;\n    c = 3;\n    d = 4;\n"
    old = above + body
    [hunk] = diff_texts(old, old.replace("d = 4", "d = 5"), path=path).hunks
    if heading is None:  # a TypeScript method with a return type after its parameters
        heading = "async total(items: Item[]): number {"
    assert hunk.heading == heading


def test_js_control_statements_are_not_headings() -> None:
    old = (
        "function outer() {\n  a();\n  if (ready) {\n"
        + "    x();\n" * 3
        + "    z();\n"
        + "    x();\n" * 3
    )
    [hunk] = diff_texts(old, old.replace("z();", "y();"), path="a.js").hunks
    assert hunk.heading == "function outer() {"


def test_headings_are_cut_to_80_bytes_and_lose_trailing_blanks() -> None:
    long = "def " + "x" * 100 + "():   \n"
    old = long + "    a = 1\n" * 5
    [hunk] = diff_texts(old, old[:-2] + "2\n", path="a.py").hunks
    assert hunk.heading == ("def " + "x" * 100)[:80]
    tail = "def f():   \n" + "    a = 1\n" * 5
    [hunk] = diff_texts(tail, tail[:-2] + "2\n", path="a.py").hunks
    assert hunk.heading == "def f():"


def test_no_heading_when_nothing_qualifies_and_none_at_snippet_granularity() -> None:
    old = "  a\n  b\n  c\n  d\n  e\n"
    [hunk] = diff_texts(old, old.replace("e", "E"), path="a.txt").hunks
    assert hunk.heading is None
    assert "@@ -2,4 +2,4 @@\n" in diff_texts(old, old.replace("e", "E"), path="a.txt").unified


def test_known_span_diffs_search_the_whole_old_text_above_their_region() -> None:
    head = "def far_above():\n" + "    pass\n" * 50
    old = head + "    target = 1\n" + "    pass\n" * 50
    start = old.index("target = 1")
    span = diff_span(old, start, start + len("target = 1"), "target = 2", path="a.py")
    assert (
        [h.heading for h in span.hunks]
        == [
            h.heading
            for h in diff_texts(old, old.replace("target = 1", "target = 2"), path="a.py").hunks
        ]
        == ["def far_above():"]
    )
    # Non-ASCII text above the region: offsets in characters and bytes differ.
    wide = "def é():\n" + "    ü = 'ß'\n" * 20 + "def g():\n" + "    v = 1\n" * 20
    at = wide.index("v = 1", wide.index("def g"))
    at = wide.index("v = 1", at + 60)  # beyond the context lines under `def g():`
    spans = [(at, at + 5, "v = 2")]
    payload = diff_spans(wide, spans, path="b.py")
    assert [h.heading for h in payload.hunks] == ["def g():"]


def test_headings_follow_hunks_in_order_and_look_only_above_their_own_start() -> None:
    old = "".join(f"def f{i}():\n" + "    x = 1\n" * 10 for i in range(5))
    new = old.replace("    x = 1\n", "    x = 2\n")
    headings = [h.heading for h in diff_texts(old, new, path="a.py", context=0).hunks]
    assert headings == [f"def f{i}():" for i in range(5)]
    # With context, a hunk's own first line is not its heading: the one above it is.
    new = old.replace("def f2():\n    x = 1\n", "def f2():\n    x = 3\n")
    assert [h.heading for h in diff_texts(old, new, path="a.py").hunks] == ["def f1():"]


def test_plain_line_diffs_carry_the_heading_into_their_unified_text() -> None:
    old = b"void run(void)\n{\n  a();\n  b();\n  c();\n  d();\n}\n"
    result = line_diff(old, old.replace(b"d()", b"e()"), path="x.c")
    assert result.hunks[0].heading == "void run(void)"
    assert "@@ -3,5 +3,5 @@ void run(void)\n" in result.unified("x.c")


@pytest.mark.integration
def test_headed_diffs_apply_with_git_and_patch_and_read_back(tmp_path: Path) -> None:
    old = "".join(f"def f{i}(a):\n" + "    a += 1\n" * 8 + "    return a\n" for i in range(4))
    new = old.replace("    return a\n", "    return a + 1\n")
    payload = diff_texts(old, new, path="m.py")
    assert sum(" @@ def " in h for h in _headers(payload.unified)) >= 2
    for tool in (["git", "apply"], ["patch", "-s", "-p1"]):
        work = tmp_path / tool[0]
        work.mkdir()
        (work / "m.py").write_text(old)
        subprocess.run(tool, cwd=work, input=payload.unified.encode(), check=True)
        assert (work / "m.py").read_text() == new
    [patch] = parse_unified(payload.unified)
    assert [h.heading for h in patch.hunks] == [h.heading for h in payload.hunks]
    [read] = payload_from_unified(payload.unified) or [None]
    assert read is not None
    assert [h.heading for h in read.hunks] == [h.heading for h in payload.hunks]


def test_a_heading_with_a_newline_never_breaks_the_unified_text() -> None:
    from edittools.artifacts import Hunk
    from edittools.diff import hunk_header

    hunk = Hunk(old_start=1, old_lines=1, new_start=1, new_lines=1, lines=[" a"], heading="x\ny")
    assert hunk_header(hunk) == "@@ -1 +1 @@"
