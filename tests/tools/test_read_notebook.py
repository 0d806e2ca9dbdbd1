"""`read` of a notebook: its cells numbered, with ids, kinds and sources, each output summed up in
one line; its JSON lines when a range or anchors are asked for; journaled as it was shown."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
from pathlib import Path
from typing import Any

from edittools import Session
from edittools.cli import main

nbformat: Any = importlib.import_module("nbformat")


def made(path: Path) -> Any:
    v4 = nbformat.v4
    nb = v4.new_notebook(metadata={"language_info": {"name": "python"}})
    result = v4.new_output("execute_result", {"text/plain": "6.283185307179586"}, execution_count=7)
    plot = v4.new_output("display_data", {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"})
    failed = v4.new_output(
        "error", ename="ZeroDivisionError", evalue="division by zero", traceback=["..."]
    )
    nb.cells = [
        v4.new_markdown_cell("# Résumé\n```py\nx\n```", id="intro-01"),
        v4.new_code_cell(
            "import math\nmath.tau", id="tau-0002", execution_count=7, outputs=[result, plot]
        ),
        v4.new_code_cell("1 / 0", id="fail-003", execution_count=8, outputs=[failed]),
        v4.new_code_cell(
            "for i in range(3):\n    print(i)",
            id="loop-004",
            outputs=[v4.new_output("stream", text="0\n1\n2\n")],
        ),
    ]
    nbformat.write(nb, str(path))
    return nb


def test_a_notebook_reads_as_its_cells(tmp_path: Path) -> None:
    made(tmp_path / "a.ipynb")
    with Session(tmp_path) as session:
        result = session.read("a.ipynb")
    assert not result.is_error, result.value
    text = result.value
    assert text.startswith("a.ipynb: a Jupyter notebook (nbformat 4.5), 4 cells.")
    for header in (
        "## cell 0 · markdown · id intro-01",
        "## cell 1 · code · id tau-0002 · execution_count 7",
        "## cell 2 · code · id fail-003 · execution_count 8",
        "## cell 3 · code · id loop-004",
    ):
        assert f"\n{header}\n" in text
    # The source whole, fenced past any fence it holds.
    assert "\n````\n# Résumé\n```py\nx\n```\n````\n" in text
    assert "\n```python\nimport math\nmath.tau\n```\n" in text
    assert "\n[output 0] execute_result: text/plain 6.283185307179586\n" in text
    assert "\n[output 1] display_data: image/png (12 characters), text/plain <Figure>\n" in text
    assert "\n[output 0] error: ZeroDivisionError: division by zero\n" in text
    assert "\n[output 0] stream stdout: 0 (3 lines)" in text
    assert '"cell_type"' not in text  # not its JSON
    assert "edit_cell" in text


def test_a_range_or_anchors_read_its_json_lines(tmp_path: Path) -> None:
    made(tmp_path / "a.ipynb")
    with Session(tmp_path) as session:
        ranged = session.call("read", {"path": "a.ipynb", "offset": 1, "limit": 5})
        anchored = session.call("read", {"path": "a.ipynb", "anchors": True})
    assert '"cells": [' in ranged.value and "## cell" not in ranged.value
    assert '"cells": [' in anchored.value


def test_a_file_that_is_not_a_notebook_reads_as_its_text(tmp_path: Path) -> None:
    (tmp_path / "b.ipynb").write_text('{"cells": [\n')
    with Session(tmp_path) as session:
        result = session.read("b.ipynb")
    assert '{"cells": [' in result.value


def test_a_notebook_read_is_an_edit_cell_read_and_is_journaled_as_shown(tmp_path: Path) -> None:
    root, state = tmp_path / "root", tmp_path / "state"
    root.mkdir()
    made(root / "a.ipynb")
    with Session(root, state_dir=state) as session:
        shown = session.read("a.ipynb")
        assert session.journal()[-1].value == shown.value
        edited = session.edit_cell("a.ipynb", "fail-003", "1 / 2")
        assert not edited.is_error, edited.value
        again = session.read("a.ipynb")
        assert "1 / 2" in again.value and session.journal()[-1].value == again.value
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["log", "--jsonl", "--root", str(root), "--state-dir", str(state)]) == 0
    values = [json.loads(line)["value"] for line in out.getvalue().splitlines()]
    assert values[0] == shown.value and values[-1] == again.value


def test_a_notebook_too_long_to_show_by_cell_reads_as_its_json_lines(tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1\n" * 50) for _ in range(40)]
    nbformat.write(nb, str(tmp_path / "big.ipynb"))
    with Session(tmp_path, read_output_chars=4000) as session:
        whole = session.read("big.ipynb")  # as for any file this long: a range to read
        assert whole.is_error and "limit=" in whole.value, whole.value
        result = session.call("read", {"path": "big.ipynb", "limit": 30})
    assert '"cells": [' in result.value
