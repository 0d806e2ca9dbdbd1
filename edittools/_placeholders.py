"""Omission placeholders: comments that stand in for code a model did not send.

A lazy model writes `# ... existing code ...` or `<!-- ... -->` in `new_string` instead of the
lines it means to keep; written literally, it deletes them. `placeholder_lines` finds the lines
of the new text that are such comments and that the old text does not hold (a placeholder the
file or `old_string` already has is the model's to keep). Only whole-line comments count, in
the comment syntaxes of the file's language (all common ones when the language is unknown), and
only when the comment is nothing but an ellipsis or a short omission phrase: Python's `...`,
a spread `...args`, a range `..` and an ellipsis in a string or in prose are code, not omissions.
Pure logic: no I/O.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Placeholder", "placeholder_lines", "placeholder_message"]


@dataclass(frozen=True, slots=True)
class Placeholder:
    """One line of the new text that is an omission placeholder."""

    line: int
    """The line's number in the new text, from 1."""
    text: str
    """The line without its indentation."""


# Comment openers (a line comment, or a block comment with its closer) by language; a language
# missing from the table gets them all.
_HASH = ("#",)
_SLASHES = ("//",)
_BLOCK = (("/*", "*/"),)
_MARKUP = (("<!--", "-->"),)
_JSX = (("{/*", "*/}"), ("/*", "*/"))

_LINE_COMMENTS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        ("python", "ruby", "bash", "yaml", "toml", "make", "dockerfile", "cmake", "r"), _HASH
    ),
    **dict.fromkeys(
        ("c", "cpp", "java", "javascript", "typescript", "jsx", "tsx", "go", "rust", "kotlin"),
        _SLASHES,
    ),
    **dict.fromkeys(("swift", "csharp", "scss", "json"), _SLASHES),
    "php": ("//", "#"),
    "sql": ("--",),
    "lua": ("--",),
    "ini": (";", "#"),
    "css": (),
    "html": (),
    "xml": (),
    "markdown": (),
}
_BLOCK_COMMENTS: dict[str, tuple[tuple[str, str], ...]] = {
    **dict.fromkeys(
        ("c", "cpp", "java", "javascript", "typescript", "go", "rust", "kotlin", "swift"), _BLOCK
    ),
    **dict.fromkeys(("csharp", "php", "css", "scss", "sql", "json"), _BLOCK),
    **dict.fromkeys(("jsx", "tsx"), _JSX),
    **dict.fromkeys(("html", "xml", "markdown"), _MARKUP),
    "lua": (("--[[", "]]"),),
}
_ALL_LINE = ("//", "#", "--", ";")
_ALL_BLOCK = (("{/*", "*/}"), ("/*", "*/"), ("<!--", "-->"))

_ELLIPSIS = re.compile(r"\.{3,}|…")
# An ellipsis alone (`# ...`, `/* (...) */`); a longer run of dots is a rule, not an omission.
_ONLY_ELLIPSIS = re.compile(r"[\s()\[\]]*(?:(?<!\.)\.{3,5}(?!\.)|…)[\s()\[\]]*")
_OPENED = re.compile(r"[(\[]?\s*(?:(?<!\.)\.{3,5}(?!\.)|…)")
_BARE = re.compile(r"(?:\.{3,}|…)\s*[A-Za-z' ()]+?(?:\s*(?:\.{3,}|…))?")
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")

# A comment that is an omission names one: an anchor below, or with an ellipsis before it a
# weaker one (`// ... other methods`).
_ANCHOR = re.compile(
    r"\b(?:existing|rest of|remaining|unchanged|unmodified|untouched|omitted|previous"
    r"|same as (?:before|previously|above)|as before|keep (?:the )?existing|for brevity)\b"
)
_WEAK_ANCHOR = re.compile(r"\b(?:others?|more|rest|remainder|etc|snip|same)\b")
# Without an ellipsis, the anchor must be one of these phrases, or come with a second signal
# word (`# the remaining functions` heads a list; `# remaining code unchanged` is an omission).
_CERTAIN = re.compile(
    r"\b(?:existing code|remaining code|previous code|same as before|keep (?:the )?existing"
    r"|rest of (?:the )?(?:file|code|function|class|method|module|body|implementation))\b"
)
_SIGNAL_WORDS = """
    existing rest remaining unchanged unmodified untouched omitted previous same before keep
    remains remain stays stay here brevity
"""
_SIGNALS = frozenset(_SIGNAL_WORDS.split())
# Every word of such a comment must be one of these, so `# The rest of the loop retries` is
# prose and `# rest of the file unchanged` an omission (two strangers may follow an ellipsis).
_VOCABULARY_WORDS = """
    a all and any are as be before body class classes code content contents declarations
    definitions else elements entries etc everything existing file fields for from function
    functions go goes handlers helpers here implementation imports in is it items keep kept left
    like lines logic markup members method methods module more not of omitted or other others
    our previous previously properties remain remaining remains rest same shown snip stay stays
    stuff that the these this those to unchanged unmodified untouched your above below brevity
    remainder styles rules tests cases props options config settings routes components
    statements exports types code's file's function's class's
"""
_VOCABULARY = frozenset(_VOCABULARY_WORDS.split())
_MAX_WORDS = 10


