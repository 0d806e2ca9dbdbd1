"""Tools by structure: symbols, read_symbol and edit_symbol on real files of every language with
definitions, through a Session on a real directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from edittools import Session

PY = '''import os


# The parser.
class Parser:
    """Parses."""

    @staticmethod
    def parse(text):
        return text.split()

    def count(self, text):
        return len(self.parse(text))


def parse(text):
    return [text]
'''

SAMPLES = {
    "a.js": (
        "/** Greets. */\nexport function greet(name) {\n  return 'hi ' + name;\n}\n\n"
        "class Box {\n  open() {\n    return 1;\n  }\n}\n\nconst twice = (x) => x * 2;\n",
        ["greet", "Box", "Box.open", "twice"],
    ),
    "a.ts": (
        "interface Shape {\n  area(): number;\n}\n\nexport class Square {\n"
        "  area(): number {\n    return 4;\n  }\n}\n\ntype Id = string;\n",
        ["Shape", "Square", "Square.area", "Id"],
    ),
    "a.go": (
        "package main\n\n// Point is.\ntype Point struct{}\n\n"
        "func (p *Point) Norm() int {\n\treturn 0\n}\n\nfunc main() {}\n",
        ["Point", "Point.Norm", "main"],
    ),
    "a.rs": (
        "/// A point.\n#[derive(Debug)]\nstruct Point { x: i32 }\n\nimpl Point {\n"
        "    fn norm(&self) -> i32 {\n        self.x\n    }\n}\n\nfn main() {}\n",
        ["Point", "Point.norm", "main"],
    ),
    "A.java": (
        "class A {\n  /** Doc. */\n  @Override\n  public int run(int x) {\n    return x;\n  }\n"
        "  A() {}\n}\n",
        ["A", "A.run", "A.A"],
    ),
    "a.c": (
        "/* adds */\nint add(int a, int b) {\n  return a + b;\n}\n\nstruct point { int x; };\n",
        ["add", "point"],
    ),
    "a.cpp": (
        "namespace geo {\nclass Box {\n public:\n  int size() { return 1; }\n};\n"
        "int Box::area() { return 2; }\n}\n",
        ["geo", "geo.Box", "geo.Box.size", "geo.Box.area"],
    ),
    "a.rb": (
        "# A parser.\nclass Parser\n  def parse(x)\n    x\n  end\nend\n\nmodule Util\nend\n",
        ["Parser", "Parser.parse", "Util"],
    ),
    "a.sh": ("# Greets.\ngreet() {\n  echo hi\n}\n", ["greet"]),
}


@pytest.fixture
def py(root: Path, session: Session) -> Session:
    (root / "p.py").write_text(PY)
    return session


def test_the_outline_lists_kind_dotted_name_and_lines(py: Session) -> None:
    result = py.symbols("p.py")
    assert not result.is_error, result.value
    rows = result.artifact.payload.rows  # type: ignore[union-attr]
    assert rows == [
        [4, 13, "class", "Parser"],  # the comment directly above belongs to it
        [8, 10, "method", "Parser.parse"],  # with its decorator
        [12, 13, "method", "Parser.count"],
        [16, 17, "function", "parse"],
    ]
    assert "8-10\t  method Parser.parse" in result.value


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_language_with_definitions_has_its_outline(
    root: Path, session: Session, name: str
) -> None:
    text, paths = SAMPLES[name]
    (root / name).write_text(text)
    result = session.symbols(name)
    assert not result.is_error, result.value
    assert [row[3] for row in result.artifact.payload.rows] == paths  # type: ignore[union-attr]


def test_read_symbol_shows_the_definition_and_counts_as_a_read(py: Session, root: Path) -> None:
    shown = py.read_symbol("p.py", "Parser.parse")
    assert not shown.is_error, shown.value
    assert shown.value.startswith("method Parser.parse, lines 8-10 of p.py:\n")
    assert "     8\t    @staticmethod\n     9\t    def parse(text):" in shown.value
    edit = py.edit("p.py", "return text.split()", "return text.split(',')")
    assert not edit.is_error, edit.value  # the symbol's read was a read of the file


def test_a_unique_last_part_names_it_and_an_ambiguous_one_is_refused(py: Session) -> None:
    assert py.read_symbol("p.py", "count").value.startswith("method Parser.count")
    ambiguous = py.read_symbol("p.py", "parse")  # the function is `parse` exactly
    assert ambiguous.value.startswith("function parse")
    refused = py.edit_symbol("p.py", "Parser.parse:1", "x")  # no such line in it
    assert refused.is_error and "no_match" in refused.value


def test_two_definitions_of_one_name_are_refused_with_each_ones_lines(
    root: Path, session: Session
) -> None:
    source = "def f():\n    return 1\n\n\ndef f():\n    return 2\n"
    (root / "twice.py").write_text(source)
    session.read("twice.py")
    refused = session.edit_symbol("twice.py", "f", "def f():\n    return 3")
    assert refused.is_error and "ambiguous_match" in refused.value
    assert "lines 1-2" in refused.value and "lines 5-6" in refused.value
    assert (root / "twice.py").read_text() == source
    picked = session.edit_symbol("twice.py", "f:5", "def f():\n    return 3")
    assert not picked.is_error, picked.value
    assert (root / "twice.py").read_text() == source.replace("return 2", "return 3")


def test_a_missing_symbol_lists_the_nearest_names(py: Session, root: Path) -> None:
    py.read("p.py")
    refused = py.edit_symbol("p.py", "Parser.parsee", "x")
    assert refused.is_error and "no_match" in refused.value
    assert "Nearest: Parser.parse" in refused.value
    assert (root / "p.py").read_text() == PY


def test_replace_takes_the_definitions_indentation_and_its_decorator(
    py: Session, root: Path
) -> None:
    py.read("p.py")
    new = "@classmethod\ndef parse(cls, text):\n    return text.split()\n"
    result = py.edit_symbol("p.py", "Parser.parse", new)
    assert not result.is_error, result.value
    want = PY.replace(
        "    @staticmethod\n    def parse(text):",
        "    @classmethod\n    def parse(cls, text):",
    )
    assert (root / "p.py").read_text() == want
    assert result.artifact.payload.stats.added == 2  # type: ignore[union-attr]


def test_body_before_and_after(py: Session, root: Path) -> None:
    py.read("p.py")
    assert not py.edit_symbol("p.py", "Parser.count", "return 0", where="body").is_error
    assert not py.edit_symbol("p.py", "parse", "def first():\n    pass", where="before").is_error
    assert not py.edit_symbol("p.py", "parse", "def last():\n    pass", where="after").is_error
    want = PY.replace("        return len(self.parse(text))", "        return 0")
    want = want.replace("\n\ndef parse(text):", "\n\ndef first():\n    pass\n\n\ndef parse(text):")
    want += "\n\ndef last():\n    pass\n"
    assert (root / "p.py").read_text() == want


def test_braces_body_and_tabs_in_go(root: Path, session: Session) -> None:
    text, _ = SAMPLES["a.go"]
    (root / "a.go").write_text(text)
    session.read("a.go")
    result = session.edit_symbol("a.go", "Point.Norm", "x := 1\nreturn x", where="body")
    assert not result.is_error, result.value
    assert (root / "a.go").read_text() == text.replace("\treturn 0\n", "\tx := 1\n\treturn x\n")
    one_line = session.edit_symbol("a.go", "main", "run()", where="body")
    assert not one_line.is_error, one_line.value
    assert (root / "a.go").read_text().endswith("func main() {\n\trun()\n}\n")


def test_crlf_and_utf16_files_keep_their_newlines_and_encoding(
    root: Path, session: Session
) -> None:
    source = PY.replace("\n", "\r\n")
    (root / "w.py").write_bytes(source.encode("utf-16"))
    session.read("w.py")
    result = session.edit_symbol("w.py", "Parser.count", "return -1", where="body")
    assert not result.is_error, result.value
    data = (root / "w.py").read_bytes()
    assert data.startswith(b"\xff\xfe")
    want = source.replace("        return len(self.parse(text))", "        return -1")
    assert data.decode("utf-16") == want


def test_an_edit_needs_a_read_and_can_be_undone_and_dry_run(py: Session, root: Path) -> None:
    unread = py.edit_symbol("p.py", "parse", "def parse(text):\n    return []")
    assert unread.is_error and "not_read" in unread.value
    py.read("p.py")
    dry = py.call(
        "edit_symbol",
        {"path": "p.py", "symbol": "parse", "new_text": "def parse(t):\n    return []"},
        dry_run=True,
    )
    assert not dry.is_error and (root / "p.py").read_text() == PY
    assert not py.edit_symbol("p.py", "parse", "def parse(t):\n    return []").is_error
    assert (root / "p.py").read_text() != PY
    assert not py.undo("p.py").is_error
    assert (root / "p.py").read_text() == PY


def test_a_change_elsewhere_since_the_read_is_merged_one_touching_it_refused(
    py: Session, root: Path
) -> None:
    py.read("p.py")
    (root / "p.py").write_text("import sys\n" + PY)  # a line added at the top, outside
    made = py.edit_symbol("p.py", "parse", "def parse(text):\n    return []")
    assert not made.is_error, made.value
    assert (root / "p.py").read_text().startswith("import sys\nimport os\n")
    assert (root / "p.py").read_text().endswith("def parse(text):\n    return []\n")
    py.read("p.py")
    now = (root / "p.py").read_text()
    (root / "p.py").write_text(now.replace("return len(self.parse(text))", "return 1"))
    refused = py.edit_symbol("p.py", "Parser.count", "return 2", where="body")
    assert refused.is_error and "stale_read" in refused.value


def test_a_file_of_no_known_language_is_refused_clearly(root: Path, session: Session) -> None:
    (root / "notes.txt").write_text("hello\n")
    refused = session.symbols("notes.txt")
    assert refused.is_error and "invalid_arguments" in refused.value
    assert "Use read and edit" in refused.value


def test_replacing_with_nothing_takes_the_lines_out_with_their_gap(py: Session, root: Path) -> None:
    py.read("p.py")
    assert not py.edit_symbol("p.py", "Parser.parse", "").is_error
    without = PY.replace(
        '    """Parses."""\n\n    @staticmethod\n    def parse(text):\n        return text.split()\n',
        '    """Parses."""\n',
    )
    assert (root / "p.py").read_text() == without
    assert not py.edit_symbol("p.py", "parse", "").is_error  # the last one: the file still ends
    assert (root / "p.py").read_text() == without.split("\n\n\ndef parse")[0] + "\n"


def test_read_symbol_has_no_footer_about_reading_more(py: Session) -> None:
    shown = py.read_symbol("p.py", "Parser.count")
    assert "Showing lines" not in shown.value and "offset=" not in shown.value


TRICKY = {
    "t.c": (
        "struct point { int x; };\n\ntypedef struct _pair {\n  int a;\n} pair;\n\n"
        "int wait(const struct timespec *t, struct point p) {\n  return 0;\n}\n",
        " /* edited */",
    ),
    "t.py": (
        'class Doc:\n    def text(self):\n        return """\nat column 0\n"""\n\n'
        "    def gap(self):\n        a = 1\n    \n        return a\n",
        "  # edited",
    ),
    "t.js": (
        "class Box {\n  #open() {\n    return 1;\n  }\n  close() {\n\treturn 2;\n  }\n}\n",
        " // edited",
    ),
    "t.cpp": ("namespace n {\nstruct s {\n  int a;\n};\n}  // namespace n\n", " // edited"),
    "u.py": (  # offsets past non-ASCII text: bytes of UTF-8 against characters
        "# " + "é" * 60 + "\ndef a():\n    return 'ß'\n\n\nclass B:\n    def c(self):\n"
        "        return '日本語 🎉'\n",
        "  # edited",
    ),
}


def _as_read(value: str) -> list[str]:
    """The lines a read_symbol result shows, without their numbers."""
    return [line.split("\t", 1)[1] for line in value.split("\n")[1:] if "\t" in line]


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_every_definition_sent_back_as_read_with_a_line_changed_changes_that_line(
    root: Path, session: Session, name: str
) -> None:
    """What read_symbol shows, sent back to edit_symbol with its last line changed, changes that
    line and nothing else: shared lines, odd indentation and blank lines with spaces included."""
    text, suffix = TRICKY[name]
    (root / name).write_text(text)
    rows = session.symbols(name).artifact.payload.rows  # type: ignore[union-attr]
    assert rows, session.symbols(name).value
    for first, last, _, path in rows:
        (root / name).write_text(text)
        session.read(name)
        shown = _as_read(session.read_symbol(name, f"{path}:{first}").value)
        assert shown == text.split("\n")[first - 1 : last]
        shown[-1] += suffix
        result = session.edit_symbol(name, f"{path}:{first}", "\n".join(shown))
        assert not result.is_error, (path, result.value)
        lines = text.split("\n")
        lines[last - 1] += suffix
        assert (root / name).read_text() == "\n".join(lines), path


def test_a_struct_used_as_a_type_is_no_definition(root: Path, session: Session) -> None:
    (root / "t.c").write_text(TRICKY["t.c"][0])
    paths = [row[3] for row in session.symbols("t.c").artifact.payload.rows]  # type: ignore[union-attr]
    assert paths == ["point", "_pair", "wait"]


def test_a_private_javascript_method_is_named_with_its_hash(root: Path, session: Session) -> None:
    (root / "t.js").write_text(TRICKY["t.js"][0])
    shown = session.read_symbol("t.js", "Box.#open")
    assert not shown.is_error and shown.value.startswith("method Box.#open")


def test_text_whose_first_line_is_deeper_is_kept_as_sent(root: Path, session: Session) -> None:
    source = "class A:\n    def f(self):\n        return 1\n"
    (root / "a.py").write_text(source)
    session.read("a.py")
    new = "        # deeper on purpose\n    def f(self):\n        return 2"
    assert not session.edit_symbol("a.py", "A.f", new).is_error
    assert (root / "a.py").read_text() == "class A:\n" + new + "\n"


def test_a_change_that_breaks_the_syntax_is_checked_like_every_change(root: Path) -> None:
    (root / "p.py").write_text(PY)
    with Session(root, syntax_check="refuse") as s:
        s.read("p.py")
        broken = s.edit_symbol("p.py", "Parser.count", "return len(self.parse(text)", where="body")
        assert broken.is_error and "syntax_error" in broken.value
    assert (root / "p.py").read_text() == PY


def test_a_tree_deeper_than_pythons_recursion_is_walked(root: Path, session: Session) -> None:
    """A generated table of nested initialisers (a real header had one) is deeper than the
    interpreter's recursion limit; its definitions are still found."""
    depth = 5000
    source = (
        "int table = "
        + "{" * depth
        + "1"
        + "}" * depth
        + ";\n\nint after(void) {\n  return 0;\n}\n"
    )
    (root / "deep.c").write_text(source)
    result = session.symbols("deep.c")
    assert not result.is_error, result.value
    assert [row[3] for row in result.artifact.payload.rows] == ["after"]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("name", "path", "lines"),
    [
        ("a.js", "greet", [1, 4]),  # its JSDoc comment
        ("a.go", "Point", [3, 4]),  # the comment above the type
        ("a.rs", "Point", [1, 3]),  # the doc comment and the attribute
        ("A.java", "A.run", [2, 6]),  # the Javadoc and the annotation
        ("a.c", "add", [1, 4]),
        ("a.rb", "Parser", [1, 6]),
        ("a.sh", "greet", [1, 4]),
    ],
)
def test_doc_comments_and_attributes_go_with_their_definition(
    root: Path, session: Session, name: str, path: str, lines: list[int]
) -> None:
    (root / name).write_text(SAMPLES[name][0])
    rows = session.symbols(name).artifact.payload.rows  # type: ignore[union-attr]
    assert [row[:2] for row in rows if row[3] == path] == [lines]


