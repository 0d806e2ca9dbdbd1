"""edit_cell on real notebooks: each mode, the file's own JSON style kept byte for byte, errors,
staleness, undo, and a property over sequences of cell edits.

The notebooks are written as nbformat writes them (`json.dumps(nb, sort_keys=True, indent=1,
ensure_ascii=False)` and a final newline), or in another style (indent 2, keys in insertion
order, non-ASCII escaped, CRLF): after each edit the file must be exactly the expected notebook
dumped in the same style, which says both that the JSON is right and that no other byte moved.
"""

from __future__ import annotations

import copy
import importlib
import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from edittools import Session
from edittools.artifacts import DiffArtifact, ToolResult

nbformat: Any = importlib.import_module("nbformat")  # untyped: Any, not a stub to install
_ID = re.compile(r"^[a-zA-Z0-9-_]{8,}$")


def code(source: list[str], cell_id: str | None = None, *, count: int | None = None,
         outputs: list[dict[str, Any]] | None = None) -> dict[str, Any]:  # fmt: skip
    cell: dict[str, Any] = {"cell_type": "code", "execution_count": count, "metadata": {},
                            "outputs": outputs or [], "source": source}  # fmt: skip
    if cell_id is not None:
        cell["id"] = cell_id
    return cell


def markdown(source: list[str], cell_id: str | None = None) -> dict[str, Any]:
    cell: dict[str, Any] = {"cell_type": "markdown", "metadata": {}, "source": source}
    if cell_id is not None:
        cell["id"] = cell_id
    return cell


STREAM = {"name": "stdout", "output_type": "stream", "text": ["hello\n"]}
PLOT = {
    "data": {"image/png": "iVBORw0KGgo=\n", "text/plain": ["<Figure size 640x480>"]},
    "metadata": {},
    "output_type": "display_data",
}


def notebook(cells: list[dict[str, Any]], *, minor: int = 5) -> dict[str, Any]:
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"file_extension": ".py", "name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": minor,
    }


def nbformat_style(nb: dict[str, Any]) -> str:
    """What nbformat writes for `nb`."""
    return json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def sample() -> dict[str, Any]:
    return notebook(
        [
            markdown(["# Étude\n", "Naïve prose — with “quotes”"], "intro-01"),
            code(["import math\n", "print('hello')"], "load-002", count=3, outputs=[STREAM]),
            code(["plot()"], "plot-003", count=4, outputs=[PLOT]),
        ]
    )


def cells_of(path: Path) -> list[dict[str, Any]]:
    cells: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return cells


def ok(result: ToolResult) -> ToolResult:
    assert not result.is_error, result.value
    assert isinstance(result.artifact, DiffArtifact)
    return result


def error_code(result: ToolResult) -> str:
    assert result.is_error
    data = result.model_dump(mode="json")
    code: str = data["artifact"]["payload"]["code"]
    return code


@pytest.fixture
def nb(root: Path, session: Session) -> Path:
    path = root / "a.ipynb"
    path.write_text(nbformat_style(sample()), encoding="utf-8")
    assert not session.read("a.ipynb").is_error
    return path


def test_replace_by_id_changes_only_that_cell_source_and_keeps_its_outputs(
    nb: Path, session: Session
) -> None:
    before = nb.read_bytes()
    result = ok(session.edit_cell("a.ipynb", "load-002", "import math\nprint(math.pi)\n"))
    want = sample()
    want["cells"][1]["source"] = ["import math\n", "print(math.pi)\n"]
    after = nb.read_bytes()
    assert after.decode() == nbformat_style(want)
    assert "Replaced cell 1 (id load-002) of a.ipynb" in result.value
    assert "Cleared" not in result.value and "output" not in result.value
    # The bytes outside the cell are the file's own.
    text = before.decode()
    start = text.index('  {\n   "cell_type": "code"')
    end = text.index('  {\n   "cell_type": "code"', start + 1)
    assert after.startswith(before[: len(text[:start].encode())])
    assert after.endswith(before[len(text[:end].encode()) :])
    assert isinstance(result.artifact, DiffArtifact)
    removed = [line for h in result.artifact.payload.hunks for line in h.lines if line[0] == "-"]
    assert all("intro" not in line and "plot" not in line for line in removed)


