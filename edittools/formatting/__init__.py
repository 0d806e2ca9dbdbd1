"""The project's own formatter, run on one file's text: the formatting a change is followed by.

`find_formatter` reads the nearest configuration between the file's folder and the root
(ruff or black from `pyproject.toml` / `ruff.toml`, prettier from its config, gofmt for a Go
module, rustfmt for a Cargo package, clang-format with a `.clang-format`) and never imposes a
formatter a project did not choose. `format_file` runs it on the text through stdin, within a
time budget, and says in a note why it kept the text when the formatter is missing, fails or
runs out of time: formatting never fails a change. Nothing here writes a file.
"""

from edittools.formatting._detect import Formatter, find_formatter
from edittools.formatting._format import Formatted, format_file

__all__ = ["Formatted", "Formatter", "find_formatter", "format_file"]
