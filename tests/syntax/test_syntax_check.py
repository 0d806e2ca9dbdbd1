"""Syntax checks of changes: each language's breaking and harmless edits, already broken files,
new files, CRLF, columns in characters, the size cap, lazy grammars, incremental parsing."""

from __future__ import annotations

import itertools
import math
import random
import subprocess
import sys

import pytest
from syntax_samples import SAMPLES, UNBREAKABLE, Sample

from edittools.syntax import CHECKED_LANGUAGES, _languages, check_change, language_of
from edittools.syntax import _trees as trees
from edittools.syntax._languages import grammar

PYTHON = "import os\n\n\ndef area(w, h):\n    return w * h\n\n\ndef name():\n    return os.name\n"


def changed(text: str, edit: tuple[str, str]) -> str:
    old, new = edit
    assert text.count(old) == 1
    return text.replace(old, new)


def test_every_checked_language_has_a_sample() -> None:
    assert {language_of(sample.name) for sample in SAMPLES} == CHECKED_LANGUAGES


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_a_harmless_edit_is_not_flagged(sample: Sample) -> None:
    check = check_change(sample.name, sample.text, changed(sample.text, sample.harmless))
    assert check is not None
    assert check.diagnostics == ()
    assert not check.broken


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_a_breaking_edit_is_flagged_on_its_line(sample: Sample) -> None:
    new = changed(sample.text, sample.breaking)
    check = check_change(sample.name, sample.text, new)
    assert check is not None
    if sample.name in UNBREAKABLE:
        assert not check.broken
        return
    assert check.broken
    edited_line = sample.text[: sample.text.index(sample.breaking[0])].count("\n") + 1
    first = check.diagnostics[0]
    assert first.source == "syntax" and first.severity == "error"
    assert first.line is not None and first.end_line is not None
    # The error starts at the edited line or after it (a missing closer is noticed where the
    # parser expected it, up to the end of the file).
    assert edited_line - 1 <= first.line and edited_line <= first.end_line + 1
    assert "no longer parses" in check.describe(kept=True)


def test_names_without_a_grammar_are_not_checked() -> None:
    for name in ("notes.txt", "Makefile", "a.kt", "README"):
        assert check_change(name, "x", "(") is None


def test_a_new_file_counts_every_error() -> None:
    check = check_change("new.json", None, '{"a": [1, 2}\n')
    assert check is not None and check.broken
    assert check.diagnostics[0].line == 1


def test_an_already_broken_file_gives_no_alarm_for_an_edit_elsewhere() -> None:
    broken = "def first(:\n    pass\n\n\n" + PYTHON
    check = check_change("a.py", broken, broken.replace("os.name", "os.sep"))
    assert check is not None and check.diagnostics == ()
    # Editing inside the broken region is no alarm either.
    check = check_change("a.py", broken, broken.replace("first(:", "first(x:"))
    assert check is not None and check.diagnostics == ()


def test_an_already_broken_file_still_flags_a_new_break_elsewhere() -> None:
    broken = "def first(:\n    pass\n\n\n" + PYTHON
    new = broken.replace("return w * h", "return (w * h")
    check = check_change("a.py", broken, new)
    assert check is not None and check.broken
    lines = [d.line for d in check.diagnostics]
    assert 1 not in lines  # the old error is not reported again
    assert lines and all(line is not None and line >= 8 for line in lines)


def test_lines_shift_with_the_change_before_an_old_error() -> None:
    """An old error far below the change moves with the lines the change added: still no alarm."""
    broken = PYTHON + "\n\ndef last(:\n    pass\n"
    new = broken.replace("import os\n", "import os\nimport sys\nimport re\n")
    check = check_change("a.py", broken, new)
    assert check is not None and check.diagnostics == ()


def test_fixing_one_error_while_adding_none_is_quiet() -> None:
    broken = "def first(:\n    pass\n" + PYTHON
    check = check_change("a.py", broken, broken.replace("first(:", "first():"))
    assert check is not None and check.diagnostics == ()


def test_crlf_text_reports_the_right_line() -> None:
    text = PYTHON.replace("\n", "\r\n")
    assert check_change("a.py", text, text.replace("os.name", "os.sep")).diagnostics == ()  # type: ignore[union-attr]
    check = check_change("a.py", text, text.replace("def name():", "def name()"))
    assert check is not None and check.broken
    assert check.diagnostics[0].line == 8


def test_columns_count_characters_not_bytes() -> None:
    text = 'x = {"é€": 1, "b": 2}\n'
    check = check_change("a.json", None, '{"é€": [1, 2}\n')
    assert check is not None and check.broken
    assert check.diagnostics[0].column == len('{"é€": [1, 2') + 1
    assert check_change("a.py", text, text.replace("1", "3")).diagnostics == ()  # type: ignore[union-attr]


def test_a_file_over_the_cap_is_skipped_with_a_note() -> None:
    text = "x = 1\n" * 100
    check = check_change("a.py", text, text + "(\n", max_bytes=200)
    assert check is not None and not check.broken
    (note,) = check.diagnostics
    assert note.severity == "info" and note.line is None and "200 bytes" in note.message


