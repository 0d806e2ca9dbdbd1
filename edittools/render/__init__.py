"""Views of tool results: the terminal (rich) and a self-contained static HTML report."""

from edittools.render._html import render_report
from edittools.render._terminal import (
    ChangesetView,
    DiffView,
    ResultView,
    StatView,
    diff_header,
    diff_labels,
    render_result,
    render_stat,
    stat_summary,
)

__all__ = [
    "ChangesetView",
    "DiffView",
    "ResultView",
    "StatView",
    "diff_header",
    "diff_labels",
    "render_report",
    "render_result",
    "render_stat",
    "stat_summary",
]
