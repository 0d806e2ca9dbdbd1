"""Recovery of a write-ahead intent follows the rules of a tool call: a forged intent writes nothing
where a call may not (deny patterns, `.git`, outside the root) and is reported."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from edittools import Session
from sandbox import Sandbox

HOOK = b"#!/bin/sh\necho planted\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    (folder / ".git" / "hooks").mkdir(parents=True)
    (folder / "secret").mkdir()
    (folder / "a.txt").write_bytes(b"old\n")
    return folder


def forge(root: Path, *targets: tuple[Any, str | None, str | None], **opts: Any) -> None:
    """Record an open intent naming `targets` (path, old blob, new blob); new blobs hold HOOK."""
    with Sandbox(root, **opts) as sb:
        blob = sb.store.put(HOOK)
        db = sqlite3.connect(sb.index.path)
    with db:
        intent = db.execute("INSERT INTO intents (state, created) VALUES ('open', 0)").lastrowid
        db.executemany(
            "INSERT INTO intent_files VALUES (?, ?, ?, NULL, ?, ?)",
            [
                (intent, seq, path, old, blob if new == "HOOK" else new)
                for seq, (path, old, new) in enumerate(targets)
            ],
        )
    db.close()


def recoveries(sb: Sandbox) -> list[tuple[str, list[str]]]:
    rows = sb.index.rows("SELECT outcome, paths FROM recoveries ORDER BY id")
    return [(outcome, json.loads(paths)) for outcome, paths in rows]


def open_intents(sb: Sandbox) -> int:
    return len(sb.index.rows("SELECT 1 FROM intents WHERE state = 'open'"))


def test_a_forged_intent_does_not_plant_a_git_hook(root: Path) -> None:
    forge(root, (".git/hooks/pre-commit", None, "HOOK"))
    with Sandbox(root) as sb:
        assert not (root / ".git/hooks/pre-commit").exists()
        assert recoveries(sb) == [("refused", [".git/hooks/pre-commit"])]
        assert open_intents(sb) == 0
    with Sandbox(root) as sb:  # settled once: a later open finds nothing to do
        assert recoveries(sb) == [("refused", [".git/hooks/pre-commit"])]
        assert not (root / ".git/hooks/pre-commit").exists()


def test_with_git_writes_allowed_the_same_intent_is_completed(root: Path) -> None:
    forge(root, (".git/hooks/pre-commit", None, "HOOK"), allow_git_writes=True)
    with Sandbox(root, allow_git_writes=True) as sb:
        assert (root / ".git/hooks/pre-commit").read_bytes() == HOOK
        assert recoveries(sb) == [("completed", [".git/hooks/pre-commit"])]


def test_a_denied_path_is_left_alone(root: Path) -> None:
    forge(root, ("secret/key.txt", None, "HOOK"), deny=["secret/"])
    with Sandbox(root, deny=["secret/"]) as sb:
        assert not (root / "secret/key.txt").exists()
        assert recoveries(sb) == [("refused", ["secret/key.txt"])]


def test_a_deleting_intent_on_git_config_deletes_nothing(root: Path) -> None:
    config = root / ".git" / "config"
    config.write_bytes(b"[core]\n")
    with Sandbox(root) as sb:
        old = sb.store.put(b"[core]\n")
    forge(root, (".git/config", old, None))
    with Sandbox(root) as sb:
        assert config.read_bytes() == b"[core]\n"
        assert recoveries(sb) == [("refused", [".git/config"])]


@pytest.mark.parametrize(
    "spelling",
    [
        "../outside.txt",
        "ABSOLUTE",
        "./.git/hooks/post-checkout",
        "secret/../.git/hooks/post-checkout",
        "a.txt/../.git/hooks/post-checkout",
        "link/post-checkout",
        "linked-file",
    ],
)
def test_paths_a_commit_never_records_are_refused(root: Path, spelling: str) -> None:
    (root / "link").symlink_to(".git/hooks")
    (root / "linked-file").symlink_to(".git/hooks/post-checkout")
    outside = root.parent / "outside.txt"
    path = str(outside) if spelling == "ABSOLUTE" else spelling
    forge(root, (path, None, "HOOK"))
    with Sandbox(root) as sb:
        assert recoveries(sb) == [("refused", [path])]
    assert not outside.exists()
    assert not (root / ".git/hooks/post-checkout").exists()
    assert (root / "link").is_symlink() and (root / "linked-file").is_symlink()


@pytest.mark.parametrize("path", [b".git/hooks/pre-commit", "", "a\0b"])
def test_a_row_that_is_not_a_path_is_refused_and_opening_still_works(
    root: Path, path: object
) -> None:
    forge(root, (path, None, "HOOK"))
    with Sandbox(root) as sb:
        assert [outcome for outcome, _ in recoveries(sb)] == ["refused"]
        assert open_intents(sb) == 0
    assert not (root / ".git/hooks/pre-commit").exists()


def test_the_allowed_files_of_a_mixed_intent_settle_and_the_refused_one_is_untouched(
    root: Path,
) -> None:
    with Sandbox(root) as sb:
        old = sb.store.put(b"old\n")
    forge(root, ("a.txt", old, "HOOK"), (".git/hooks/pre-push", None, "HOOK"))
    with Sandbox(root) as sb:
        assert (root / "a.txt").read_bytes() == HOOK  # completed: the new content was at hand
        assert not (root / ".git/hooks/pre-push").exists()
        assert recoveries(sb) == [("completed", ["a.txt"]), ("refused", [".git/hooks/pre-push"])]
        assert open_intents(sb) == 0


def test_the_session_journals_the_refusal_as_an_error(root: Path) -> None:
    forge(root, (".git/hooks/pre-commit", None, "HOOK"))
    with Session(root) as s:
        events = [e for e in s.journal() if e.name == "recover"]
    assert len(events) == 1 and events[0].is_error
    assert ".git/hooks/pre-commit" in events[0].value
    assert "left them alone" in events[0].value
    assert not (root / ".git/hooks/pre-commit").exists()
    assert os.listdir(root / ".git/hooks") == []