def test_the_excerpt_numbers_and_marks_the_broken_lines() -> None:
    check = check_change("a.py", PYTHON, PYTHON.replace("def name():", "def name()"))
    assert check is not None
    text = check.describe(kept=False)
    assert "was not written" in text
    assert " >  8 | def name()" in text or " > 8 | def name()" in text
    assert "   7 | " in text or "  7 | " in text


def test_incremental_reparse_agrees_with_a_fresh_parse() -> None:
    """Edits that reuse the kept tree find exactly what a parse from scratch finds."""
    texts = [PYTHON]
    for old, new in [("w * h", "w * (h"), ("(h", "h"), ("import os", "import os, sys"),
                     ("def name():", "def name()"), ("def name()", "def name():"),
                     ("return os.name\n", "return os.name\n\nclass A:\n    x = [\n")]:  # fmt: skip
        texts.append(texts[-1].replace(old, new))
    warm = []
    for before, after in itertools.pairwise(texts):
        warm.append(check_change("a.py", before, after))
    cold = []
    for before, after in itertools.pairwise(texts):
        trees._trees.clear()
        cold.append(check_change("a.py", before, after))
    assert warm == cold
    assert any(check is not None and check.broken for check in warm)


def test_changed_span_finds_the_differing_bytes() -> None:
    assert trees.changed_span(b"abcdef", b"abXYef") == (2, 4, 4)
    assert trees.changed_span(b"aaaa", b"aaaaaa") == (4, 4, 6)
    assert trees.changed_span(b"abc", b"abc") == (3, 3, 3)
    assert trees.changed_span(b"xabc", b"abc") == (0, 1, 0)


def test_grammars_are_imported_only_for_the_languages_checked() -> None:
    code = (
        "import sys\n"
        "from edittools.syntax import check_change\n"
        "check_change('a.py', 'x = 1\\n', 'x = (\\n')\n"
        "print(sorted(m for m in sys.modules if m.startswith('tree_sitter_') and '.' not in m))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['tree_sitter_python']"


def test_incremental_trees_equal_fresh_trees_over_random_edits() -> None:
    """Each edit re-parsed from the previous tree gives the very tree a fresh parse gives."""
    language = grammar("python")
    assert language is not None
    rng = random.Random(16)
    text = (PYTHON * 4).encode()
    tree = trees.parse(language, text, math.inf)
    pieces = [b"(", b")", b":", b"\n", b"    ", b"x", b"'", b""]
    for _ in range(60):
        start = rng.randrange(len(text))
        end = min(len(text), start + rng.randrange(4))
        new = text[:start] + rng.choice(pieces) + text[end:]
        tree = trees.reparse(language, text, tree, new, trees.changed_span(text, new), math.inf)
        assert str(tree.root_node) == str(trees.parse(language, new, math.inf).root_node)
        text = new


def test_a_new_error_merged_with_an_old_one_above_still_counts() -> None:
    """The parser may fold a new break into an old error region; it reached the changed lines."""
    broken = "def greet(name)\n    return 'Hello, ' + name\n\n\nprint(greet('world'))\n"
    check = check_change("a.py", broken, broken.replace("('world'))", "('world')"))
    assert check is not None and check.broken
    assert check_change("a.py", broken, broken.replace("'world'", "'you'")).diagnostics == ()  # type: ignore[union-attr]


def test_a_python_body_that_lost_its_indentation_is_flagged() -> None:
    """The grammar reads it as an empty block without an ERROR node; the check still says so."""
    check = check_change("a.py", PYTHON, PYTHON.replace("    return w * h", "return w * h"))
    assert check is not None and check.broken
    assert [(d.line, d.message) for d in check.diagnostics] == [(4, "expected an indented block")]
    # At the very end of the file too, and an empty block elsewhere that was there before is not
    # this change's.
    tail = PYTHON.replace("    return os.name\n", "return os.name")
    assert check_change("a.py", PYTHON, tail).broken  # type: ignore[union-attr]
    assert check_change("a.py", tail, tail.replace("w * h", "h * w")).diagnostics == ()  # type: ignore[union-attr]


def test_a_grammar_that_cannot_load_means_no_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """A missing grammar package (or one built for another ABI) turns the check off, not the tool."""
    monkeypatch.delitem(_languages._loaded, "python", raising=False)
    monkeypatch.setitem(_languages._GRAMMARS, "python", ("no_such_grammar_package", "language"))
    assert check_change("a.py", PYTHON, PYTHON + "(\n") is None


def test_the_excerpt_counts_lines_as_the_parser_does() -> None:
    """A form feed is no line break for the parser, so it is none in the excerpt either."""
    text = "x = 1  # \x0c page\ny = [\n    1,\n]\n"
    check = check_change("a.py", text, text.replace("]\n", "\n"))
    assert check is not None and check.broken
    assert f" > {check.diagnostics[0].line} | y = [" in check.excerpt
