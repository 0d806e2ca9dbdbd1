"""The one sentence a change's value starts with: what was done, `(+a -r)`, whether the diff
behind those counts was cut to its time budget, and which tolerances found the text."""

from __future__ import annotations

from collections.abc import Iterable

from edittools.artifacts import DiffPayload

COARSE_NOTE = (
    "The diff was cut to its time budget: it is correct but coarser than minimal, so the "
    "counts may overstate the change."
)
"""What a value says of a diff that is not minimal (`DiffPayload.minimal`)."""


def sentence(
    headline: str, payload: DiffPayload, *, said: str = "", tolerances: Iterable[str] = ()
) -> str:
    """`headline` (which names the file) with the change's counts, the coarse note when the diff
    is not minimal, `said` (what else the tool found), then the tolerances on a line of their
    own when the text was not found exactly."""
    first = f"{headline} (+{payload.stats.added} -{payload.stats.removed})."
    if not payload.minimal:
        first += f" {COARSE_NOTE}"
    if said:
        first += f" {said}"
    note = tolerance_note(tolerances)
    return f"{first}\n{note}" if note else first


def summary(verb: str, payload: DiffPayload) -> str:
    """The sentence of a change whose headline is a verb and the payload's path."""
    return sentence(f"{verb} {payload.path}", payload)


def tolerance_note(tiers: Iterable[str], *, what: str = "Matched") -> str:
    """ "Matched with tolerance: indentation, trailing whitespace." for the tiers other than
    `exact` (each named once, as `match` names it, with spaces); "" when every match was exact."""
    names = sorted({tier for tier in tiers if tier != "exact"})
    if not names:
        return ""
    return f"{what} with tolerance: {', '.join(name.replace('_', ' ') for name in names)}."


def overlap_of(count: int) -> str:
    """How an ambiguity of `count` places, some overlapping, says they overlap."""
    return "they overlap" if count == 2 else "some of them overlap"
