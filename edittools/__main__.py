"""`python -m edittools` runs the command line."""

import sys

from edittools.cli import main

sys.exit(main())
