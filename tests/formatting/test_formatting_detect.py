"""Which formatter a project configures: the nearest config decides, and none is imposed."""

from __future__ import annotations

from pathlib import Path

import pytest
from formatting_helpers import project

import edittools.formatting
from edittools.formatting import Formatter, find_formatter


def names(root: Path, path: str) -> str | None:
    found = find_formatter(root, Path(path))
    return None if found is None else found.name


def test_all_is_exactly_the_public_names() -> None:
    exported = set(edittools.formatting.__all__)
    public = {n for n in vars(edittools.formatting) if not n.startswith("_")} - {"annotations"}
    assert exported == public - {"_detect", "_format", "_programs", "_run"}
    assert edittools.formatting.__all__ == sorted(exported)


@pytest.mark.parametrize(
    ("files", "chosen"),
    [
        ({"pyproject.toml": "[tool.ruff]\nline-length = 90\n"}, ("ruff", "pyproject.toml")),
        (
            {"pyproject.toml": "[tool.ruff.format]\nquote-style = 'single'\n"},
            ("ruff", "pyproject.toml"),
        ),
        ({"ruff.toml": "line-length = 90\n"}, ("ruff", "ruff.toml")),
        ({".ruff.toml": "[format]\n"}, ("ruff", ".ruff.toml")),
        ({"pyproject.toml": "[tool.black]\nline-length = 90\n"}, ("black", "pyproject.toml")),
        # ruff for linting, black for formatting: black formats.
        ({"pyproject.toml": "[tool.ruff]\n[tool.black]\n"}, ("black", "pyproject.toml")),
        ({"pyproject.toml": "[tool.ruff.format]\n[tool.black]\n"}, ("ruff", "pyproject.toml")),
        (
            {"ruff.toml": "[lint]\n", "pyproject.toml": "[tool.black]\n"},
            ("black", "pyproject.toml"),
        ),
    ],
)
def test_python_formatter_from_config(
    tmp_path: Path, files: dict[str, str], chosen: tuple[str, str]
) -> None:
    project(tmp_path, files)
    found = find_formatter(tmp_path, Path("pkg/mod.py"))
    assert found is not None
    assert (found.name, found.config.name) == chosen
    assert str(tmp_path / "pkg" / "mod.py") in found.args


def test_no_config_means_no_formatter(tmp_path: Path) -> None:
    project(tmp_path, {"pyproject.toml": "[project]\nname = 'x'\n", "package.json": "{}"})
    for name in ("a.py", "a.js", "a.go", "a.rs", "a.c", "a.md", "a.txt", "Makefile"):
        assert names(tmp_path, name) is None, name


def test_the_nearest_config_wins(tmp_path: Path) -> None:
    project(
        tmp_path,
        {
            "pyproject.toml": "[tool.ruff]\n",
            "legacy/pyproject.toml": "[tool.black]\n",
            "plain/pyproject.toml": "[project]\nname = 'plain'\n",  # no formatter here: go on up
        },
    )
    assert names(tmp_path, "legacy/deep/er/x.py") == "black"
    assert names(tmp_path, "plain/x.py") == "ruff"
    assert names(tmp_path, "x.py") == "ruff"


def test_a_config_above_the_root_is_not_the_projects(tmp_path: Path) -> None:
    project(tmp_path, {"pyproject.toml": "[tool.ruff]\n", "inner/x.py": ""})
    assert names(tmp_path / "inner", "x.py") is None


def test_a_file_outside_the_root_has_no_formatter(tmp_path: Path) -> None:
    project(tmp_path, {"root/pyproject.toml": "[tool.ruff]\n", "pyproject.toml": "[tool.ruff]\n"})
    assert find_formatter(tmp_path / "root", tmp_path / "x.py") is None
    assert find_formatter(tmp_path / "root", Path("../x.py")) is None


def test_a_broken_config_is_no_config(tmp_path: Path) -> None:
    project(tmp_path, {"pyproject.toml": "[tool.ruff\n", "package.json": "{not json"})
    assert names(tmp_path, "x.py") is None
    assert names(tmp_path, "x.js") is None


@pytest.mark.parametrize(
    "config",
    [".prettierrc", ".prettierrc.json", ".prettierrc.yaml", ".prettierrc.js", "prettier.config.js"],
)
def test_prettier_from_its_config(tmp_path: Path, config: str) -> None:
    project(tmp_path, {config: "{}\n"})
    for name in ("a.js", "a.tsx", "a.css", "a.json", "a.md"):
        found = find_formatter(tmp_path, Path("src") / name)
        assert found is not None
        assert (found.name, found.config.name) == ("prettier", config)


def test_prettier_from_package_json(tmp_path: Path) -> None:
    project(tmp_path, {"package.json": '{"name": "x", "prettier": {"semi": false}}'})
    assert names(tmp_path, "src/a.ts") == "prettier"


def test_go_rust_and_c_from_their_files(tmp_path: Path) -> None:
    project(
        tmp_path,
        {
            "go/go.mod": "module example.com/x\n",
            "rs/Cargo.toml": "[package]\nname = 'x'\nedition = '2021'\n",
            "c/.clang-format": "BasedOnStyle: LLVM\n",
        },
    )
    assert names(tmp_path, "go/cmd/main.go") == "gofmt"
    rustfmt = find_formatter(tmp_path, Path("rs/src/lib.rs"))
    assert rustfmt == Formatter(
        "rustfmt",
        "rustfmt",
        ("--emit", "stdout", "--edition", "2021"),
        tmp_path / "rs" / "Cargo.toml",
    )
    clang = find_formatter(tmp_path, Path("c/src/x.h"))
    assert clang is not None
    assert clang.args == (f"--assume-filename={tmp_path / 'c' / 'src' / 'x.h'}",)
    assert names(tmp_path, "c/x.cpp") == "clang-format"
    assert names(tmp_path, "go/x.c") is None


def test_rustfmt_takes_the_workspace_edition_and_its_own_config(tmp_path: Path) -> None:
    project(
        tmp_path,
        {
            "Cargo.toml": "[workspace]\nmembers = ['a']\n[workspace.package]\nedition = '2024'\n",
            "rustfmt.toml": "max_width = 80\n",
            "a/Cargo.toml": "[package]\nname = 'a'\nedition.workspace = true\n",
            "b/Cargo.toml": "[package]\nname = 'b'\n",
        },
    )
    found = find_formatter(tmp_path, Path("a/src/lib.rs"))
    assert found is not None
    assert found.args[-1] == "2024"
    assert found.config == tmp_path / "rustfmt.toml"
    found = find_formatter(tmp_path, Path("b/src/lib.rs"))
    assert found is not None
    assert found.args[-1] == "2015"  # cargo's default edition
