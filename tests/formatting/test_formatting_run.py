"""The real formatters, run on text through stdin: formatted, or the text kept with a note."""

from __future__ import annotations

import os
import stat
import sys
import time
from pathlib import Path

import pytest
from formatting_helpers import need, project

from edittools.formatting import Formatted, format_file

pytestmark = pytest.mark.integration

BUDGET = 30.0  # generous: two cores shared with other suites; the budget test uses its own


def formatted(
    root: Path, name: str, text: str, *, budget: float = BUDGET, env: dict[str, str] | None = None
) -> Formatted:
    return format_file(root, Path(name), text, budget=budget, env=env)


UGLY_PY = "import os\ndef f( a,b ):\n  return {'a':a,  'b':b}\n"


def test_ruff_formats_with_the_projects_settings(tmp_path: Path) -> None:
    project(tmp_path, {"pyproject.toml": "[tool.ruff.format]\nquote-style = 'single'\n"})
    result = formatted(tmp_path, "pkg/mod.py", UGLY_PY)
    assert result.formatter == "ruff"
    assert result.note is None
    assert result.changed
    assert result.text == "import os\n\n\ndef f(a, b):\n    return {'a': a, 'b': b}\n"


def test_black_formats_with_the_projects_settings(tmp_path: Path) -> None:
    project(tmp_path, {"pyproject.toml": "[tool.black]\nskip-string-normalization = true\n"})
    result = formatted(tmp_path, "mod.py", UGLY_PY)
    assert (result.formatter, result.note) == ("black", None)
    assert result.text == "import os\n\n\ndef f(a, b):\n    return {'a': a, 'b': b}\n"


def test_a_formatted_file_comes_back_unchanged(tmp_path: Path) -> None:
    project(tmp_path, {"ruff.toml": "line-length = 100\n"})
    text = 'def f(a, b):\n    return {"a": a}\n'
    result = formatted(tmp_path, "mod.py", text)
    assert (result.formatter, result.changed, result.note, result.text) == (
        "ruff",
        False,
        None,
        text,
    )


def test_prettier_from_the_projects_node_modules(tmp_path: Path, prettier_modules: Path) -> None:
    need("node")
    project(tmp_path, {".prettierrc": '{"semi": false, "singleQuote": true}\n'})
    (tmp_path / "node_modules").symlink_to(prettier_modules, target_is_directory=True)
    result = formatted(tmp_path, "src/app.ts", 'const a = {b:"x"};\nfunction f( ){return a}\n')
    assert (result.formatter, result.note) == ("prettier", None)
    assert result.text == "const a = { b: 'x' }\nfunction f() {\n  return a\n}\n"
    css = formatted(tmp_path, "src/a.css", "a{color:red}\n")
    assert css.text == "a {\n  color: red;\n}\n"


def test_prettier_from_path(tmp_path: Path, prettier_modules: Path) -> None:
    project(tmp_path, {"package.json": '{"name": "x", "prettier": {"tabWidth": 4}}'})
    env = {**os.environ, "PATH": f"{prettier_modules / '.bin'}{os.pathsep}{os.environ['PATH']}"}
    result = formatted(tmp_path, "a.json", '{"a":[1,2],"b":{"c":true}}\n', env=env)
    assert (result.formatter, result.note) == ("prettier", None)
    assert result.text == '{ "a": [1, 2], "b": { "c": true } }\n'
    md = formatted(tmp_path, "README.md", "Title\n=====\n\n* one\n* two\n", env=env)
    assert md.text == "Title\n=====\n\n- one\n- two\n"


def test_gofmt_in_a_go_module(tmp_path: Path) -> None:
    need("gofmt")
    project(tmp_path, {"go.mod": "module example.com/x\n\ngo 1.19\n"})
    result = formatted(tmp_path, "cmd/main.go", "package main\nfunc main(){\nx:=1\n_=x}\n")
    assert (result.formatter, result.note) == ("gofmt", None)
    assert result.text == "package main\n\nfunc main() {\n\tx := 1\n\t_ = x\n}\n"


