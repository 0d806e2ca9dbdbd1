"""`python -m edittools` runs the command line."""

from edittools.cli import run

run()
