"""The project's formatter after a change (`format="project"`): part of the same change, shown
on its own line so the model's picture of the file is the file's."""

from __future__ import annotations

from dataclasses import dataclass

from edittools.artifacts import DiffPayload
from edittools.diff import diff_texts, unified_excerpt
from edittools.formatting import format_file
from edittools.state import Workspace
from sandbox import TextDocument


@dataclass(frozen=True)
class Formatting:
    """What the formatter did to a change's new text: its name, its own diff, or why not."""

    formatter: str
    diff: DiffPayload | None = None
    """The formatter's change of the new text (None: it changed nothing, or did not run)."""
    note: str | None = None
    """Why the unformatted text was kept (missing, failed, out of time)."""

    def describe(self) -> str:
        """The line (and the formatter's hunks) the model reads after the change's sentence."""
        if self.note is not None:
            return f"\nNot formatted ({self.formatter}): {self.note} The change was kept as sent."
        if self.diff is None:
            return ""
        stats = self.diff.stats
        return (
            f"\nFormatted by {self.formatter}, the project's formatter (+{stats.added} "
            f"-{stats.removed}); the file now reads:\n{unified_excerpt(self.diff.unified)}"
        )


def formatted(
    ws: Workspace, path: str, changed: TextDocument
) -> tuple[TextDocument, Formatting | None]:
    """`changed` run through the formatter `path`'s project configures, when the `format`
    policy is `project`; None when it is off or the project configures none."""
    if ws.options.format != "project":
        return changed, None
    root = ws.sandbox.root
    outcome = format_file(root, root / path, changed.text, budget=ws.options.format_budget)
    if outcome.formatter is None:
        return changed, None
    if outcome.note is not None:
        return changed, Formatting(outcome.formatter, note=outcome.note)
    if not outcome.changed or outcome.text == changed.text:
        return changed, Formatting(outcome.formatter)
    diff = diff_texts(changed.text, outcome.text, path=path, include_texts=False)
    return changed.with_text(outcome.text), Formatting(outcome.formatter, diff)
