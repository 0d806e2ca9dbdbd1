"""Omission placeholders: found in the comment syntax of each language, never in real code."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from edittools._placeholders import Placeholder, placeholder_lines, placeholder_message
from edittools.syntax import language_of

PLACEHOLDERS = [
    ("python", "# ... existing code ..."),
    ("python", "# ... rest of the file unchanged ..."),
    ("python", "# ..."),
    ("python", "# …"),
    ("python", "# ... (unchanged)"),
    ("python", "# Rest of the class remains the same"),
    ("python", "# same as before"),
    ("python", "# previous code"),
    ("python", "# keep existing imports"),
    ("python", "# ... remaining methods"),
    ("python", "# existing code here"),
    ("python", "...rest of code..."),
    ("ruby", "# ... other methods ..."),
    ("javascript", "/* ... */"),
    ("javascript", "// ... rest of the handler logic unchanged"),
    ("typescript", "// ...existing code..."),
    ("tsx", "{/* ... existing code ... */}"),
    ("go", "// (unchanged)"),
    ("rust", "// rest of the code"),
    ("c", "/* rest of function unchanged */"),
    ("cpp", "// …existing code…"),
    ("java", "// ... other methods ..."),
    ("css", "/* ... existing styles ... */"),
    ("html", "<!-- ... existing ... -->"),
    ("markdown", "<!-- ... -->"),
    ("sql", "-- ... remaining code ..."),
    ("lua", "-- ..."),
    ("ini", "; ..."),
    (None, "// ... existing code ..."),
    (None, "<!-- rest of the file unchanged -->"),
    (None, "...rest of code..."),
]


@pytest.mark.parametrize(("lang", "line"), PLACEHOLDERS)
def test_a_placeholder_comment_is_found(lang: str | None, line: str) -> None:
    new = f"first = 1\n    {line}\nlast = 2\n"
    assert placeholder_lines("first = 1\nlast = 2\n", new, lang=lang) == [Placeholder(2, line)]


REAL_CODE = [
    ("python", "def stub(self) -> int: ..."),
    ("python", "    ..."),
    ("python", "x = ..."),
    ("python", "Alias = tuple[int, ...]"),
    ("python", 'message = "... existing code ..."'),
    ("python", "# The rest of the loop retries on failure"),
    ("python", "# unchanged"),
    ("python", "# TODO: handle the rest..."),
    ("python", "# Other methods"),
    ("python", "# the remaining functions"),
    ("python", "# Keep existing behaviour for old clients"),
    ("python", "# previous: the old API"),
    ("python", "# Existing users keep their settings."),
    ("python", "# remaining retries"),
    ("python", "# For brevity"),
    ("python", "#     ..."),
    ("python", "# ....................{ FORMAT ~ other }...................."),
    ("python", "#!/usr/bin/env python"),
    ("markdown", "# ... existing code ..."),
    ("javascript", "f(...args);"),
    ("javascript", "  ...rest,"),
    ("javascript", "  ...existing,"),
    ("javascript", "const { a, ...rest } = obj; // rest of props"),
    ("javascript", "// Wait for the rest..."),
    ("javascript", 'const s = "// ... existing code ...";'),
    ("go", "func sum(xs ...int) int {"),
    ("go", "sum(values...)"),
    ("rust", "for i in 0..n {"),
    ("rust", "let v = [1..=3];"),
    ("rust", "let Point { x, .. } = p;"),
    ("c", "/* see the rest of the file for details */"),
    ("c", 'printf("...\\n");'),
]


@pytest.mark.parametrize(("lang", "line"), REAL_CODE)
def test_real_code_is_no_placeholder(lang: str, line: str) -> None:
    assert placeholder_lines("", f"{line}\n", lang=lang) == []


def test_a_docstring_that_mentions_existing_code_is_prose() -> None:
    new = (
        "def merge(a, b):\n"
        '    """Merge b into a.\n'
        "\n"
        "    # ... existing code ...\n"
        "    ...rest of code...\n"
        "    The existing code is kept as it was: the rest of the file\n"
        "    unchanged.\n"
        '    """\n'
        "    return a | b\n"
    )
    assert placeholder_lines("", new, lang="python") == []