def test_a_markdown_cell_keeps_its_type(nb: Path, session: Session) -> None:
    result = ok(session.edit_cell("a.ipynb", "intro-01", "# Études\n\nTwo lines"))
    want = sample()
    want["cells"][0] = markdown(["# Études\n", "\n", "Two lines"], "intro-01")
    assert nb.read_text(encoding="utf-8") == nbformat_style(want)
    assert "Cleared" not in result.value


def test_replace_by_index_in_a_notebook_without_ids(root: Path, session: Session) -> None:
    plain = notebook([markdown(["# A"]), code(["x = 1"], count=1, outputs=[STREAM])], minor=4)
    path = root / "old.ipynb"
    path.write_text(nbformat_style(plain), encoding="utf-8")
    session.read("old.ipynb")
    for ref in (1, "1", "cell-1"):
        ok(session.edit_cell("old.ipynb", ref, f"y = {ref!r}"))
    plain["cells"][1] = code(["y = 'cell-1'"], count=1, outputs=[STREAM])
    assert path.read_text(encoding="utf-8") == nbformat_style(plain)
    inserted = ok(session.edit_cell("old.ipynb", 0, "y = 2", mode="insert"))
    assert "(id " not in inserted.value  # no ids in the notebook: none given
    assert "id" not in cells_of(path)[1]


def test_insert_after_a_cell_gives_a_fresh_id(nb: Path, session: Session) -> None:
    result = ok(session.edit_cell("a.ipynb", "intro-01", "## Part 1", mode="insert",
                                  cell_type="markdown"))  # fmt: skip
    cells = cells_of(nb)
    new = cells[1]
    assert _ID.match(new["id"]) and new["id"] not in {"intro-01", "load-002", "plot-003"}
    want = sample()
    want["cells"].insert(1, markdown(["## Part 1"], new["id"]))
    assert nb.read_text(encoding="utf-8") == nbformat_style(want)
    assert f"Inserted a markdown cell (id {new['id']}) as cell 1 of a.ipynb" in result.value


def test_insert_at_the_top_and_at_the_end(nb: Path, session: Session) -> None:
    ok(session.edit_cell("a.ipynb", None, "import os", mode="insert"))
    ok(session.edit_cell("a.ipynb", "plot-003", "done()", mode="insert"))
    cells = cells_of(nb)
    want = sample()
    want["cells"].insert(0, code(["import os"], cells[0]["id"]))
    want["cells"].append(code(["done()"], cells[-1]["id"]))
    assert nb.read_text(encoding="utf-8") == nbformat_style(want)


def test_delete_the_middle_the_last_and_the_only_cell(nb: Path, session: Session) -> None:
    want = sample()
    ok(session.edit_cell("a.ipynb", "load-002", mode="delete"))
    del want["cells"][1]
    assert nb.read_text(encoding="utf-8") == nbformat_style(want)
    ok(session.edit_cell("a.ipynb", "plot-003", mode="delete"))
    del want["cells"][1]
    assert nb.read_text(encoding="utf-8") == nbformat_style(want)
    result = ok(session.edit_cell("a.ipynb", 0, mode="delete"))
    assert "Deleted markdown cell 0 (id intro-01)" in result.value
    want["cells"] = []
    assert nb.read_text(encoding="utf-8") == nbformat_style(want)
    ok(session.edit_cell("a.ipynb", None, "# Again", mode="insert", cell_type="markdown"))
    want["cells"] = [markdown(["# Again"], cells_of(nb)[0]["id"])]
    assert nb.read_text(encoding="utf-8") == nbformat_style(want)