def test_rustfmt_with_the_packages_edition(tmp_path: Path) -> None:
    need("rustfmt")
    project(
        tmp_path,
        {
            "Cargo.toml": "[package]\nname = 'x'\nedition = '2021'\n",
            "rustfmt.toml": "tab_spaces = 2\n",
        },
    )
    # `async fn` parses from the 2018 edition on: the manifest's edition reached rustfmt.
    result = formatted(tmp_path, "src/lib.rs", "async fn f()->u8{\nlet x=1;x}\n")
    assert (result.formatter, result.note) == ("rustfmt", None)
    assert result.text == "async fn f() -> u8 {\n  let x = 1;\n  x\n}\n"


def test_clang_format_with_a_clang_format_file(tmp_path: Path) -> None:
    need("clang-format")
    project(tmp_path, {".clang-format": "BasedOnStyle: LLVM\nIndentWidth: 4\n"})
    result = formatted(tmp_path, "src/x.c", "int main(){int a=1;\nreturn a;}\n")
    assert (result.formatter, result.note) == ("clang-format", None)
    assert result.text == "int main() {\n    int a = 1;\n    return a;\n}\n"


def test_no_config_leaves_the_text_and_names_no_formatter(tmp_path: Path) -> None:
    project(tmp_path, {"pyproject.toml": "[project]\nname = 'x'\n"})
    for name in ("a.py", "a.go", "a.rs", "a.c", "a.js"):
        assert formatted(tmp_path, name, UGLY_PY) == Formatted(UGLY_PY, None)


def test_a_missing_formatter_is_a_note(tmp_path: Path) -> None:
    project(tmp_path, {"go.mod": "module x\n", ".clang-format": "BasedOnStyle: LLVM\n"})
    env = {"PATH": str(tmp_path / "empty")}
    go = formatted(tmp_path, "main.go", "package main\n", env=env)
    assert (go.formatter, go.text, go.changed) == ("gofmt", "package main\n", False)
    assert go.note == (
        "gofmt is configured (go.mod) but `gofmt` is not installed where the project runs or on "
        "PATH: the text is kept as it was, unformatted."
    )
    c = formatted(tmp_path, "x.c", "int  x;\n", env=env)
    assert c.note is not None
    assert c.note.startswith("clang-format is configured (.clang-format) but")


