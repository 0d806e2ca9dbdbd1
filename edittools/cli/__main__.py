"""`python -m edittools.cli` runs the command line."""

from edittools.cli import run

run()