def test_a_new_type_rewrites_the_cell_keeping_its_id_and_metadata(
    nb: Path, session: Session
) -> None:
    retyped = ok(session.edit_cell("a.ipynb", "plot-003", "Was a plot.", cell_type="markdown"))
    # A markdown cell has no outputs: the result says what went with the code cell.
    assert "Dropped its 1 output and its execution count" in retyped.value
    ok(session.edit_cell("a.ipynb", "intro-01", "print(1)", cell_type="code"))
    want = sample()
    want["cells"][2] = markdown(["Was a plot."], "plot-003")
    want["cells"][0] = code(["print(1)"], "intro-01")
    assert nb.read_text(encoding="utf-8") == nbformat_style(want)


@pytest.mark.parametrize(
    ("indent", "ensure_ascii", "newline"),
    [
        (2, False, "\n"),
        (2, True, "\n"),
        (None, False, "\n"),
        (1, True, "\r\n"),
        ("\t", False, "\n"),
    ],
)
def test_another_style_is_kept(
    root: Path, session: Session, indent: int | str | None, ensure_ascii: bool, newline: str
) -> None:
    # Keys in insertion order (not sorted), as some editors write them.
    def dump(nb: dict[str, Any]) -> str:
        text = json.dumps(nb, indent=indent, ensure_ascii=ensure_ascii)
        return (text + "\n").replace("\n", newline)

    nb: dict[str, Any] = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"title": "Ünïcode"},
          "cells": [{"id": "first-01", "cell_type": "code", "source": ["a = 'é'"],
                     "metadata": {}, "outputs": [STREAM], "execution_count": 2}]}  # fmt: skip
    path = root / "s.ipynb"
    path.write_bytes(dump(nb).encode("utf-8"))
    session.read("s.ipynb")
    ok(session.edit_cell("s.ipynb", "first-01", "a = 'ü'\nb = '→'"))
    ok(session.edit_cell("s.ipynb", "first-01", "# Ça", mode="insert", cell_type="markdown"))
    want = copy.deepcopy(nb)
    want["cells"][0]["source"] = ["a = 'ü'\n", "b = '→'"]
    new_id = cells_of(path)[1]["id"]
    want["cells"].append({"id": new_id, "cell_type": "markdown", "source": ["# Ça"],
                          "metadata": {}})  # fmt: skip
    assert path.read_bytes().decode("utf-8") == dump(want)
    ok(session.edit_cell("s.ipynb", new_id, mode="move", to=0))
    want["cells"].reverse()
    assert path.read_bytes().decode("utf-8") == dump(want)


def test_bad_cells_and_bad_notebooks_are_refused_and_the_file_kept(
    root: Path, nb: Path, session: Session
) -> None:
    before = nb.read_bytes()
    missing = session.edit_cell("a.ipynb", "nope", "x")
    assert error_code(missing) == "no_match"
    assert "intro-01, load-002, plot-003" in missing.value
    assert error_code(session.edit_cell("a.ipynb", 3, "x")) == "invalid_arguments"
    assert error_code(session.edit_cell("a.ipynb", None, "x")) == "invalid_arguments"
    assert error_code(session.call("edit_cell", {"path": "a.ipynb", "cell": 0, "mode": "move"}))
    assert error_code(session.call("edit_cell", {"path": "a.ipynb", "cell": 0, "mode": "swap"}))
    same = session.edit_cell("a.ipynb", "plot-003", "plot()")
    assert error_code(same) == "no_change"
    assert nb.read_bytes() == before
    for name, text in (
        ("broken.ipynb", '{"cells": [\n'),
        ("three.ipynb", json.dumps({"nbformat": 3, "cells": [], "worksheets": []})),
        ("list.ipynb", "[]"),
    ):
        (root / name).write_text(text)
        session.read(name)
        result = session.edit_cell(name, 0, "x")
        assert error_code(result) == "invalid_arguments", result.value
        assert result.model_dump()["artifact"]["payload"]["detail"]["reason"] == "not_a_notebook"
        assert "edit or write" in result.value
        assert (root / name).read_text() == text
    assert "line 2" in session.edit_cell("broken.ipynb", 0, "x").value


