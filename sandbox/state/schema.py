"""The whole schema of a root's state database, in one place.

Every table the sandbox and the tools keep is created here (`CREATE ... IF NOT EXISTS`, so a
database made by an older release gains what it lacks); `SCHEMA_VERSION` in the `meta` table says
which layout a database has, and a database of another version or root is refused.
"""

from __future__ import annotations

import sqlite3

__all__ = ["ADDED_COLUMNS", "SCHEMA", "SCHEMA_VERSION", "create", "statements"]

SCHEMA_VERSION = "1"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- The sandbox's write-ahead intents: a multi-file commit, recorded before any file is replaced.
CREATE TABLE IF NOT EXISTS intents (
    id INTEGER PRIMARY KEY,
    state TEXT NOT NULL,          -- open, done
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS intent_files (
    intent INTEGER NOT NULL REFERENCES intents(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    path TEXT NOT NULL,           -- root-relative target
    tmp TEXT,                     -- temp file beside the target holding the new bytes
    old_sha TEXT,                 -- BLAKE3 digest (blob id) of the old bytes; NULL: no file
    new_sha TEXT,                 -- BLAKE3 digest (blob id) of the new bytes; NULL: deleted
    PRIMARY KEY (intent, seq)
);
CREATE INDEX IF NOT EXISTS intents_open ON intents(state) WHERE state = 'open';
CREATE TABLE IF NOT EXISTS recoveries (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    outcome TEXT NOT NULL,        -- completed, rolled_back, partial, refused
    paths TEXT NOT NULL,          -- JSON list of the root-relative paths
    reported INTEGER NOT NULL DEFAULT 0
);

-- What the tools last read or wrote of each file, and the changes they made (the undo history).
CREATE TABLE IF NOT EXISTS reads (
    reader TEXT NOT NULL,         -- whose read: an agent's name, '' for unnamed sessions
    path TEXT NOT NULL,
    digest TEXT NOT NULL,
    blob TEXT,                    -- id under which the content can be fetched (NULL: not kept)
    anchored TEXT,                -- digest of the content its last read with anchors showed
    PRIMARY KEY (reader, path)
);
CREATE TABLE IF NOT EXISTS read_names (
    reader TEXT NOT NULL,         -- as in `reads`
    name TEXT NOT NULL,           -- a path as the reader spelled it (root-relative, unresolved)
    path TEXT NOT NULL,           -- where it led when read (resolved: the `reads` row's path)
    PRIMARY KEY (reader, name)
);
CREATE TABLE IF NOT EXISTS changes (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    before_blob TEXT,             -- NULL: the change created the file
    after_digest TEXT,            -- NULL: the change deleted the file
    intent INTEGER NOT NULL REFERENCES intents(id) ON DELETE CASCADE,
    undone_by INTEGER REFERENCES intents(id) ON DELETE SET NULL,
    actor TEXT                    -- who made it (an agent's name); NULL: not named
);
CREATE TABLE IF NOT EXISTS derived (
    id TEXT PRIMARY KEY,          -- digest of the content this row rebuilds
    base TEXT NOT NULL,           -- id of the content it starts from
    start INTEGER NOT NULL,       -- base[start:stop] is replaced by `middle`
    stop INTEGER NOT NULL,
    middle BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS derived_spans (
    id TEXT NOT NULL,             -- a `derived` row of several spans: its second and later ones
    seq INTEGER NOT NULL,         -- 1, 2, ... in file order (the first span is in `derived`)
    start INTEGER NOT NULL,
    stop INTEGER NOT NULL,
    middle BLOB NOT NULL,
    PRIMARY KEY (id, seq)
);
CREATE INDEX IF NOT EXISTS changes_by_path ON changes(path, id);
CREATE INDEX IF NOT EXISTS changes_by_intent ON changes(intent);
CREATE INDEX IF NOT EXISTS changes_by_undo ON changes(undone_by);

-- The journal of tool results, as stream events.
CREATE TABLE IF NOT EXISTS journal (
    seq INTEGER PRIMARY KEY,
    event TEXT NOT NULL,          -- the stream event's JSON, diff texts left out
    texts TEXT,                   -- JSON [[file index, "old" | "new", blob id], ...], or for a
                                  -- read [["window", content id, cap, body, text chars, footer]]
    actor TEXT                    -- who made the call (an agent's name); NULL: not named
);

-- Checkpoints: the content of every touched file at a moment, and the hunks reviewed since.
CREATE TABLE IF NOT EXISTS checkpoints (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    label TEXT,
    auto TEXT,                    -- NULL: asked for; else what took it (session, turn, rewind)
    created REAL NOT NULL,
    change_mark INTEGER NOT NULL, -- newest changes.id when it was taken
    intent_mark INTEGER NOT NULL, -- newest intents.id when it was taken
    actor TEXT                    -- who took it (an agent's name); NULL: not named
);
CREATE TABLE IF NOT EXISTS checkpoint_files (
    checkpoint INTEGER NOT NULL REFERENCES checkpoints(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    state TEXT NOT NULL,          -- kept, absent, unknown (unreadable or too large to keep)
    blob TEXT,
    PRIMARY KEY (checkpoint, path)
);
CREATE TABLE IF NOT EXISTS accepted_hunks (
    checkpoint INTEGER NOT NULL REFERENCES checkpoints(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    hunk TEXT NOT NULL,           -- hash of the hunk's lines
    PRIMARY KEY (checkpoint, path, hunk)
);
"""


ADDED_COLUMNS = (
    ("changes", "actor", "TEXT"),
    ("journal", "actor", "TEXT"),
    ("checkpoints", "actor", "TEXT"),
    ("reads", "anchored", "TEXT"),
)
"""Columns added to a table after its first release: (table, column, type). A database made
before gains them when it is opened (they are NULL in its old rows)."""


def create(db: sqlite3.Connection) -> None:
    """Create what the database lacks: every table and index, and every added column."""
    if "path" in _columns(db, "reads") and "reader" not in _columns(db, "reads"):
        # Read records were one per path before agents were named: each becomes the unnamed
        # sessions' record (a new key cannot be added to a table in place).
        db.execute("ALTER TABLE reads RENAME TO reads_of_path")
    for statement in statements():
        db.execute(statement)
    if "path" in _columns(db, "reads_of_path"):
        db.execute(
            "INSERT INTO reads (reader, path, digest, blob) "
            "SELECT '', path, digest, blob FROM reads_of_path"
        )
        db.execute("DROP TABLE reads_of_path")
    for table, column, kind in ADDED_COLUMNS:
        if column not in _columns(db, table):
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def statements(schema: str = SCHEMA) -> list[str]:
    """The statements of `schema`, comments removed."""
    lines = [line.split("--", 1)[0] for line in schema.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
