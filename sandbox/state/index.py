"""The state index: one SQLite database per root, in its state folder.

SQLite (standard library) in WAL mode with a busy timeout: many readers and one writer across
processes, every transaction atomic, durable ones synced before they return. Opening creates the
one schema (`schema`) and reads nothing else, so start-up does not grow with history. Rows tied to
one multi-file commit reference `intents(id)` with `ON DELETE CASCADE`, so rolling a commit back
takes them along.

The database file (and its `-wal`/`-shm` companions) must be plain files with one hard link, never
symlinks; a database SQLite calls malformed is `state_corrupt`, with the state path in the message.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import sqlite3
import stat
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from sandbox._errors import TRANSIENT, SandboxError, from_oserror
from sandbox._state import StateDir, corrupt, open_state_file, state_error
from sandbox.state.schema import SCHEMA_VERSION, create

__all__ = ["DB_NAME", "StateIndex"]

DB_NAME = "index.sqlite3"
_BUSY_MS = 30_000
# Error names of a database file shorter or other than its own header and pages say (SQLite reads
# past the end of a damaged file as a "short read", which is no disk failure).
_DAMAGED = frozenset({"SQLITE_IOERR_SHORT_READ", "SQLITE_CORRUPT", "SQLITE_NOTADB"})


class StateIndex:
    """The SQLite database of one root's state; thread-safe, shared by several processes.

    `transaction()` yields the connection inside `BEGIN IMMEDIATE ... COMMIT`; `rows()` runs one
    read query. Every SQLite failure leaves as a `SandboxError` (`state_corrupt` for a damaged
    database, `io_error` otherwise).
    """

    path: pathlib.Path

    def __init__(self, state: StateDir) -> None:
        self.path = state.path / DB_NAME
        self._state = state
        self._lock = threading.RLock()
        self._synchronous = ""  # the connection's synchronous setting, as last set
        for companion in ("-wal", "-shm", "-journal"):
            _check_companion(state.fd, DB_NAME + companion, state.path)
        fd = open_state_file(state.fd, DB_NAME, self.path, os.O_RDWR | os.O_CREAT)
        try:
            expected = os.fstat(fd)
            try:
                self._db = sqlite3.connect(
                    self.path, timeout=_BUSY_MS / 1000, isolation_level=None,
                    check_same_thread=False,
                )  # fmt: skip
            except sqlite3.Error as exc:
                raise self._translate(exc) from exc
            seen = os.stat(DB_NAME, dir_fd=state.fd, follow_symlinks=False)
            if (seen.st_dev, seen.st_ino) != (expected.st_dev, expected.st_ino):
                self._db.close()
                raise corrupt(self.path, "was replaced while it was being opened")
        finally:
            os.close(fd)
        try:
            self._setup(state.identity)
        except SandboxError:
            self._db.close()
            raise

    def _setup(self, identity: str) -> None:
        with self._translated():
            self._db.execute(f"PRAGMA busy_timeout = {_BUSY_MS}")
            mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()
            if mode is None or str(mode[0]).lower() != "wal":
                raise corrupt(self.path, "cannot be put in WAL mode")
            self._db.execute("PRAGMA synchronous = FULL")
            self._synchronous = "FULL"
            self._db.execute("PRAGMA foreign_keys = ON")
        with self.transaction(durable=False) as db:
            create(db)
            found = dict(db.execute("SELECT key, value FROM meta").fetchall())
            if not found:
                db.execute("INSERT INTO meta VALUES ('schema', ?), ('root', ?)",
                           (SCHEMA_VERSION, identity))  # fmt: skip
            elif found.get("schema") != SCHEMA_VERSION or found.get("root") != identity:
                raise corrupt(self.path, "belongs to another root or another schema version")

    @contextlib.contextmanager
    def transaction(self, *, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """Run the block in one write transaction; commit on success, roll back on any error.

        A durable transaction is on disk when the block returns; one that is not (read records)
        may be lost by a power cut, never torn.
        """
        with self._lock, self._translated():
            db = self._db
            level = "FULL" if durable else "NORMAL"
            if level != self._synchronous:  # a setting of the connection: set when it changes
                db.execute(f"PRAGMA synchronous = {level}")
                self._synchronous = level
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one read query."""
        with self._lock, self._translated():
            return self._db.execute(sql, params).fetchall()

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()

    @contextlib.contextmanager
    def _translated(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            raise self._translate(exc) from exc

    def _translate(self, exc: sqlite3.Error) -> SandboxError:
        if isinstance(exc, sqlite3.OperationalError):
            short = _out_of_descriptors(self._state)
            if short is not None:  # SQLite says only "unable to open database file"
                return from_oserror(short, str(self.path), f"use the state database ({exc})")
        if isinstance(exc, sqlite3.DatabaseError) and not isinstance(
            exc, sqlite3.OperationalError | sqlite3.IntegrityError | sqlite3.ProgrammingError
        ):
            return corrupt(self.path, f"is damaged ({exc})")
        text = str(exc)
        name = getattr(exc, "sqlite_errorname", None) or ""
        if "malformed" in text or "not a database" in text or name in _DAMAGED:
            return corrupt(self.path, f"is damaged ({text})")
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in text:
            return SandboxError(
                "busy",
                f"The state database {self.path} is busy: another process has held a write "
                f"transaction on it for over {_BUSY_MS / 1000:g} s ({text}), so this step "
                "recorded nothing. Retry in a moment; if it persists, a stopped or hung edittools "
                "process holds it (end that process).",
                path=str(self.path),
            )
        return SandboxError(
            "io_error",
            f"The state database {self.path} failed: {text}. Retry; if it persists, check the "
            "disk and the state folder's permissions.",
            path=str(self.path),
        )


def _out_of_descriptors(state: StateDir) -> OSError | None:
    """The error a new descriptor meets now, when it is one of running out (EMFILE, ENFILE...)."""
    try:
        os.close(os.dup(state.fd))
    except OSError as exc:
        return exc if exc.errno in TRANSIENT else None
    except KeyError:  # the state folder was closed
        return None
    return None


def _check_companion(dir_fd: int, name: str, folder: pathlib.Path) -> None:
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise state_error(exc, folder / name, "inspect the state file") from exc
    if not stat.S_ISREG(st.st_mode):
        raise corrupt(folder / name, "is not a regular file")
    if st.st_nlink != 1:
        raise corrupt(folder / name, f"has {st.st_nlink} hard links (state files have one)")