@pytest.mark.parametrize(
    ("ref", "to", "order"),
    [
        ("intro-01", 2, [1, 2, 0]),  # the first to the end
        ("plot-003", 0, [2, 0, 1]),  # the last to the top
        ("load-002", 0, [1, 0, 2]),  # one up
        (1, 2, [0, 2, 1]),  # one down, by index
        ("intro-01", 1, [1, 0, 2]),
    ],
)
def test_move_puts_the_cell_at_its_new_position_keeping_every_byte(
    nb: Path, session: Session, ref: str | int, to: int, order: list[int]
) -> None:
    result = ok(session.edit_cell("a.ipynb", ref, mode="move", to=to))
    want = sample()
    moved = want["cells"][order[to]]
    want["cells"] = [want["cells"][i] for i in order]
    # Each cell's bytes, its outputs and its count among them, are the ones nbformat wrote.
    assert nb.read_text(encoding="utf-8") == nbformat_style(want)
    assert f"Moved {moved['cell_type']} cell {order[to]} (id {moved['id']}) of a.ipynb" in (
        result.value
    )
    assert f"to position {to}" in result.value
    assert not session.undo("a.ipynb").is_error
    assert nb.read_text(encoding="utf-8") == nbformat_style(sample())


def test_a_move_to_where_the_cell_is_or_past_the_end_or_without_to_is_refused(
    nb: Path, session: Session
) -> None:
    before = nb.read_bytes()
    assert error_code(session.edit_cell("a.ipynb", "load-002", mode="move", to=1)) == "no_change"
    past = session.edit_cell("a.ipynb", "load-002", mode="move", to=3)
    assert error_code(past) == "invalid_arguments" and "0-2" in past.value
    missing = session.edit_cell("a.ipynb", "load-002", mode="move")
    assert error_code(missing) == "invalid_arguments" and "to" in missing.value
    stray = session.edit_cell("a.ipynb", "load-002", "x", to=0)
    assert error_code(stray) == "invalid_arguments" and "move" in stray.value
    assert error_code(session.edit_cell("a.ipynb", None, mode="move", to=0)) == "invalid_arguments"
    assert nb.read_bytes() == before


def test_a_move_keeps_a_change_made_since_the_read_to_a_cell_it_passes(
    nb: Path, session: Session
) -> None:
    changed = sample()
    changed["cells"][1]["source"] = ["print('someone else')"]
    nb.write_text(nbformat_style(changed), encoding="utf-8")
    ok(session.edit_cell("a.ipynb", "intro-01", mode="move", to=2))
    changed["cells"] = [changed["cells"][i] for i in (1, 2, 0)]
    assert nb.read_text(encoding="utf-8") == nbformat_style(changed)


def test_a_placeholder_in_a_cell_is_refused(nb: Path, session: Session) -> None:
    before = nb.read_bytes()
    result = session.edit_cell("a.ipynb", "load-002", "import math\n# ... existing code ...\n")
    assert error_code(result) == "invalid_arguments"
    assert result.model_dump()["artifact"]["payload"]["detail"]["reason"] == "placeholder"
    assert nb.read_bytes() == before


def test_a_notebook_must_be_read_first(root: Path, session: Session) -> None:
    (root / "u.ipynb").write_text(nbformat_style(sample()), encoding="utf-8")
    assert error_code(session.edit_cell("u.ipynb", 0, "x")) == "not_read"


