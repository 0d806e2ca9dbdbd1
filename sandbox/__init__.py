"""sandbox: the file system made safe — confinement, atomic writes, faithful text, a blob store."""

from ._errors import SandboxError
from ._files import ABSENT, AbsentType, Version
from ._sandbox import Sandbox
from ._store import BlobStore
from ._text import TextDocument, decode

__all__ = [
    "ABSENT",
    "AbsentType",
    "BlobStore",
    "Sandbox",
    "SandboxError",
    "TextDocument",
    "Version",
    "decode",
]
