"""The content hash of the sandbox: version tokens and blob ids are BLAKE3 digests (hex).

BLAKE3 rather than SHA-256 for speed (several times faster on one core, which matters when every
change of a large file hashes its new content), and rather than a non-cryptographic hash such as
XXH3 because blob ids and version compares face repository-controlled content: a file crafted to
collide with another must not pass a compare-and-swap or stand in for an undo snapshot, so the hash
has to resist chosen collisions. Callers treat digests as opaque strings.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from blake3 import blake3

__all__ = ["DIGEST_HEX", "STEP", "Digester", "PendingDigest", "Prefix", "digest_of"]

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


THREAD_BYTES = 1 << 20
"""Contents at least this large are hashed on a worker thread; below it a thread costs more than
the hash it would hide."""
STEP = 1 << 20
"""The states a hash hands out (`on_step`) are those after each multiple of this many bytes."""

Prefix = tuple[int, Digester]
"""A digester fed a content's first bytes, and how many: `(count, digester)`."""


class PendingDigest:
    """The digest of a content, computed on a worker thread while the caller does other work.

    The hash releases the interpreter lock, so a large content is hashed on another core while the
    caller's thread searches or writes the same bytes; `result` waits for it. A content under
    `THREAD_BYTES` is hashed at once. The pieces are hashed in order, as one content, after the
    `start` prefix when given (the pieces are then the rest of the content); they must not change
    until `result` returns.

    `on_step((offset, state))` is called (on the worker thread) with a copy of the digester after
    each multiple of `STEP` bytes of the content: another content sharing the first `offset`
    bytes (an edit's new content shares the old one's bytes up to the change) is hashed from
    there, as a `start` prefix.
    """

    def __init__(
        self,
        pieces: Sequence[bytes | memoryview],
        *,
        start: Prefix | None = None,
        on_step: Callable[[tuple[int, Digester]], object] | None = None,
    ) -> None:
        self._pieces = pieces
        self._offset, self._digester = (0, Digester()) if start is None else start
        self._on_step = on_step
        self._digest: str | None = None
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        if sum(len(piece) for piece in pieces) < THREAD_BYTES:
            self._run()
        else:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()

    @classmethod
    def known(cls, digest: str) -> PendingDigest:
        """A digest the caller proved without hashing."""
        done = cls([b""])
        done._digest = digest
        return done

    def ready(self) -> bool:
        """Whether `result` returns at once (the digest is known, or the hash failed)."""
        return self._digest is not None or self._error is not None

    def _run(self) -> None:
        try:
            at = self._offset
            for piece in self._pieces:
                view = memoryview(piece).cast("B")
                lo = 0
                while lo < len(view):
                    hi = min(len(view), lo + STEP - at % STEP)  # up to the next multiple
                    self._digester.update(view[lo:hi])
                    at += hi - lo
                    lo = hi
                    if self._on_step is not None and at % STEP == 0:
                        self._on_step((at, self._digester.copy()))
            self._digest = self._digester.hexdigest()
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
