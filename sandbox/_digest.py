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

    def copy(self) -> Digester:
        """An independent digester in the same state (for two contents sharing a start)."""
        twin = Digester()
        twin._hash = self._hash.copy()
        return twin


THREAD_BYTES = 1 << 20
"""Contents at least this large are hashed on a worker thread; below it a thread costs more than
the hash it would hide."""
_STEP = 1 << 20  # bytes hashed between two looks at a fork request


class PendingDigest:
    """The digest of a content, computed on a worker thread while the caller does other work.

    The hash releases the interpreter lock, so a large content is hashed on another core while the
    caller's thread searches or writes the same bytes; `result` waits for it. A content under
    `THREAD_BYTES` is hashed at once. The pieces are hashed in order, as one content, after what
    `start` (a digester the caller fed the content's first bytes) already holds; they must not
    change until `result` returns.

    `fork(offset)` asks for the digester's state after the content's first `offset` bytes, for a
    second content that shares them (an edit's new content shares the old one's bytes up to the
    change): granted when the hash has not passed `offset` yet, and then `forked` gives it.
    `fork_at` asks for it before the hash starts (always granted, for an offset within the
    content).
    """

    def __init__(
        self,
        pieces: Sequence[bytes | memoryview],
        *,
        start: Digester | None = None,
        fork_at: int | None = None,
    ) -> None:
        self._pieces = pieces
        self._digester = Digester() if start is None else start
        self._digest: str | None = None
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._claimed = 0  # the hash took the bytes up to here (it may not have finished them)
        self._fork_at = fork_at
        self._forked: Digester | None = None
        if sum(len(piece) for piece in pieces) < THREAD_BYTES:
            self._run()
        else:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()

    @classmethod
    def known(cls, digest: str) -> PendingDigest:
        """A digest the caller proved without hashing (no fork is granted)."""
        done = cls([b""])
        done._digest = digest
        return done

    def ready(self) -> bool:
        """Whether `result` returns at once (the digest is known, or the hash failed)."""
        return self._digest is not None or self._error is not None

    def fork(self, offset: int) -> bool:
        """Ask for the state after the first `offset` bytes; False: the hash is already past."""
        with self._lock:
            if self._fork_at is not None or offset < self._claimed:
                return False
            self._fork_at = offset
            return True

    def forked(self) -> tuple[int, Digester] | None:
        """The offset and state asked for by `fork` (waits for the hash); None when not granted."""
        self.result()
        if self._forked is None or self._fork_at is None:
            return None
        return self._fork_at, self._forked.copy()

    def _run(self) -> None:
        try:
            at = 0
            for piece in self._pieces:
                view = memoryview(piece).cast("B")
                for lo in range(0, len(view), _STEP):
                    hi = min(lo + _STEP, len(view))
                    with self._lock:
                        self._claimed = at + hi
                        fork = self._fork_at
                    if fork is not None and at + lo <= fork < at + hi:
                        self._digester.update(view[lo : fork - at])
                        self._forked = self._digester.copy()
                        lo = fork - at
                    self._digester.update(view[lo:hi])
                at += len(view)
            with self._lock:
                self._claimed = at + 1  # no fork is granted any more
                if self._fork_at == at:
                    self._forked = self._digester.copy()
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
