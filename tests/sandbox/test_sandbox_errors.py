"""Error codes: one documented table, a stable errno mapping, and what the package exports."""

from __future__ import annotations

import errno
import pathlib
import subprocess
import sys

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


def test_exports_are_exactly_all() -> None:
    public = {name for name in dir(sandbox) if not name.startswith("_")}
    assert public == set(sandbox.__all__)
    assert sandbox.__all__ == sorted(sandbox.__all__)
    assert (pathlib.Path(sandbox.__file__).parent / "py.typed").exists()
    for name in sandbox.__all__:
        assert getattr(sandbox, name).__doc__ or name == "ABSENT", name


def test_sandbox_never_imports_edittools() -> None:
    modules = sorted(p.stem for p in pathlib.Path(sandbox.__file__).parent.glob("*.py"))
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}:\n"
        "    importlib.import_module('sandbox' if m == '__init__' else 'sandbox.' + m)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'edittools'))\n"
    )
    root = pathlib.Path(sandbox.__file__).parent.parent
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
