"""`edittools demo`: a short scripted session in a temporary sandbox, previewed in the terminal."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from edittools.cli._console import console

if TYPE_CHECKING:
    from rich.console import Console

    from edittools import Session
    from edittools.artifacts import ToolResult

_VALUE_LINES = 6  # the model's text is shown in part: the point is that it is plain text

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
                   help="run in DIR (created if missing, must be empty) and keep it")  # fmt: skip
    p.set_defaults(run=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    """Run read, edit, a failing edit, a patch and undo in a temporary sandbox and show each result.

    Each step shows what the model reads (the result's text value) and what a UI shows (its
    artifact, rendered).

    example: edittools demo
    example: edittools demo --keep demo-sandbox && edittools log --root demo-sandbox
    """
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        if any(args.keep.iterdir()):
            raise ValueError(f"{args.keep} is not empty; give --keep a new or empty directory.")
        return _run(args.keep, keep=True)
    import tempfile

    with tempfile.TemporaryDirectory(prefix="edittools-demo-") as folder:
        # The state goes beside the temporary root, so nothing outlives the demo.
        (Path(folder) / "sandbox").mkdir()
        return _run(Path(folder) / "sandbox", keep=False, state_dir=Path(folder) / "state")


def _run(root: Path, *, keep: bool, state_dir: Path | None = None) -> int:
    from rich.rule import Rule

    from edittools import Session

    (root / "app.py").write_text(_APP)
    out = console()
    steps: list[tuple[str, Callable[[Session], ToolResult]]] = [
        ("read app.py", lambda s: s.read("app.py")),
        ("edit: make the greeting friendlier",
         lambda s: s.edit("app.py", '"Hello, " + name', 'f"Hello, {name}!"')),
        ("edit with an old_string that is not in the file",
         lambda s: s.edit("app.py", "def greet(person):", "def greet(person, punctuation):")),
        ("apply_patch: update app.py, add README.md", lambda s: s.apply_patch(_PATCH)),
        ("undo the patch's change to app.py", lambda s: s.undo("app.py")),
    ]  # fmt: skip
    with Session(root, state_dir=state_dir) as session:
        for number, (title, step) in enumerate(steps, start=1):
            out.print(Rule(f"{number}/{len(steps)}  {title}"))
            _show(step(session), out)
        state = session.workspace.state_path
    out.print(Rule("journal"))
    if keep:
        out.print(f"{len(steps)} results journaled in the state folder {state}. Try:\n"
                  f"  edittools log --root {root}\n  edittools preview --root {root}\n"
                  f"  edittools report --root {root} -o report.html", markup=False)  # fmt: skip
    else:
        out.print(f"{len(steps)} results were journaled in a temporary state folder; "
                  "`edittools demo --keep DIR` keeps them to preview or report.", markup=False)  # fmt: skip
    return 0


def _show(result: ToolResult, out: Console) -> None:
    """The two channels of one result, labelled: the model's text and the UI's artifact."""
    from rich.text import Text

    from edittools.render import render_result

    lines = result.value.splitlines()
    shown = "\n".join(lines[:_VALUE_LINES])
    if len(lines) > _VALUE_LINES:
        shown += f"\n… {len(lines) - _VALUE_LINES} more lines"
    kind = result.artifact.kind if result.artifact is not None else "none"
    error = ", is_error" if result.is_error else ""
    out.print(Text(f"model reads (value{error}):", style="bold cyan"))
    for line in shown.splitlines():
        out.print(Text("  │ ", style="cyan") + Text(line, style="dim"))
    out.print(Text(f"UI shows (artifact: {kind}):", style="bold magenta"))
    render_result(result, out)
    out.print()
