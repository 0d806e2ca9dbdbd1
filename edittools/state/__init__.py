"""What the tools remember about a root, over the sandbox's state database and blob store.

`Workspace` is what every call of a session shares: the sandbox, the read records of each
reader, the journal of results (`append_event`, `read_events`), the undo history (`Change`,
`Recipe`, `Span`), the checkpoints (`Checkpoints`, `Checkpoint`, `Snapshot`, `hunk_key`), and
`KnownContents`, the facts that spare passes over large contents. `ExternalWatcher` reports
changes made outside the tools (`external_event`). The rows themselves are kept by
`sandbox.state`, the one owner of the schema.

Names are imported on first use: a command that needs one of them loads only its module.
"""

import typing as _typing

from edittools._lazy import lazy_names as _lazy_names

if _typing.TYPE_CHECKING:
    from edittools.state._checkpoints import Checkpoint, Checkpoints, Snapshot, hunk_key
    from edittools.state._contents import KnownContents
    from edittools.state._external import ExternalWatcher, external_event
    from edittools.state._journal import Shown, WindowText, append_event, read_events
    from edittools.state._workspace import Change, Recipe, Span, Workspace

__all__ = [
    "Change",
    "Checkpoint",
    "Checkpoints",
    "ExternalWatcher",
    "KnownContents",
    "Recipe",
    "Shown",
    "Snapshot",
    "Span",
    "WindowText",
    "Workspace",
    "append_event",
    "external_event",
    "hunk_key",
    "read_events",
]

_HOMES = {
    "Checkpoint": "edittools.state._checkpoints",
    "Checkpoints": "edittools.state._checkpoints",
    "Snapshot": "edittools.state._checkpoints",
    "hunk_key": "edittools.state._checkpoints",
    "KnownContents": "edittools.state._contents",
    "ExternalWatcher": "edittools.state._external",
    "external_event": "edittools.state._external",
    "Shown": "edittools.state._journal",
    "WindowText": "edittools.state._journal",
    "append_event": "edittools.state._journal",
    "read_events": "edittools.state._journal",
    "Change": "edittools.state._workspace",
    "Recipe": "edittools.state._workspace",
    "Span": "edittools.state._workspace",
    "Workspace": "edittools.state._workspace",
}

__getattr__, __dir__ = _lazy_names(__name__, _HOMES, __all__)
