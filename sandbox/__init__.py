"""sandbox: the file system made safe — confinement, atomic writes, faithful text, a blob store,
and a watcher for changes made outside."""

from ._digest import Digester, digest_of
from ._errors import SandboxError
from ._files import ABSENT, AbsentType, FileReader, PendingVersion, Version
from ._listing import DirEntry, DirListing
from ._sandbox import Sandbox
from ._splice import Splice
from ._staging import SpliceWriter, Staged
from ._store import BlobStore
from ._text import TextDocument, bom_candidates, decode, looks_binary
from ._watch import Baseline, FileChange, Watcher
from ._writes import FileWrite
from .state import StateIndex

__all__ = [
    "ABSENT",
    "AbsentType",
    "Baseline",
    "BlobStore",
    "Digester",
    "DirEntry",
    "DirListing",
    "FileChange",
    "FileReader",
    "FileWrite",
    "PendingVersion",
    "Sandbox",
    "SandboxError",
    "Splice",
    "SpliceWriter",
    "Staged",
    "StateIndex",
    "TextDocument",
    "Version",
    "Watcher",
    "bom_candidates",
    "decode",
    "digest_of",
    "looks_binary",
]
