"""`edittools demo`: a short scripted session in a temporary sandbox, previewed in the terminal."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from rich.rule import Rule

from edittools._session import Session
from edittools.cli._console import console
from edittools.render import render_result

_APP = '''\
"""A tiny greeting app."""


def greet(name):
    return "Hello, " + name


def main():
    print(greet("world"))
'''

_PATCH = """\
*** Begin Patch
*** Update File: app.py
@@ def main():
-    print(greet("world"))
+    for name in ("world", "agents"):
+        print(greet(name))
*** Add File: README.md
+# app
+
+Run `python app.py`.
*** End Patch
"""


def register(sub: Any) -> None:
    """Add the demo command to the parser."""
    p = sub.add_parser("demo", help="run a short scripted session and preview it",
                       description=cmd_demo.__doc__)  # fmt: skip
    p.add_argument("--keep", type=Path, default=None, metavar="DIR",
                   help="run in DIR (created, must be empty) and keep it")  # fmt: skip
    p.set_defaults(run=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    """Run read, edit, a failing edit, a patch and undo in a temporary sandbox and show each result.

    example: edittools demo
    """
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        return _run(args.keep)
    with tempfile.TemporaryDirectory(prefix="edittools-demo-") as root:
        return _run(Path(root))


def _run(root: Path) -> int:
    (root / "app.py").write_text(_APP)
    out = console()
    steps = [
        ("read app.py", lambda s: s.read("app.py")),
        ("edit: make the greeting friendlier",
         lambda s: s.edit("app.py", '"Hello, " + name', 'f"Hello, {name}!"')),
        ("edit with an old_string that is not in the file",
         lambda s: s.edit("app.py", "def greet(person):", "def greet(person, punctuation):")),
        ("apply_patch: update app.py, add README.md", lambda s: s.apply_patch(_PATCH)),
        ("undo the patch's change to app.py", lambda s: s.undo("app.py")),
    ]  # fmt: skip
    with Session(root) as session:
        for title, step in steps:
            out.print(Rule(title))
            result = step(session)
            out.print(result.value, markup=False, highlight=False)
            out.print()
            render_result(result, out)
            out.print()
        journal = session.workspace.journal_path
    out.print(Rule("journal"))
    out.print(f"{len(steps)} results journaled in {journal.name}; preview any journal with "
              "`edittools preview FILE` or `edittools report FILE -o report.html`.", markup=False)  # fmt: skip
    return 0
