"""Views of tool results: the terminal (rich) and a self-contained static HTML report.

`write_line_diff` prints a plain `LineDiff` with ANSI codes and loads neither rich nor the
models. Names are imported on first use, so that view starts fast.
"""

import typing as _typing

from edittools._lazy import lazy_names as _lazy_names

if _typing.TYPE_CHECKING:
    from edittools.render._ansi import wants_colour, write_line_diff
    from edittools.render._html import ReportCounts, render_report, report_page
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
    "ReportCounts",
    "ResultView",
    "StatView",
    "diff_header",
    "diff_labels",
    "render_report",
    "render_result",
    "render_stat",
    "report_page",
    "stat_summary",
    "wants_colour",
    "write_line_diff",
]

_HOMES = {
    "ChangesetView": "edittools.render._terminal",
    "DiffView": "edittools.render._terminal",
    "ReportCounts": "edittools.render._html",
    "ResultView": "edittools.render._terminal",
    "StatView": "edittools.render._terminal",
    "diff_header": "edittools.render._terminal",
    "diff_labels": "edittools.render._terminal",
    "render_report": "edittools.render._html",
    "render_result": "edittools.render._terminal",
    "render_stat": "edittools.render._terminal",
    "report_page": "edittools.render._html",
    "stat_summary": "edittools.render._terminal",
    "wants_colour": "edittools.render._ansi",
    "write_line_diff": "edittools.render._ansi",
}


__getattr__, __dir__ = _lazy_names(__name__, _HOMES, __all__)
