"""`edittools diff` as git's external diff and as a difftool, driven by real git; and what it loads."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from cli_harness import child_env, run_python

pytestmark = pytest.mark.integration

COMMAND = f"{shlex.quote(sys.executable)} -m edittools diff"


def _git(
    repo: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@e", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        env=child_env(GIT_CONFIG_NOSYSTEM="1", HOME=str(repo), **(env or {})),
        check=False,
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    assert _git(repo, "init", "-q").returncode == 0
    (repo / "app.py").write_text("a = 1\nb = 2\nc = 3\n")
    (repo / "gone.txt").write_text("bye\n")
    assert _git(repo, "add", ".").returncode == 0
    assert _git(repo, "commit", "-qm", "start").returncode == 0
    (repo / "app.py").write_text("a = 1\nb = 20\nc = 3\n")
    (repo / "gone.txt").unlink()
    (repo / "new.txt").write_text("hello\n")
    assert _git(repo, "add", "-A").returncode == 0
    return repo


def _check_external_output(out: str) -> None:
    # Each file: our header line, then git-style text labelled with the path in the repository.
    assert "app.py  +1 -1\n" in out
    assert "--- a/app.py\n+++ b/app.py\n" in out
    assert "-b = 2\n+b = 20\n" in out
    assert "gone.txt  +0 -1  deleted\n" in out and "+++ /dev/null\n" in out
    assert "new.txt  +1 -0  new file\n" in out and "--- /dev/null\n" in out
    assert "git-blob-" not in out  # git's temporary file names never show


def test_git_external_diff_from_the_environment(repo: Path) -> None:
    proc = _git(repo, "diff", "--cached", env={"GIT_EXTERNAL_DIFF": COMMAND})
    assert proc.returncode == 0, proc.stderr  # git stops at a non-zero external diff
    _check_external_output(proc.stdout)


def test_git_external_diff_from_the_config(repo: Path) -> None:
    proc = _git(repo, "-c", f"diff.external={COMMAND}", "diff", "--cached", "--ext-diff")
    assert proc.returncode == 0, proc.stderr
    _check_external_output(proc.stdout)


def test_git_difftool_runs_it_on_each_file(repo: Path) -> None:
    proc = _git(repo, "difftool", "--cached", "-y", "-x", COMMAND, "--", "app.py")
    assert proc.returncode == 0, proc.stderr
    assert "-b = 2\n+b = 20\n" in proc.stdout
    assert proc.stdout.splitlines()[0].endswith("app.py  +1 -1")


def test_the_unified_text_git_prints_through_us_applies_with_git_apply(repo: Path) -> None:
    proc = _git(repo, "diff", "--cached", "--", "app.py", env={"GIT_EXTERNAL_DIFF": COMMAND})
    patch = "".join(line + "\n" for line in proc.stdout.splitlines()[1:])
    assert _git(repo, "reset", "-q", "--hard").returncode == 0
    assert (repo / "app.py").read_text() == "a = 1\nb = 2\nc = 3\n"
    forward = subprocess.run(["git", "apply"], input=patch, cwd=repo, text=True, check=False)
    assert forward.returncode == 0
    assert (repo / "app.py").read_text() == "a = 1\nb = 20\nc = 3\n"


def test_seven_arguments_that_are_not_git_s_are_refused(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "edittools", "diff", "a", "b", "c"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=child_env(),
        check=False,
    )
    assert proc.returncode == 2 and "two files" in proc.stderr


def test_diffing_two_files_loads_no_models_no_rich_and_no_tools(tmp_path: Path) -> None:
    """What keeps start-up short: the diff command's imports (timed in benchmarks/)."""
    (tmp_path / "a").write_text("x\n")
    (tmp_path / "b").write_text("y\n")
    code = (
        "import sys\n"
        "from edittools.cli import main\n"
        "status = main(['diff', 'a', 'b'])\n"
        "heavy = ('pydantic', 'rich', 'edittools.tools', 'edittools.artifacts', 'sandbox',"
        " 'edittools._session', 'mcp', 'watchdog')\n"
        "print(sorted({m for m in sys.modules if m.startswith(heavy)}), file=sys.stderr)\n"
    )
    proc = run_python(code, tmp_path)
    assert "-x\n+y\n" in proc.stdout
    assert proc.stderr.strip() == "[]"
