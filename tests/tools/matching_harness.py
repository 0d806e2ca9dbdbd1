"""Applying a located match in tests: the splice written out plainly, as an oracle of its own."""

from __future__ import annotations

import pytest

from edittools._errors import ToolError
from edittools.tools.matching._matching import Match, locate


def splice(text: str, match: Match) -> str:
    """`text` with each span of `match` replaced, built piece by piece."""
    out, prev = [], 0
    for (start, end), repl in zip(match.spans, match.replacements, strict=True):
        out += [text[prev:start], repl]
        prev = end
    out.append(text[prev:])
    return "".join(out)


def apply(text: str, old: str, new: str, **kw: bool) -> tuple[str, str]:
    """The text after the edit, and the tier that matched."""
    m = locate(text, old, new, **kw)
    return splice(text, m), m.tier


def refused(text: str, old: str, new: str) -> ToolError:
    """The refusal of an edit that must not apply."""
    with pytest.raises(ToolError) as info:
        locate(text, old, new)
    return info.value
