"""Error codes: one documented table, a stable errno mapping, and what the package exports."""

from __future__ import annotations

import errno

import pytest

import sandbox
from sandbox import _errors
from sandbox._errors import CODES, SandboxError, from_oserror

BRIEF_CODES = {
    "outside_root",
    "denied",
    "not_found",
    "not_a_file",
    "is_directory",
    "too_large",
    "stale",
    "loop",
    "invalid_path",
    "binary",
    "undecodable",
    "unencodable",
    "exists",
    "io_error",
    "blob_missing",
    "blob_corrupt",
}


def test_every_code_is_documented_in_the_module_docstring() -> None:
    doc = _errors.__doc__ or ""
    assert BRIEF_CODES <= CODES
    for code in CODES:
        assert f"─ {code} " in doc, code


def test_unknown_codes_are_rejected() -> None:
    with pytest.raises(ValueError):
        SandboxError("made_up", "nope")


@pytest.mark.parametrize(
    ("err", "code"),
    [
        (errno.ENOENT, "not_found"),
        (errno.ENOTDIR, "not_found"),
        (errno.EACCES, "permission"),
        (errno.EPERM, "permission"),
        (errno.EROFS, "permission"),
        (errno.EISDIR, "is_directory"),
        (errno.ELOOP, "loop"),
        (errno.ENAMETOOLONG, "invalid_path"),
        (errno.EXDEV, "outside_root"),
        (errno.EEXIST, "exists"),
        (errno.ENXIO, "not_a_file"),
        (errno.ENODEV, "not_a_file"),
        (errno.ENOSPC, "io_error"),
        (errno.EIO, "io_error"),
    ],
)
def test_oserror_mapping(err: int, code: str) -> None:
    exc = from_oserror(OSError(err, "boom"), "a/b.txt", "write")
    assert exc.code == code
    assert exc.path == "a/b.txt"
    assert exc.message.startswith("Cannot write 'a/b.txt': boom.")
    assert exc.message.rstrip().endswith(".")


def test_every_export_has_a_docstring() -> None:
    for name in sandbox.__all__:
        assert getattr(sandbox, name).__doc__ or name == "ABSENT", name
