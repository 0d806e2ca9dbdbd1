"""The body of an error card: the message laid out for reading, the raw detail folded away.

A tool's error message is written for a model: prose, then the closest lines of the file
(numbered), a difference between what was asked and what is there, and a hint. The card shows
the prose and the hint as text and the lines as code; the structured detail stays one click
away in a ``<details>`` element. Everything is escaped; only this module's markup is emitted.
"""

from __future__ import annotations

import json
import re
from html import escape
from typing import Any

from edittools.render._sanitize import visible

_NUMBERED = re.compile(r"^\s*\d+\t")
_CODE_CLASS = {"-": "del", "+": "add"}


def _text(value: str) -> str:
    return escape(visible(value), quote=True)


def _is_code(line: str) -> bool:
    """Lines quoted from a file or a difference: numbered, indented or with a diff marker."""
    return bool(_NUMBERED.match(line)) or line[:1] in (" ", "\t", "-", "+")


def error_body(message: str, detail: Any) -> str:
    """The message as paragraphs, code blocks and a hint, then the detail folded away."""
    blocks: list[str] = []
    code: list[str] = []

    def close_code() -> None:
        if code:
            blocks.append(f'<pre class="text error-code">{"".join(code)}</pre>')
            code.clear()

    for index, line in enumerate(message.split("\n")):
        if index and _is_code(line):
            css = "" if _NUMBERED.match(line) else _CODE_CLASS.get(line[:1], "")
            row = _text(line) + "\n"
            code.append(f'<span class="{css}">{row}</span>' if css else row)
            continue
        close_code()
        if line.startswith("Hint:"):
            blocks.append(f'<p class="hint">{_text(line)}</p>')
        elif line.strip() or not index:  # the first line always: it says what went wrong
            blocks.append(f'<p class="message">{_text(line)}</p>')
    close_code()
    if detail is not None:
        raw = json.dumps(detail, indent=2, ensure_ascii=False, default=str)
        blocks.append(
            '<details class="detail"><summary>detail</summary>'
            f'<pre class="text">{_text(raw)}</pre></details>'
        )
    return "".join(blocks)