def placeholder_lines(old: str, new: str, *, lang: str | None) -> list[Placeholder]:
    """The lines of `new` that are placeholder comments and that `old` does not hold.

    `old` is the text the change starts from: the file's current text (which holds
    `old_string`), or "" for a new file; a line counts as held when `old` has it with any
    indentation, so a placeholder the file already has is left to the model. `lang` is the file's
    language as `edittools.syntax.language_of` names it; None tries every comment syntax.
    """
    found = _candidates(new, lang, set())
    if found and lang == "python":  # the tokenizer only where there is something to judge
        found = _candidates(new, lang, _python_string_lines(new))
    if not found:
        return []
    held = {_normal(line) for line in old.splitlines()}
    return [p for p in found if _normal(p.text) not in held]


def _candidates(new: str, lang: str | None, strings: set[int]) -> list[Placeholder]:
    """The placeholder lines of `new`, leaving out the lines in `strings` (inside literals)."""
    found = []
    above: str | None = None  # the comment of the line above, if that line is one
    for number, line in enumerate(new.splitlines(), start=1):
        text = line.strip()
        body = _comment_body(text, lang) if text and number not in strings else None
        if text and number not in strings:
            continues = above is not None and _open_sentence(above)
            if (body is not None and _is_omission(body, continues=continues)) or (
                body is None and _is_bare_omission(text)
            ):
                found.append(Placeholder(number, text))
        above = body
    return found


def placeholder_message(found: Sequence[Placeholder], path: str) -> str:
    """The refusal an agent reads for `found` (not empty) in the new text of `path`: which lines,
    and what to send instead."""
    shown = ", ".join(f"`{p.text}`" for p in found[:3])
    if len(found) > 3:
        shown += f" and {len(found) - 3} more"
    numbers = [str(p.line) for p in found]
    where = (
        f"line {numbers[0]}"
        if len(found) == 1
        else ("lines " + ", ".join(numbers[:-1]) + f" and {numbers[-1]}")
    )
    noun = "an omission placeholder" if len(found) == 1 else "omission placeholders"
    return (
        f"The change puts {noun} into {path} at {where} ({shown}), which the file does not "
        "hold: written literally, it would replace the code it stands for. Nothing was written: "
        "send the full text instead of the placeholder."
    )


def _normal(line: str) -> str:
    return " ".join(line.split())


def _open_sentence(comment: str) -> bool:
    """Whether a comment is a sentence that goes on below it (several words, no full stop)."""
    said = comment.strip()
    return len(said.split()) >= 3 and not said.endswith((".", "!", "?", ":", ";"))


def _comment_body(text: str, lang: str | None) -> str | None:
    """What a whole-line comment says, without its markers; None when the line is no comment."""
    if lang in _LINE_COMMENTS or lang in _BLOCK_COMMENTS:
        line_markers = _LINE_COMMENTS.get(lang or "", ())
        block_markers = _BLOCK_COMMENTS.get(lang or "", ())
    else:
        line_markers, block_markers = _ALL_LINE, _ALL_BLOCK
    for opener, closer in block_markers:
        if text.startswith(opener) and text.endswith(closer) and len(text) >= len(opener + closer):
            return text[len(opener) : len(text) - len(closer)]
    for marker in line_markers:
        if text.startswith(marker):
            # `##`, `///`, `---`: a doubled marker is still the comment's opener.
            return text[len(marker) :].lstrip(marker[0])
    return None


def _is_omission(body: str, *, continues: bool) -> bool:
    """Whether a comment's text is nothing but an ellipsis or a short omission phrase;
    `continues` when the line goes on with the sentence of the comment line above it."""
    if len(body) - len(body.lstrip()) > 2:
        return False  # indented inside the comment: a commented-out example's line
    said = body.strip().lower()
    if _ONLY_ELLIPSIS.fullmatch(said):
        return True
    words = _WORD.findall(_ELLIPSIS.sub(" ", said))
    if not words or len(words) > _MAX_WORDS:
        return False
    phrase = " ".join(words)
    strangers = sum(word not in _VOCABULARY for word in words)
    if _OPENED.match(said):  # `// ... rest of the handler unchanged`: prose is rarely opened so
        return strangers <= 2 and bool(_ANCHOR.search(phrase) or _WEAK_ANCHOR.search(phrase))
    if strangers or not _ANCHOR.search(phrase):
        return False
    if _ELLIPSIS.search(said):
        return True
    if continues:  # `// ... processed by the` above: `// rest of the code.` ends a sentence
        return False
    if _CERTAIN.search(phrase):
        return True
    if sum(word in _SIGNALS for word in words) >= 2:
        return True
    return len(words) == 1 and said.startswith(("(", "["))  # `// (unchanged)`, not `# unchanged`


def _is_bare_omission(text: str) -> bool:
    """Whether a line that is no comment is an omission phrase opened by an ellipsis
    (`...rest of code...`); a spread (`...rest,`, `...args)`) has code punctuation or one word."""
    if not _BARE.fullmatch(text):
        return False
    words = _WORD.findall(text.lower())
    phrase = " ".join(words)
    return (
        len(words) > 1
        and bool(_ANCHOR.search(phrase))
        and all(word in _VOCABULARY for word in words)
    )


def _python_string_lines(text: str) -> set[int]:
    """The lines of Python `text` that lie inside a string (a docstring's prose); none when
    `text` does not tokenize (a fragment cut inside a bracket or a string)."""
    lines: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.STRING or tokenize.tok_name[token.type] == "FSTRING_MIDDLE":
                lines.update(range(token.start[0], token.end[0] + 1))
    except (tokenize.TokenError, SyntaxError):
        return set()
    return lines
