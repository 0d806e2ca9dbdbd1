"""The content hash of the sandbox: version tokens and blob ids are BLAKE3 digests (hex).

BLAKE3 rather than SHA-256 for speed (several times faster on one core, which matters when every
change of a large file hashes its new content), and rather than a non-cryptographic hash such as
XXH3 because blob ids and version compares face repository-controlled content: a file crafted to
collide with another must not pass a compare-and-swap or stand in for an undo snapshot, so the hash
has to resist chosen collisions. Callers treat digests as opaque strings.
"""

from __future__ import annotations

from blake3 import blake3

__all__ = ["DIGEST_HEX", "Digester", "digest_of"]

DIGEST_HEX = 64
"""Length of a digest in hex digits."""


def digest_of(data: bytes | bytearray | memoryview) -> str:
    """The hex digest of `data` (single-threaded: the tools share the machine's cores)."""
    return blake3(data).hexdigest()


class Digester:
    """An incremental digest: `update` with pieces in order, then `hexdigest`."""

    def __init__(self) -> None:
        self._hash = blake3()

    def update(self, data: bytes | bytearray | memoryview) -> None:
        """Add the next piece of the content."""
        self._hash.update(data)

    def copy(self) -> Digester:
        """An independent digester that has been fed what this one has."""
        twin = Digester()
        twin._hash = self._hash.copy()
        return twin

    def hexdigest(self) -> str:
        """The digest of everything added so far."""
        return self._hash.hexdigest()