def test_a_comment_that_goes_on_from_the_line_above_is_prose() -> None:
    new = "// Checks the bundle so it can be processed by the\n// rest of the code.\nf();\n"
    assert placeholder_lines("", new, lang="javascript") == []


def test_a_placeholder_the_old_text_holds_is_left_to_the_model() -> None:
    old = "def f():\n    # ... existing code ...\n    return 1\n"
    new = "def f():\n        # ... existing code ...\n    return 2\n"
    assert placeholder_lines(old, new, lang="python") == []


def test_a_new_placeholder_beside_a_held_one_is_found() -> None:
    old = "a = 1\n# ...\n"
    new = "a = 2\n# ...\n# ... rest of the file unchanged ...\n"
    found = placeholder_lines(old, new, lang="python")
    assert found == [Placeholder(3, "# ... rest of the file unchanged ...")]


def test_the_comment_syntax_follows_the_language() -> None:
    assert placeholder_lines("", "// ...\n", lang="python") == []
    assert placeholder_lines("", "# ...\n", lang="javascript") == []
    assert placeholder_lines("", "<!-- ... -->\n", lang="python") == []
    assert placeholder_lines("", "# ...\n", lang=None) == [Placeholder(1, "# ...")]


def test_the_message_names_the_line_and_says_what_to_send() -> None:
    found = placeholder_lines("", "a = 1\nb = 2\n# ... existing code ...\n", lang="python")
    assert placeholder_message(found, "m.py") == (
        "The change puts an omission placeholder into m.py at line 3 (`# ... existing code ...`), "
        "which the file does not hold: written literally, it would replace the code it stands "
        "for. Nothing was written: send the full text instead of the placeholder."
    )


def test_the_message_lists_several_lines() -> None:
    found = [Placeholder(n, "# ...") for n in (1, 4, 9, 12)]
    message = placeholder_message(found, "m.py")
    assert "omission placeholders into m.py at lines 1, 4, 9 and 12 (`# ...`, " in message
    assert "and 1 more), which the file does not hold" in message


def test_no_placeholder_in_the_projects_own_source() -> None:
    """The project's modules hold real `...` (stubs, prose, spreads in the card's script) and no
    placeholder; this module's own examples live in tests, not there."""
    root = Path(__file__).parent.parent
    found = {}
    for path in sorted([*(root / "edittools").rglob("*"), *(root / "sandbox").rglob("*")]):
        lang = language_of(path.name)
        if path.suffix not in {".py", ".js", ".css", ".md"} or path.name == "_placeholders.py":
            continue
        hits = placeholder_lines("", path.read_text(encoding="utf-8"), lang=lang)
        if hits:
            found[str(path.relative_to(root))] = hits
    assert found == {}


_LINES = st.lists(
    st.sampled_from(
        [line for _, line in PLACEHOLDERS]
        + [line for _, line in REAL_CODE]
        + ["", "    return x", "}", "<div>", "-- ...", "  # ... existing code ..."]
    )
    | st.text(alphabet=st.sampled_from("#/*<!->.… abcrestofxg()\t"), max_size=30),
    max_size=12,
)


@given(old=_LINES, picks=st.lists(st.integers(min_value=0), max_size=20), data=st.data())
def test_new_text_made_of_old_lines_never_holds_a_placeholder(
    old: list[str], picks: list[int], data: st.DataObject
) -> None:
    lang = data.draw(st.sampled_from([None, "python", "javascript", "html", "go", "sql"]))
    indent = data.draw(st.sampled_from(["", "    ", "\t"]))
    new = [indent + old[i % len(old)].strip() for i in picks] if old else []
    assert placeholder_lines("\n".join(old), "\n".join(new), lang=lang) == []
