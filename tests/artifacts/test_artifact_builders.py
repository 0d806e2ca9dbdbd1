"""The result builders tools use."""

from edittools.artifacts import CodePayload, DiffPayload, DiffStats
from edittools.artifacts.builders import (
    changeset_result,
    code_result,
    diff_result,
    error_result,
    json_result,
    text_result,
)


def _payload(path, added, removed):
    return DiffPayload(path=path, stats=DiffStats(added=added, removed=removed))


def test_diff_result_titles_path_and_stats():
    result = diff_result("Edited a.py.", _payload("pkg/a.py", 3, 1))
    assert result.artifact.title == "pkg/a.py +3 -1"
    assert result.artifact.status == "success" and not result.is_error


def test_diff_result_kept_on_error_has_error_status():
    result = diff_result("Refused.", _payload("a", 0, 0), is_error=True)
    assert result.is_error and result.artifact.kind == "diff"
    assert result.artifact.status == "error"


def test_error_result():
    result = error_result("stale_read", "Read the file again.", {"line": 3}, title="a.py")
    assert result.is_error
    assert result.value == "Error (stale_read): Read the file again."
    assert result.artifact.kind == "error" and result.artifact.status == "error"
    assert result.artifact.payload.detail == {"line": 3}
    assert result.artifact.title == "a.py"


def test_changeset_result_sums_stats():
    result = changeset_result("Patched.", [_payload("a", 1, 2), _payload("b", 3, 4)])
    assert result.artifact.payload.stats == DiffStats(added=4, removed=6)
    assert result.artifact.title == "2 files +4 -6"


def test_small_builders():
    assert text_result("t", is_error=True).artifact.status == "error"
    assert code_result("1\tx", CodePayload(text="x", filename="a.py")).artifact.title == "a.py"
    assert json_result("{}", {"a": 1}).artifact.payload.data == {"a": 1}