def test_a_change_to_the_same_cell_since_the_read_is_refused(nb: Path, session: Session) -> None:
    changed = sample()
    changed["cells"][1]["source"] = ["print('someone else')"]
    nb.write_text(nbformat_style(changed), encoding="utf-8")
    result = session.edit_cell("a.ipynb", "load-002", "print('mine')")
    assert error_code(result) == "stale_read", result.value
    assert nb.read_text(encoding="utf-8") == nbformat_style(changed)


def test_a_change_to_another_cell_since_the_read_is_kept(nb: Path, session: Session) -> None:
    changed = sample()
    changed["cells"][0]["source"] = ["# Another title"]
    nb.write_text(nbformat_style(changed), encoding="utf-8")
    ok(session.edit_cell("a.ipynb", "plot-003", "plot(2)"))
    changed["cells"][2]["source"] = ["plot(2)"]
    assert nb.read_text(encoding="utf-8") == nbformat_style(changed)


def test_a_cell_named_by_index_follows_cells_added_above_since_the_read(
    nb: Path, session: Session
) -> None:
    changed = sample()
    changed["cells"].insert(0, markdown(["Added by someone else"], "other-00"))
    nb.write_text(nbformat_style(changed), encoding="utf-8")
    result = ok(session.edit_cell("a.ipynb", 2, "plot(3)"))  # cell 2 as read: plot-003
    assert "plot-003" in result.value
    changed["cells"][3]["source"] = ["plot(3)"]
    assert nb.read_text(encoding="utf-8") == nbformat_style(changed)


def test_without_ids_an_index_follows_the_cell_by_where_it_went(
    root: Path, session: Session
) -> None:
    plain = notebook([markdown(["# A"]), code(["x = 1"]), code(["y = 2"])], minor=4)
    path = root / "old.ipynb"
    path.write_text(nbformat_style(plain), encoding="utf-8")
    session.read("old.ipynb")
    plain["cells"].insert(1, markdown(["Added by someone else"]))
    path.write_text(nbformat_style(plain), encoding="utf-8")
    ok(session.edit_cell("old.ipynb", 2, "y = 3"))  # cell 2 as read: "y = 2"
    plain["cells"][3] = code(["y = 3"])
    assert path.read_text(encoding="utf-8") == nbformat_style(plain)


def test_undo_puts_back_every_byte(nb: Path, session: Session) -> None:
    before = nb.read_bytes()
    ok(session.edit_cell("a.ipynb", "load-002", "pass"))
    ok(session.edit_cell("a.ipynb", None, "top()", mode="insert"))
    ok(session.edit_cell("a.ipynb", "plot-003", mode="delete"))
    for _ in range(3):
        assert not session.undo("a.ipynb").is_error
    assert nb.read_bytes() == before


def test_a_dry_run_writes_nothing(nb: Path, session: Session) -> None:
    before = nb.read_bytes()
    arguments = {"path": "a.ipynb", "cell": "load-002", "new_text": "pass"}
    result = session.call("edit_cell", arguments, dry_run=True)
    assert not result.is_error and "dry run" in result.value
    assert nb.read_bytes() == before


def test_the_result_is_a_valid_notebook_for_nbformat(nb: Path, session: Session) -> None:
    ok(session.edit_cell("a.ipynb", "load-002", "x = 1\ny = 2"))
    ok(session.edit_cell("a.ipynb", None, "# Top", mode="insert", cell_type="markdown"))
    ok(session.edit_cell("a.ipynb", "plot-003", mode="delete"))
    nbformat.validate(nbformat.read(str(nb), as_version=4))


# Notebooks made and written by nbformat itself, and its validator after every change.


def made_by_nbformat() -> Any:
    v4 = nbformat.v4
    kernel = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb = v4.new_notebook(metadata={"kernelspec": kernel})
    result = v4.new_output("execute_result", {"text/plain": "6.283185307179586"}, execution_count=7)
    stream = v4.new_output("stream", text="hi\n")
    nb.cells = [
        v4.new_markdown_cell("# Résumé\nA notebook nbformat wrote."),
        v4.new_code_cell("import math\nmath.tau", execution_count=7, outputs=[result]),
        v4.new_code_cell("print('hi')", execution_count=8, outputs=[stream]),
    ]
    return nb