COMMENTED_OUT = {
    # name: (the lines above the definition that are code put away, its doc comment, the
    # definition, its name, the new text)
    "c.py": ("# old_call(x)\n# y = compute(x)\n", "# Adds.\n", "def add(a, b):\n    return a + b\n",
             "add", "def add(a, b):\n    return b + a"),
    "c.js": ("// foo();\n", "/** Adds. */\n", "function add(a, b) {\n  return a + b;\n}\n",
             "add", "function add(a, b) {\n  return b + a;\n}"),
    "c.go": ("package main\n\n// fmt.Println(x)\n", "// Add adds.\n",
             "func Add(a, b int) int {\n\treturn a + b\n}\n", "Add",
             "func Add(a, b int) int {\n\treturn b + a\n}"),
    "c.rs": ("// let old = add(1, 2);\n", "/// Adds.\n", "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
             "add", "fn add(a: i32, b: i32) -> i32 {\n    b + a\n}"),
    "c.c": ("/* int old = 1; */\n", "/* adds */\n", "int add(int a, int b) {\n  return a + b;\n}\n",
            "add", "int add(int a, int b) {\n  return b + a;\n}"),
    "C.java": ("class C {\n  // if (x) {\n", "  /** Adds. */\n",
               "  int add(int a, int b) {\n    return a + b;\n  }\n", "C.add",
               "int add(int a, int b) {\n  return b + a;\n}"),
    "c.rb": ("# puts(x)\n", "# Adds.\n", "def add(a, b)\n  a + b\nend\n", "add",
             "def add(a, b)\n  b + a\nend"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(COMMENTED_OUT))
def test_commented_out_code_above_a_definition_is_not_replaced_with_it(
    root: Path, session: Session, name: str
) -> None:
    """The doc comment directly above goes with the definition; code put away in comments above
    it is not part of it: replacing (or removing) the definition leaves that code where it is."""
    put_away, doc, definition, symbol, new = COMMENTED_OUT[name]
    tail = "}\n" if name == "C.java" else ""
    source = put_away + doc + definition + tail
    (root / name).write_text(source)
    first = source[: source.index(doc)].count("\n") + 1
    rows = session.symbols(name).artifact.payload.rows  # type: ignore[union-attr]
    assert [row[0] for row in rows if row[3] == symbol] == [first]  # the doc comment only
    session.read(name)
    result = session.edit_symbol(name, symbol, new)
    assert not result.is_error, result.value
    indent = "  " if name == "C.java" else ""
    replaced = "\n".join(indent + line for line in new.split("\n")) + "\n"
    assert (root / name).read_text() == put_away + replaced + tail
    session.read(name)
    assert not session.edit_symbol(name, symbol, "").is_error
    assert (root / name).read_text().startswith(put_away)


@pytest.mark.parametrize(
    ("name", "before", "after"),
    [
        (
            "m.py",
            "class C:\n    def load(self):\n        return 1\n\n    def save(self):\n        return 2\n",
            "class C:\n    def save(self):\n        return 2\n\n\ndef load(self):\n    return 1\n",
        ),
        (
            "m.js",
            "class C {\n  load() {\n    return 1;\n  }\n}\n",
            "class C {\n}\n\nfunction load() {\n  return 1;\n}\n",
        ),
        (
            "m.rs",
            "struct C;\n\nimpl C {\n    fn load(&self) -> i32 {\n        1\n    }\n}\n",
            "struct C;\n\nimpl C {\n}\n\nfn load(c: &C) -> i32 {\n    1\n}\n",
        ),
    ],
)
@pytest.mark.parametrize("where", ["body", "replace", "after"])
def test_a_symbol_moved_out_of_its_class_since_the_read_is_stale_not_missing(
    root: Path, session: Session, name: str, before: str, after: str, where: str
) -> None:
    (root / name).write_text(before)
    assert not session.read(name).is_error
    (root / name).write_text(after)  # another actor moved the method out of its class
    refused = session.edit_symbol(name, "C.load", "x", where=where)
    assert refused.is_error and "stale_read" in refused.value, refused.value
    assert "changed outside the tools since this session last read it" in refused.value
    assert (root / name).read_text() == after