def _fake_gofmt(folder: Path, body: str) -> dict[str, str]:
    """An environment whose PATH finds a `gofmt` that runs `body` (a shell script) first."""
    folder.mkdir()
    script = folder / "gofmt"
    script.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return {**os.environ, "PATH": f"{folder}{os.pathsep}{os.defpath}"}


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie waiting for its reaper does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in {"Z", "X"}


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc to see the processes are gone")
def test_a_hanging_formatter_is_killed_at_the_budget_with_its_children(tmp_path: Path) -> None:
    project(tmp_path, {"go.mod": "module x\n"})
    pids = tmp_path / "pids"
    # The script starts a grandchild and both wait: killing only the script would orphan it.
    env = _fake_gofmt(tmp_path / "bin", f"echo $$ > {pids}\nsleep 300 &\necho $! >> {pids}\nwait")
    start = time.monotonic()
    result = formatted(tmp_path, "main.go", "package main\n", env=env, budget=0.5)
    elapsed = time.monotonic() - start
    assert (result.formatter, result.text, result.changed) == ("gofmt", "package main\n", False)
    assert result.note == (
        "gofmt ran over its budget of 0.5 s and was stopped: the text is kept as it was, unformatted."
    )
    assert elapsed < 5.0
    started = [int(line) for line in pids.read_text().split()]
    assert len(started) == 2
    deadline = time.monotonic() + 10.0
    while any(_alive(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [pid for pid in started if _alive(pid)] == []


def test_a_formatter_that_fails_is_a_note_with_what_it_said(tmp_path: Path) -> None:
    project(tmp_path, {"go.mod": "module x\n"})
    env = _fake_gofmt(tmp_path / "bin", "cat >/dev/null\necho 'gofmt: bad flag' >&2\nexit 2")
    result = formatted(tmp_path, "main.go", "package main\n", env=env)
    assert result.note == (
        "gofmt failed (exit 2: gofmt: bad flag): the text is kept as it was, unformatted."
    )


def test_a_formatter_that_writes_nothing_is_not_taken(tmp_path: Path) -> None:
    project(tmp_path, {"go.mod": "module x\n"})
    env = _fake_gofmt(tmp_path / "bin", "cat >/dev/null")
    result = formatted(tmp_path, "main.go", "package main\n", env=env)
    assert (result.text, result.note) == (
        "package main\n",
        "gofmt wrote nothing for a file that is not empty: the text is kept as it was, unformatted.",
    )


def test_crlf_text_stays_crlf_and_a_bom_stays(tmp_path: Path) -> None:
    project(tmp_path, {"ruff.toml": "line-length = 100\n"})
    result = formatted(tmp_path, "mod.py", UGLY_PY.replace("\n", "\r\n"))
    assert result.text == 'import os\r\n\r\n\r\ndef f(a, b):\r\n    return {"a": a, "b": b}\r\n'
    bom = formatted(tmp_path, "mod.py", "\ufeffx  =  1\r\n")
    assert bom.text == "\ufeffx = 1\r\n"
    lf = formatted(tmp_path, "mod.py", "x  =  1\n")
    assert lf.text == "x = 1\n"


@pytest.mark.parametrize(
    ("files", "name", "broken", "formatter"),
    [
        ({"ruff.toml": ""}, "mod.py", "def f(:\n    pass\n", "ruff"),
        ({"pyproject.toml": "[tool.black]\n"}, "mod.py", "def f(:\n    pass\n", "black"),
        ({"go.mod": "module x\n"}, "main.go", "package main\nfunc main( {\n", "gofmt"),
        ({"Cargo.toml": "[package]\nname='x'\n"}, "src/lib.rs", "fn f( {\n", "rustfmt"),
    ],
)
def test_a_syntax_error_is_the_formatters_note_and_the_text_is_kept(
    tmp_path: Path, files: dict[str, str], name: str, broken: str, formatter: str
) -> None:
    if formatter in {"gofmt", "rustfmt"}:
        need(formatter)
    project(tmp_path, files)
    result = formatted(tmp_path, name, broken)
    assert (result.formatter, result.text, result.changed) == (formatter, broken, False)
    assert result.note is not None
    assert result.note.startswith(f"{formatter} failed (exit ")
    assert result.note.endswith("): the text is kept as it was, unformatted.")


def test_prettier_syntax_error_is_a_note(tmp_path: Path, prettier_modules: Path) -> None:
    need("node")
    project(tmp_path, {".prettierrc": "{}\n"})
    (tmp_path / "node_modules").symlink_to(prettier_modules, target_is_directory=True)
    result = formatted(tmp_path, "a.js", "const = ;\n")
    assert (result.text, result.changed) == ("const = ;\n", False)
    assert result.note is not None
    assert result.note.startswith("prettier failed (exit 2: ")


def test_the_file_on_disk_is_never_touched(tmp_path: Path) -> None:
    project(tmp_path, {"ruff.toml": "", "mod.py": "on_disk  =  1\n"})
    before = (tmp_path / "mod.py").stat()
    result = formatted(tmp_path, "mod.py", "in_memory  =  2\n")
    assert result.text == "in_memory = 2\n"
    assert (tmp_path / "mod.py").read_text() == "on_disk  =  1\n"
    assert (tmp_path / "mod.py").stat().st_mtime_ns == before.st_mtime_ns


def test_a_new_file_in_a_new_folder_is_formatted(tmp_path: Path) -> None:
    project(tmp_path, {"pyproject.toml": "[tool.ruff]\n"})
    result = formatted(tmp_path, "not/yet/there.py", "x  =  1\n")
    assert (result.text, result.note) == ("x = 1\n", None)
