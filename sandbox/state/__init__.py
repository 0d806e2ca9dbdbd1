"""The state database of a root: the whole schema and every query, in one home.

`StateIndex` is the connection (WAL, bounded busy waits, errors as `SandboxError`); `schema` holds
every table. The queries live in one module per family of tables: `intents` (the sandbox's
write-ahead intents and recoveries), `history` (read records, changes, recipes), `journal` and
`checkpoints`. No module outside this package writes SQL (a layout rule); callers pass a
connection (`StateIndex.transaction`) where a query joins their transaction.
"""

from sandbox.state.index import DB_NAME, StateIndex

__all__ = ["DB_NAME", "StateIndex"]
