"""Bytes to text and back, byte for byte: encoding, BOM and newline style are detected and kept.

`decode` tries, in order: a byte-order mark (UTF-32 LE/BE, UTF-8, UTF-16 LE/BE); the binary test (a NUL
byte in the first 8000 bytes, once a UTF-16/32 BOM is ruled out); strict UTF-8; and the legacy
encodings charset-normalizer proposes. A legacy guess is accepted only if encoding the decoded text gives
back exactly the original bytes. cp1252 wins whenever it reads nearly as well as the best guess,
because charset-normalizer often ranks a rare code page first on Western text (cp1250 or cp775 for a
cp1252 file); a Turkish cp1254 file without its six distinctive letters is indistinguishable and is
read as cp1252 (the bytes still round-trip). Text keeps its newlines verbatim; nothing is ever replaced with U+FFFD.

Splices are byte-local for the stateless encodings detected here (UTF-8/16/32, single-byte code pages,
Shift-JIS, GBK, Big5, EUC): the bytes outside the replaced span stay as they were. A stateful encoding
such as ISO-2022-JP round-trips unchanged but a splice may re-encode escape sequences near the span.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

from ._errors import SandboxError

__all__ = ["TextDocument", "bom_candidates", "decode", "looks_binary"]

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16 LE: it starts with the same two bytes
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_MARK = "\ufeff"  # the byte-order mark as text: every BOM above decodes to it
_BINARY_PROBE = 8000
# Common legacy encodings, most common first: exact ties between guesses go to the earlier one.
_PREFERRED = (
    "cp1252",
    "cp1251",
    "cp1250",
    "shift_jis",
    "cp932",
    "gbk",
    "gb18030",
    "big5",
    "euc_kr",
    "cp949",
    "euc_jp",
    "iso8859-15",
    "latin-1",
    "koi8-r",
    "cp1253",
    "cp1254",
    "cp1255",
    "cp1256",
    "cp1257",
    "cp1258",
)
_PREFERRED_RANK = {codecs.lookup(name).name: i for i, name in enumerate(_PREFERRED)}
# Vendor supersets whose standard sibling is tried first (same text, better-known name).
_SIBLINGS = {"cp932": "shift_jis", "gb18030": "gbk", "cp949": "euc_kr"}
_CP1252_MARGIN = 0.2
_BARE_LF = re.compile(r"(?<!\r)\n")


@dataclass(frozen=True)
class TextDocument:
    """Decoded text that remembers how to give its bytes back.

    `text` keeps the original newlines verbatim; `newline` is the dominant style ("\\n" for a file
    without newlines), `mixed` says more than one style occurs, `final_newline` whether the text ends
    with one. `encode()` of an unchanged document returns exactly the bytes it was decoded from.
    """

    text: str
    encoding: str
    bom: bytes
    newline: str
    mixed: bool
    final_newline: bool
    # Counts of bare LF, CRLF and bare CR, kept so a splice updates them from the changed span
    # alone instead of rescanning a large text.
    _counts: tuple[int, int, int] = field(default=(0, 0, 0), repr=False, compare=False)

    @property
    def newline_counts(self) -> tuple[int, int, int]:
        """How many bare LF, CRLF and bare CR the text holds (counted once, when it was made)."""
        return self._counts

    def encode(self) -> bytes:
        """The document as bytes: BOM, then the text in its encoding."""
        return self.bom + _encode(self.text, self.encoding)

    def splice(self, start: int, end: int, replacement: str) -> TextDocument:
        """Replace `text[start:end]` with `replacement`; untouched text stays untouched.

        Bare "\\n" in `replacement` (not part of "\\r\\n") take the dominant newline style; a
        byte-order mark (U+FEFF) put at the start of a document that has one is that same mark.
        Raises unencodable when the encoding cannot hold the replacement.
        """
        if not 0 <= start <= end <= len(self.text):
            raise ValueError(f"span {start}:{end} is outside the text (length {len(self.text)})")
        if start == 0:
            replacement = self._unmarked(replacement)
        piece = _adopt_newlines(replacement, self.newline)
        _encode(piece, self.encoding)
        text = self.text[:start] + piece + self.text[end:]
        # Only the span and one character each side can gain or lose a newline (or a CRLF pair);
        # everything outside that window is the same in both texts.
        lo = max(start - 1, 0)
        removed = _newline_counts(self.text[lo : end + 1])
        added = _newline_counts(text[lo : start + len(piece) + 1])
        counts = tuple(
            old + new - gone for old, new, gone in zip(self._counts, added, removed, strict=True)
        )
        return _from_counts(text, self.encoding, self.bom, counts)

    def with_text(self, text: str) -> TextDocument:
        """Replace the whole text, keeping encoding and BOM.

        LF-only text in a CRLF or CR document takes the dominant style; text that already contains
        "\\r" newlines is kept as given. A text that starts with the byte-order mark (U+FEFF) of a
        document that has one starts with that same mark. Raises unencodable when the encoding
        cannot hold it.
        """
        text = self._unmarked(text)
        if "\r" not in text:
            text = _adopt_newlines(text, self.newline)
        _encode(text, self.encoding)
        return self._with(text)

    @classmethod
    def new(cls, text: str) -> TextDocument:
        """A document for a new file: UTF-8, no BOM, newline style detected from `text`."""
        _encode(text, "utf-8")
        return _analysed(text, "utf-8", b"")

    def _with(self, text: str) -> TextDocument:
        return _analysed(text, self.encoding, self.bom)

    def _unmarked(self, text: str) -> str:
        """`text` without a leading U+FEFF when the document writes its BOM itself (`encode`):
        a model that saw or copied the mark would otherwise get it twice."""
        return text[1:] if self.bom and text.startswith(_MARK) else text


def bom_candidates(head: bytes) -> list[tuple[str, bytes]]:
    """The encodings whose byte-order mark starts `head`, with the mark, most specific first.

    A UTF-32 LE mark is also a UTF-16 LE mark followed by U+0000, so both may be listed: take the
    first whose decoding of the rest succeeds.
    """
    return [(encoding, bom) for bom, encoding in _BOMS if head.startswith(bom)]


def looks_binary(head: bytes) -> bool:
    """Whether bytes without a byte-order mark look binary: a NUL in the first 8000, as git judges."""
    return b"\x00" in head[:_BINARY_PROBE]


def decode(data: bytes, *, counts: tuple[int, int, int] | None = None) -> TextDocument:
    """Decode file bytes into a `TextDocument`; raises binary or undecodable, never guesses lossy.

    `counts` are the document's `newline_counts` when the caller knows them from an earlier
    decoding of the very same bytes: they spare a pass over the text.
    """
    for encoding, bom in bom_candidates(data):
        try:
            return _analysed(data[len(bom) :].decode(encoding), encoding, bom, counts)
        except UnicodeDecodeError as exc:
            if encoding == "utf-32-le":
                continue  # maybe UTF-16 LE text whose first character is U+0000
            reason = f"it starts with a {encoding} byte-order mark but is not {encoding}"
            raise _undecodable(reason) from exc
    if looks_binary(data):
        raise SandboxError(
            "binary",
            "The file looks binary (it has a NUL byte near the start); it cannot be edited as text.",
        )
    try:
        return _analysed(data.decode("utf-8"), "utf-8", b"", counts)
    except UnicodeDecodeError:
        pass
    for encoding in _legacy_candidates(data):
        try:
            text = data.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            continue
        try:
            if text.encode(encoding) == data:
                return _analysed(text, encoding, b"", counts)
        except UnicodeEncodeError:
            continue
    raise _undecodable("no encoding decodes it and encodes it back byte for byte")


def _legacy_candidates(data: bytes) -> list[str]:
    """Encodings worth trying, best first.

    charset-normalizer's order (least "chaos" first), except that cp1252, the most common legacy
    encoding, goes first whenever it reads nearly as well as the best guess: on Western text the
    detector often prefers a rare code page (cp1250, cp775) by a small margin. Exact ties go to the
    more common encoding, and a vendor superset (cp932) yields to its standard sibling (shift_jis).
    """
    # Imported here: a legacy file is rare, and the detector costs ~10 ms of every start-up.
    from charset_normalizer import from_bytes

    matches = list(from_bytes(data))
    if not matches:
        return []
    best = min(m.chaos for m in matches)
    ranked: list[tuple[float, int, int, str]] = []
    seen: set[str] = set()
    for index, match in enumerate(matches):
        for raw in (match.encoding, *match.could_be_from_charset):
            try:
                name = codecs.lookup(raw).name
            except LookupError:
                continue
            for candidate in (_SIBLINGS.get(name), name):
                if candidate is None or candidate in seen:
                    continue
                seen.add(candidate)
                chaos = match.chaos
                if candidate == "cp1252" and chaos <= best + _CP1252_MARGIN:
                    chaos = -1.0
                rank = _PREFERRED_RANK.get(candidate, len(_PREFERRED))
                ranked.append((chaos, rank, index, candidate))
    ranked.sort()
    return [name for *_, name in ranked]


def _newline_counts(text: str) -> tuple[int, int, int]:
    """Bare LF, CRLF and bare CR in `text`."""
    if "\r" not in text:  # the common case: one scan fewer on a large LF file
        return text.count("\n"), 0, 0
    crlf = text.count("\r\n")
    return text.count("\n") - crlf, crlf, text.count("\r") - crlf


def _analysed(
    text: str, encoding: str, bom: bytes, counts: tuple[int, int, int] | None = None
) -> TextDocument:
    return _from_counts(text, encoding, bom, counts or _newline_counts(text))


def _from_counts(text: str, encoding: str, bom: bytes, counts: tuple[int, ...]) -> TextDocument:
    by_style = dict(zip(("\n", "\r\n", "\r"), counts, strict=True))
    present = [style for style, n in by_style.items() if n]
    newline = max(by_style, key=lambda style: by_style[style]) if present else "\n"
    return TextDocument(
        text=text,
        encoding=encoding,
        bom=bom,
        newline=newline,
        mixed=len(present) > 1,
        final_newline=text.endswith(("\n", "\r")),
        _counts=(counts[0], counts[1], counts[2]),
    )


def _adopt_newlines(text: str, newline: str) -> str:
    return text if newline == "\n" else _BARE_LF.sub(lambda _: newline, text)


def _encode(text: str, encoding: str) -> bytes:
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as exc:
        bad = exc.object[exc.start : exc.end]
        raise SandboxError(
            "unencodable",
            f"The text contains {bad!r}, which {encoding} cannot represent; the file keeps its "
            f"encoding, so use characters {encoding} can hold (or an escape such as \\u{ord(bad[0]):04x}).",
        ) from exc


def _undecodable(reason: str) -> SandboxError:
    return SandboxError(
        "undecodable",
        f"The file cannot be decoded as text: {reason}. It is left as is; edit it with another tool.",
    )