def written(nb: Any, path: Path) -> str:
    nbformat.write(nb, str(path))
    return path.read_text(encoding="utf-8")


def test_a_notebook_nbformat_wrote_stays_what_nbformat_would_write(
    root: Path, session: Session
) -> None:
    path = root / "made.ipynb"
    nb = made_by_nbformat()
    first, code_id, last = (cell.id for cell in nb.cells)
    written(nb, path)
    session.read("made.ipynb")
    ok(session.edit_cell("made.ipynb", code_id, "import math\nmath.tau / 2"))
    nb.cells[1].source = "import math\nmath.tau / 2"  # its outputs and count kept
    assert path.read_text(encoding="utf-8") == nbformat.writes(nb) + "\n"
    ok(session.edit_cell("made.ipynb", first, "## Part", mode="insert", cell_type="markdown"))
    new_id = nbformat.read(str(path), as_version=4).cells[1].id
    nb.cells.insert(1, nbformat.v4.new_markdown_cell("## Part", id=new_id))
    assert path.read_text(encoding="utf-8") == nbformat.writes(nb) + "\n"
    ok(session.edit_cell("made.ipynb", last, mode="delete"))
    del nb.cells[3]
    assert path.read_text(encoding="utf-8") == nbformat.writes(nb) + "\n"
    ok(session.edit_cell("made.ipynb", code_id, mode="move", to=0))
    nb.cells.insert(0, nb.cells.pop(2))
    assert path.read_text(encoding="utf-8") == nbformat.writes(nb) + "\n"
    nbformat.validate(nbformat.read(str(path), as_version=4))


def test_a_change_that_would_make_the_notebook_invalid_is_refused(
    root: Path, session: Session
) -> None:
    # A markdown cell may hold any `collapsed`; a code cell's must be a boolean.
    nb = made_by_nbformat()
    nb.cells[0].metadata["collapsed"] = "yes"
    path = root / "made.ipynb"
    before = written(nb, path).encode()
    nbformat.validate(nbformat.read(str(path), as_version=4))
    session.read("made.ipynb")
    result = session.edit_cell("made.ipynb", 0, "print(1)", cell_type="code")
    assert error_code(result) == "invalid_arguments", result.value
    detail = result.model_dump()["artifact"]["payload"]["detail"]
    assert detail["reason"] == "invalid_notebook"
    assert "'yes' is not of type 'boolean'" in detail["message"]
    assert "cells[0].metadata.collapsed" in result.value and "invalid nbformat" in result.value
    assert path.read_bytes() == before
    ok(session.edit_cell("made.ipynb", 0, "# Still prose"))  # as markdown it stays valid


def test_a_notebook_already_invalid_can_still_be_changed_and_the_result_says_so(
    root: Path, session: Session
) -> None:
    nb = made_by_nbformat()
    nb.cells[1].metadata["collapsed"] = "yes"
    path = root / "made.ipynb"
    written(nb, path)
    session.read("made.ipynb")
    result = ok(session.edit_cell("made.ipynb", 2, "print('bye')"))
    assert "was not valid nbformat before this change either" in result.value
    assert "'yes' is not of type 'boolean'" in result.value


def test_a_repeated_cell_id_is_invalid(root: Path, session: Session) -> None:
    from edittools.tools._cells import invalid

    nb = json.loads(nbformat.writes(made_by_nbformat()))
    assert invalid(nb) is None
    nb["cells"][2]["id"] = nb["cells"][1]["id"]
    assert "Non-unique cell id" in (invalid(nb) or "")
    del nb["cells"][2]["id"]
    assert "missing an id" in (invalid(nb) or "")


# The property: any sequence of edits keeps the notebook exactly what the model of it says.

