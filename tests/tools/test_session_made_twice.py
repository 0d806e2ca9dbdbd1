"""The same change made twice: a file that changed since the read to just what the change makes
of the content read already holds it. The change succeeds as a no-op that says so: nothing is
written, no undo entry, not an error. Anything else that changed as well is judged as before.

Insert is not idempotent: a second copy of the same text is what it asks for on a fresh read.
It is a no-op only when the text was put at that very place since the read, and nothing else.
"""

from __future__ import annotations

from pathlib import Path

from tool_helpers import check_error

from edittools import Session, ToolResult

BASE = "".join(f"line {k}\n" for k in range(1, 21))
ALREADY = "already holds this change"


def _opened(root: Path, text: str = BASE, name: str = "f.py", **options: object) -> Session:
    (root / name).write_text(text)
    session = Session(root, **options)  # type: ignore[arg-type]
    assert not session.read(name).is_error
    return session


def _held(result: ToolResult, path: Path, theirs: str) -> None:
    """The result of a change found already made: success, an empty diff, the file untouched."""
    assert not result.is_error, result.value
    assert ALREADY in result.value
    assert "nothing was written" in result.value
    assert path.read_text() == theirs
    assert result.artifact is not None
    stats = result.artifact.payload.stats  # type: ignore[union-attr]
    assert (stats.added, stats.removed) == (0, 0)


def test_an_edit_made_outside_since_the_read_is_already_held(tmp_path: Path) -> None:
    theirs = BASE.replace("line 7\n", "line seven\n")
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text(theirs)
        stat = (tmp_path / "f.py").stat()
        result = s.edit("f.py", "line 7\n", "line seven\n")
        _held(result, tmp_path / "f.py", theirs)
        assert "changed outside the tools since this session read it" in result.value
        after = (tmp_path / "f.py").stat()
        assert (after.st_ino, after.st_mtime_ns) == (stat.st_ino, stat.st_mtime_ns)
        check_error(s.undo("f.py"), "nothing_to_undo")  # no undo entry
        # The file is now known as it is: the next change is not stale.
        follow = s.edit("f.py", "line 8\n", "line eight\n")
        assert not follow.is_error and "changed" not in follow.value, follow.value


def test_an_edit_another_agent_made_names_it(tmp_path: Path) -> None:
    (tmp_path / "f.py").write_text(BASE)
    with Session(tmp_path, agent="alice") as alice, Session(tmp_path, agent="bob") as bob:
        assert not alice.read("f.py").is_error and not bob.read("f.py").is_error
        assert not bob.edit("f.py", "line 3\n", "line three\n").is_error
        result = alice.edit("f.py", "line 3\n", "line three\n")
    _held(result, tmp_path / "f.py", BASE.replace("line 3\n", "line three\n"))
    assert "changed by agent `bob`" in result.value


def test_the_same_edit_and_something_else_is_still_judged_by_region(tmp_path: Path) -> None:
    theirs = BASE.replace("line 7\n", "line seven\n").replace("line 8\n", "line 8 (theirs)\n")
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text(theirs)
        result = s.edit("f.py", "line 7\n", "line seven\n")
    check_error(result, "stale_read")
    assert (tmp_path / "f.py").read_text() == theirs


def test_a_multi_edit_made_since_the_read_is_already_held(tmp_path: Path) -> None:
    edits = [
        {"old_string": "line 2\n", "new_string": "line two\n"},
        {"old_string": "line 15\n", "new_string": "line fifteen\n"},
    ]
    theirs = BASE.replace("line 2\n", "line two\n").replace("line 15\n", "line fifteen\n")
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text(theirs)
        result = s.multi_edit("f.py", edits)
        _held(result, tmp_path / "f.py", theirs)
        check_error(s.undo("f.py"), "nothing_to_undo")


def test_a_multi_edit_half_made_since_the_read_is_refused(tmp_path: Path) -> None:
    edits = [
        {"old_string": "line 2\n", "new_string": "line two\n"},
        {"old_string": "line 15\n", "new_string": "line fifteen\n"},
    ]
    theirs = BASE.replace("line 2\n", "line two\n")
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text(theirs)
        result = s.multi_edit("f.py", edits)
    check_error(result, "stale_read")
    assert (tmp_path / "f.py").read_text() == theirs


