"""The content hash of the sandbox: version tokens and blob ids are BLAKE3 digests (hex).

BLAKE3 rather than SHA-256 for speed (several times faster on one core, which matters when every
change of a large file hashes its new content), and rather than a non-cryptographic hash such as
XXH3 because blob ids and version compares face repository-controlled content: a file crafted to
collide with another must not pass a compare-and-swap or stand in for an undo snapshot, so the hash
has to resist chosen collisions. Callers treat digests as opaque strings.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from blake3 import blake3

__all__ = ["DIGEST_HEX", "Digester", "PendingDigest", "digest_of"]

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

    def hexdigest(self) -> str:
        """The digest of everything added so far."""
        return self._hash.hexdigest()


THREAD_BYTES = 1 << 20
"""Contents at least this large are hashed on a worker thread; below it a thread costs more than
the hash it would hide."""


class PendingDigest:
    """The digest of a content, computed on a worker thread while the caller does other work.

    The hash releases the interpreter lock, so a large content is hashed on another core while the
    caller's thread searches or writes the same bytes; `result` waits for it. A content under
    `THREAD_BYTES` is hashed at once. The pieces are hashed in order, as one content; they must
    not change until `result` returns.
    """

    def __init__(self, pieces: Sequence[bytes | memoryview]) -> None:
        self._digest: str | None = None
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        if sum(len(piece) for piece in pieces) < THREAD_BYTES:
            self._digest = _digest_pieces(pieces)
        else:
            self._thread = threading.Thread(target=self._run, args=(pieces,), daemon=True)
            self._thread.start()

    def _run(self, pieces: Sequence[bytes | memoryview]) -> None:
        try:
            self._digest = _digest_pieces(pieces)
        except BaseException as exc:  # handed to the thread that waits in `result`
            self._error = exc

    def result(self) -> str:
        """The hex digest (waits for the worker thread, and raises what it raised)."""
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._error is not None:
            raise self._error
        assert self._digest is not None
        return self._digest


def _digest_pieces(pieces: Sequence[bytes | memoryview]) -> str:
    if len(pieces) == 1:
        return digest_of(pieces[0])
    digester = Digester()
    for piece in pieces:
        digester.update(piece)
    return digester.hexdigest()