_SOURCES = st.lists(st.sampled_from(["x = 1", "print('é')", "", "# t", "a\tb", "\"q\" \\ n"]),
                    max_size=3).map("\n".join)  # fmt: skip
_CELL = st.tuples(st.sampled_from(["code", "markdown"]), _SOURCES)
_OP = st.tuples(st.sampled_from(["replace", "insert", "delete", "move"]), st.integers(0, 6),
                st.sampled_from(["code", "markdown", None]), _SOURCES,
                st.integers(0, 6))  # fmt: skip


def _lines(source: str) -> list[str]:
    return [line for line in re.split(r"(?<=\n)", source) if line]


def _model_cell(kind: str, source: str, cell_id: str, count: int | None = None) -> dict[str, Any]:
    """A cell of the model; a code cell given a `count` has run, and has an output."""
    if kind == "markdown":
        return markdown(_lines(source), cell_id)
    return code(_lines(source), cell_id, count=count, outputs=None if count is None else [STREAM])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_CELL, max_size=4), st.lists(_OP, min_size=1, max_size=6), st.booleans())
def test_any_sequence_of_cell_edits_keeps_the_expected_notebook(
    cells: list[tuple[str, str]], ops: list[tuple[str, int, str | None, str, int]], by_id: bool
) -> None:
    with tempfile.TemporaryDirectory() as folder, Session(folder) as session:
        path = Path(folder) / "p.ipynb"
        model = notebook(
            [_model_cell(k, s, f"cell{n:04d}", n + 1) for n, (k, s) in enumerate(cells)]
        )
        path.write_text(nbformat_style(model), encoding="utf-8")
        session.read("p.ipynb")
        for mode, at, kind, source, to in ops:
            count = len(model["cells"])
            if mode != "insert" and at >= count:
                continue
            ref: str | int | None = at if at < count else None
            if by_id and ref is not None:
                ref = model["cells"][at]["id"]
            if mode == "move":
                to %= count
                result = session.edit_cell("p.ipynb", ref, mode="move", to=to)
                if to == at:
                    assert error_code(result) == "no_change"
                    continue
                model["cells"].insert(to, model["cells"].pop(at))
                assert not result.is_error, result.value
                assert path.read_text(encoding="utf-8") == nbformat_style(model)
                continue
            if mode == "insert" and at >= count:
                ref = None
            result = session.edit_cell("p.ipynb", ref, source, mode=mode, cell_type=kind)
            old = model["cells"][at] if at < count else None
            if mode == "delete":
                del model["cells"][at]
            elif mode == "insert":
                new_id = json.loads(path.read_text(encoding="utf-8"))["cells"][
                    0 if ref is None else at + 1
                ]["id"]
                model["cells"].insert(0 if ref is None else at + 1,
                                      _model_cell(kind or "code", source, new_id))  # fmt: skip
            else:
                assert old is not None
                new = _model_cell(kind or old["cell_type"], source, old["id"])
                if new["cell_type"] == old["cell_type"]:
                    new = old | {"source": new["source"]}  # outputs and count kept
                if new["source"] == old["source"] and new["cell_type"] == old["cell_type"]:
                    assert error_code(result) == "no_change"
                    continue
                model["cells"][at] = new
            assert not result.is_error, result.value
            assert path.read_text(encoding="utf-8") == nbformat_style(model)


def test_the_command_line_moves_a_cell(
    nb: Path, root: Path, session: Session, capsys: pytest.CaptureFixture[str]
) -> None:
    from edittools.cli import main

    status = main(["edit-cell", "--root", str(root), "a.ipynb", "--mode", "move",
                   "--cell", "plot-003", "--to", "0"])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0, out
    assert "Moved code cell 2 (id plot-003) of a.ipynb to position 0" in out
    want = sample()
    want["cells"].insert(0, want["cells"].pop(2))
    assert nb.read_text(encoding="utf-8") == nbformat_style(want)