def test_an_insert_made_at_that_place_since_the_read_is_already_held(tmp_path: Path) -> None:
    theirs = BASE.replace("line 5\n", "line 5\nnew\n")
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text(theirs)
        result = s.insert("f.py", 5, "new")
        _held(result, tmp_path / "f.py", theirs)
        check_error(s.undo("f.py"), "nothing_to_undo")


def test_an_insert_of_text_put_elsewhere_since_the_read_is_made(tmp_path: Path) -> None:
    theirs = BASE.replace("line 15\n", "line 15\nnew\n")
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text(theirs)
        result = s.insert("f.py", 5, "new")
    assert not result.is_error and ALREADY not in result.value, result.value
    assert (tmp_path / "f.py").read_text() == theirs.replace("line 5\n", "line 5\nnew\n")


def test_an_insert_on_a_fresh_read_of_text_already_there_makes_a_second_copy(
    tmp_path: Path,
) -> None:
    text = BASE.replace("line 5\n", "line 5\nnew\n")
    with _opened(tmp_path, text) as s:
        result = s.insert("f.py", 5, "new")
    assert not result.is_error and ALREADY not in result.value, result.value
    assert (tmp_path / "f.py").read_text() == BASE.replace("line 5\n", "line 5\nnew\nnew\n")


def test_a_patch_applied_since_the_read_is_already_held(tmp_path: Path) -> None:
    patch = "--- a/f.py\n+++ b/f.py\n@@ -9,3 +9,3 @@\n line 9\n-line 10\n+line ten\n line 11\n"
    theirs = BASE.replace("line 10\n", "line ten\n")
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text(theirs)
        result = s.apply_patch(patch)
        _held(result, tmp_path / "f.py", theirs)
        assert "the patch was already applied" in result.value
        check_error(s.undo("f.py"), "nothing_to_undo")


def test_a_patch_held_in_one_file_is_applied_to_the_others(tmp_path: Path) -> None:
    (tmp_path / "g.py").write_text(BASE)
    patch = (
        "--- a/f.py\n+++ b/f.py\n@@ -9,3 +9,3 @@\n line 9\n-line 10\n+line ten\n line 11\n"
        "--- a/g.py\n+++ b/g.py\n@@ -1,2 +1,2 @@\n-line 1\n+line one\n line 2\n"
    )
    theirs = BASE.replace("line 10\n", "line ten\n")
    with _opened(tmp_path) as s:
        assert not s.read("g.py").is_error
        (tmp_path / "f.py").write_text(theirs)
        result = s.apply_patch(patch)
        assert not result.is_error, result.value
        assert f"f.py {ALREADY}" in result.value
        assert (tmp_path / "f.py").read_text() == theirs
        assert (tmp_path / "g.py").read_text() == BASE.replace("line 1\n", "line one\n")
        check_error(s.undo("f.py"), "nothing_to_undo")
        assert not s.undo("g.py").is_error


def test_an_edit_symbol_made_since_the_read_is_already_held(tmp_path: Path) -> None:
    text = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
    theirs = text.replace("return 2", "return 3")
    with _opened(tmp_path, text) as s:
        (tmp_path / "f.py").write_text(theirs)
        result = s.edit_symbol("f.py", "g", "return 3", where="body")
    _held(result, tmp_path / "f.py", theirs)


def test_a_dry_run_of_a_change_already_held_says_so_and_records_nothing(tmp_path: Path) -> None:
    theirs = BASE.replace("line 7\n", "line seven\n")
    with _opened(tmp_path) as s:
        (tmp_path / "f.py").write_text(theirs)
        arguments = {"path": "f.py", "old_string": "line 7\n", "new_string": "line seven\n"}
        result = s.call("edit", arguments, dry_run=True)
        assert not result.is_error and ALREADY in result.value, result.value
        # Still known as read before the other change: a change beside it stays stale.
        check_error(s.edit("f.py", "line 8\n", "line eight\n"), "stale_read")
