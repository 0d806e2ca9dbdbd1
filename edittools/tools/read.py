"""The read tool: a numbered window of a text file, or an image by attachment reference.

A file over the session's `max_file_bytes` cap is streamed rather than refused: only the requested
window is decoded and kept, and its lines are counted on the way (see `_read_large`).
"""

from __future__ import annotations

import codecs
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import AnyStr, Generic

from edittools._errors import ToolError
from edittools.artifacts import (
    Attachment,
    CodePayload,
    Image,
    ImageArtifact,
    ImagePayload,
    ToolResult,
)
from edittools.artifacts.builders import code_result
from edittools.change import (
    CUT_MARKER,
    Call,
    as_lf_lines,
    decoded,
    numbered,
    plain_numbered,
    read_existing_at,
)
from edittools.state import Shown, Workspace
from edittools.syntax import language_of
from edittools.tools._cells import parse
from edittools.tools._cells_view import cells_view
from edittools.tools._params import ReadParams
from edittools.tools._tags import anchored, tags
from sandbox import (
    FileReader,
    SandboxError,
    TextDocument,
    bom_candidates,
    decode,
    looks_binary,
)

_CHUNK = 1 << 20


def read(ws: Workspace, params: ReadParams, call: Call) -> ToolResult:
    """Read `params.path`: numbered lines `offset`..`offset + limit - 1`, or an image.

    A file over the `max_file_bytes` cap is read in ranges: the window is streamed out of it
    (UTF-8, or any encoding its byte-order mark names) and the footer gives the total line count
    and the next offset. Without an explicit range such a file shows its first window, like any
    other file, because the first lines and the line count are what an agent needs to pick the
    next range. Such a read is recorded as a read (its lines are counted to the end, and the
    content is hashed on the way), so `edit` may change the file by a streamed, exact match.
    """
    try:
        path, data, version = read_existing_at(ws, params.path)
    except SandboxError as exc:
        if exc.code != "too_large":
            raise
        return _read_large(ws, call, ws.sandbox.relpath(params.path), params)
    name = ws.sandbox.name_of(params.path)  # what the read called it: see `_guard.resolved`
    mime = image_mime(data)
    if mime is not None:
        ws.note_seen(path, data, version, reader=call.reader, name=name)
        return _read_image(ws, path, data, mime)
    document = decoded(ws, data, version)
    seen = ws.note_seen(path, data, version, reader=call.reader, name=name)
    if not document.text:
        return ToolResult(
            value=f"{path} is empty (0 lines). It was recorded as read, so you may write it.",
            artifact=code_result(
                "", CodePayload(text="", filename=path, start_line=0, end_line=0, total_lines=0)
            ).artifact,
        )
    if path.lower().endswith(".ipynb") and _whole(params):  # a range: the JSON lines
        shown = _read_notebook(ws, path, document, seen.blob_id)
        if shown is not None:
            return shown
    result = _read_text(ws, call, path, document, params, seen.blob_id)
    if params.anchors:  # the anchors shown name lines of this content (see `tools.anchors`)
        ws.note_anchored(path, seen, reader=call.reader)
    return result


def _read_text(
    ws: Workspace,
    call: Call,
    path: str,
    document: TextDocument,
    params: ReadParams,
    content: str | None,
) -> ToolResult:
    """The window `params` asks for of a file held whole; `content` is the id its bytes are
    stored under, if they are (the journal then keeps the window by reference)."""
    text = as_lf_lines(document.text)
    # Only the lines up to the window's end are split off (the rest stays one string), and the
    # total comes from the newlines decoding counted: a long file costs no list of all its lines
    # and no second scan. Lines split on LF, or on CR in a file that has no LF (`as_lf_lines`).
    bare_lf, crlf, bare_cr = document.newline_counts
    total = (bare_lf + crlf or bare_cr) + (not text.endswith("\n"))
    _check_offset(path, params.offset, total)
    limit = min(params.limit, ws.options.read_line_limit)
    stop = params.offset - 1 + limit
    window = text.split("\n", stop)[params.offset - 1 : min(stop, total)]
    tagged = None
    if params.anchors:  # a tag must differ from every other line text's: all lines are needed
        every = text.split("\n")
        tagged = tags(every[:total])[params.offset - 1 : params.offset - 1 + len(window)]
    return _window_result(
        ws, call, path, window, params.offset, total, content=content, tagged=tagged
    )


def _whole(params: ReadParams) -> bool:
    """Whether the read asks for the whole file: no range but the default one, no anchors."""
    default = ReadParams.model_fields["limit"].default
    return params.offset == 1 and params.limit == default and not params.anchors


def _read_notebook(
    ws: Workspace, path: str, document: TextDocument, content: str | None
) -> ToolResult | None:
    """A notebook shown by cell (`_cells_view`); the artifact holds its JSON text, as a read of
    the whole file does. None when the text is not an nbformat 4 notebook, or its cells are
    over the read cap: its JSON lines are shown then, as any file's."""
    try:
        notebook = parse(document.text, path)
    except ToolError:
        return None
    value = cells_view(notebook, path, ws.options.read_line_chars)
    if len(value) > ws.options.read_output_chars:
        return None
    text = as_lf_lines(document.text)
    total = text.count("\n") + (not text.endswith("\n"))
    payload = CodePayload(text=text, lang=language_of(path), filename=path, start_line=1,
                          end_line=total, total_lines=total, text_ref=content)  # fmt: skip
    return code_result(value, payload)


def _check_offset(path: str, offset: int, total: int) -> None:
    if offset > total:
        raise ToolError(
            "invalid_arguments",
            f"{path} has {total} lines; offset {offset} is past the end. "
            f"Use an offset between 1 and {total}.",
            {"total_lines": total},
        )


def _window_result(
    ws: Workspace,
    call: Call,
    path: str,
    window: list[str],
    offset: int,
    total: int,
    *,
    note: str = "",
    content: str | None = None,
    tagged: list[str] | None = None,
) -> ToolResult:
    """The numbered window, its footer (with `note` appended) and the code artifact.

    `content` is the id of the stored content the window's lines are cut from, when they are:
    the result is then noted as shown from it (`Call.shown`), for the journal. With `tagged`
    (each line's anchor tag) the lines are shown as anchors (`12#a3f|text`), whole."""
    last = offset + len(window) - 1
    cap = ws.options.read_line_chars
    joined = "\n".join(window)
    longest = max(map(len, window), default=0)
    if longest <= cap:  # no line is cut: the measure below, without a call per line
        size = len(joined) - len(window) + 1 + 8 * len(window) if window else 0
    else:
        size = sum(_shown_chars(line, cap) for line in window)
    if size > ws.options.read_output_chars:
        fitting = _lines_that_fit(window, ws.options.read_output_chars, cap)
        raise ToolError(
            "too_large",
            f"Lines {offset}-{last} of {path} are about {size} characters, over the "
            f"read cap of {ws.options.read_output_chars}. Read a smaller range, e.g. "
            f"offset={offset} limit={fitting}.",
            {"total_lines": total, "suggested_limit": fitting},
        )
    if tagged is not None:
        body = anchored(window, offset, tagged)
    else:
        body = _numbered_lines(window, joined, longest, offset, cap)
    if content is not None and tagged is None:  # the journal cuts again cat -n lines only
        call.shown = Shown(content, cap, body)
    partial = offset > 1 or last < total
    footer = ""
    if last < total:
        footer = (
            f"\n\n[Showing lines {offset}-{last} of {total}. "
            f"Use offset={last + 1} to read more.{note}]"
        )
    elif offset > 1 or note:
        footer = f"\n\n[Showing lines {offset}-{last} of {total}; end of file.{note}]"
    payload = CodePayload(
        text=joined + ("\n" if window else ""),
        lang=language_of(path),
        filename=path,
        start_line=offset,
        end_line=last,
        total_lines=total,
        truncated=partial,
        text_ref=content,
    )
    return code_result(body + footer, payload)


def _numbered_lines(window: list[str], joined: str, longest: int, offset: int, cap: int) -> str:
    """The lines of `window` numbered from `offset` and cut at `cap` characters (`joined` is the
    lines joined by LF, `longest` the length of the longest: both known to the caller)."""
    if longest <= cap and "\r" not in joined:
        return plain_numbered(window, offset)
    return numbered(window, offset, max_chars=cap)


def shown_window(data: bytes, start: int, end: int, cap: int) -> tuple[str, str]:
    """Lines `start`..`end` of content `data` as a read showed them: the code payload's text and
    the numbered lines that begin the model's text (how a journaled read is read back)."""
    window = as_lf_lines(decode(data).text).split("\n", end)[start - 1 : end]
    joined = "\n".join(window)
    longest = max(map(len, window), default=0)
    text = joined + ("\n" if window else "")
    return text, _numbered_lines(window, joined, longest, start, cap)


def _shown_chars(line: str, cap: int) -> int:
    """About how many characters `line` takes in the numbered output (number, tab, cut marker)."""
    return min(len(line), cap + len(CUT_MARKER) + 8) + 8


def _lines_that_fit(window: list[str], budget: int, cap: int) -> int:
    """How many lines from the start of `window` fit in `budget` (the same measure as the cap)."""
    used = 0
    for count, line in enumerate(window):
        used += _shown_chars(line, cap)
        if used > budget:
            return max(count, 1)
    return len(window)


def _read_large(ws: Workspace, call: Call, path: str, params: ReadParams) -> ToolResult:
    """A window of a file over the cap, streamed: nothing but the window is kept or decoded.

    Lines are counted to the end, so the footer can give the total. The window itself may hold up
    to the cap (`max_file_bytes` is the most of one file a tool keeps in memory); a longer one is
    too_large with a limit that fits. The read is recorded by the version hashed on the way. Lines are split on LF only here (a file with lone-CR line ends over
    the cap shows as one long line).
    """
    if params.anchors:
        raise ToolError(
            "too_large",
            f"{path} is over the size cap for whole-file reads, and anchors are given for whole "
            "files only. Read it without anchors, and change it with edit.",
        )
    cap = ws.options.max_file_bytes
    limit = min(params.limit, ws.options.read_line_limit)
    with ws.sandbox.open_reader(path) as reader:
        first = reader.read(_CHUNK)
        if image_mime(first) is not None:
            raise ToolError(
                "too_large",
                f"{path} is an image of {reader.size} bytes, over the cap of {cap} bytes, so it "
                "cannot be attached. Make a smaller copy of it with another tool and read that.",
                {"path": path, "bytes": reader.size},
            )
        encoding, skip = _stream_encoding(first, path)
        chunks = _rest(reader, first)
        if encoding == "utf-8":
            raw = _scan(_skipped(chunks, skip), b"\n", params.offset, limit, cap)
            # A window cut at the budget may end inside a character: only a whole one is decoded.
            text = "" if raw.overflow else _decode_window(raw.window, path, params.offset)
            scan = _Scan(text, raw.total, raw.overflow)
        else:
            # The budget counts characters here: a UTF-16 unit is 2 bytes, a UTF-32 one 4.
            units = cap // (2 if "16" in encoding else 4)
            scan = _scan(_decoded(chunks, skip, encoding, path), "\n", params.offset, limit, units)
        version = reader.version
    total = scan.total
    note = (
        f" {path} is over the {cap}-byte cap for whole-file reads: read it in ranges with offset "
        "and limit; edit changes it by an exact match, streamed; write and apply_patch refuse it."
    )
    if total == 0:
        return ToolResult(value=f"{path} holds no lines.{note}")
    _check_offset(path, params.offset, total)
    if scan.overflow is not None:
        fitting = scan.overflow - params.offset
        advice = (
            f"Read a smaller range, e.g. offset={params.offset} limit={fitting}."
            if fitting
            else f"Line {params.offset} alone is that large, so it cannot be shown."
        )
        wanted = min(total, params.offset + limit - 1)
        raise ToolError(
            "too_large",
            f"Lines {params.offset}-{wanted} of {path} hold more than {cap} bytes, over the "
            f"cap. {advice}",
            {"total_lines": total, "suggested_limit": fitting or None},
        )
    window = scan.window.split("\n")
    if window[-1] == "":
        window.pop()
    result = _window_result(ws, call, path, window, params.offset, total, note=note)
    if version is not None:  # a read that showed its window counts as a read, as for any file
        ws.note_seen_version(
            path, version, reader=call.reader, name=ws.sandbox.name_of(params.path)
        )
    return result


def _stream_encoding(first: bytes, path: str) -> tuple[str, int]:
    """The encoding of a streamed file and its BOM length, from its first chunk.

    A byte-order mark names the encoding; otherwise the file must be UTF-8 (a legacy encoding
    cannot be told from one chunk and checked to round-trip without the whole file).
    """
    for encoding, bom in bom_candidates(first):
        if encoding == "utf-32-le" and not _decodes(first[len(bom) :], encoding):
            continue  # UTF-16 LE text whose first character is U+0000
        return encoding, len(bom)
    if looks_binary(first):
        raise ToolError(
            "binary",
            f"{path} looks binary (it has a NUL byte near the start); it cannot be shown as text.",
            {"path": path},
        )
    if not _decodes(first, "utf-8"):
        raise ToolError(
            "undecodable",
            f"{path} is over the size cap and is not UTF-8: a file this large can be read in "
            "ranges only when it is UTF-8 or starts with a byte-order mark. Convert it to UTF-8 "
            "or read it with another tool.",
            {"path": path},
        )
    return "utf-8", 0


def _decodes(data: bytes, encoding: str) -> bool:
    """Whether `data` is a valid start of text in `encoding` (a cut character at the end is fine)."""
    try:
        codecs.getincrementaldecoder(encoding)("strict").decode(data, final=False)
    except UnicodeDecodeError:
        return False
    return True


def _rest(reader: FileReader, first: bytes) -> Iterator[bytes]:
    yield first
    while chunk := reader.read(_CHUNK):
        yield chunk


def _skipped(chunks: Iterable[bytes], skip: int) -> Iterator[bytes]:
    """The chunks without the first `skip` bytes (the BOM, which lies in the first chunk)."""
    for k, chunk in enumerate(chunks):
        yield chunk[skip:] if k == 0 else chunk


def _decoded(chunks: Iterable[bytes], skip: int, encoding: str, path: str) -> Iterator[str]:
    """The text of a BOM-marked stream, decoded strictly as it comes."""
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    seen = 0
    try:
        for chunk in _skipped(chunks, skip):
            yield decoder.decode(chunk)
            seen += len(chunk)
        yield decoder.decode(b"", final=True)
    except UnicodeDecodeError as exc:
        raise ToolError(
            "undecodable",
            f"{path} starts with a {encoding} byte-order mark but is not valid {encoding} near "
            f"byte {skip + seen + exc.start}. It cannot be read as text; use another tool.",
            {"path": path},
        ) from exc


def _decode_window(window: bytes, path: str, offset: int) -> str:
    try:
        return window.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = offset + window.count(b"\n", 0, exc.start)
        raise ToolError(
            "undecodable",
            f"Line {line} of {path} is not valid UTF-8, so it cannot be shown as text. Read a "
            f"range before or after it, or use another tool for this part.",
            {"path": path, "line": line},
        ) from exc


@dataclass(frozen=True)
class _Scan(Generic[AnyStr]):
    """What one pass over a stream found: the window's text, the total lines, an overflow."""

    window: AnyStr
    total: int
    overflow: int | None  # the line at which the window passed the byte budget


def _scan(
    chunks: Iterable[AnyStr], sep: AnyStr, first: int, count: int, budget: int
) -> _Scan[AnyStr]:
    """Keep lines `first`..`first + count - 1` (1-based, with their separators); count all lines.

    Chunks before the window are only counted; collecting stops once the window holds more than
    `budget` units, so memory stays bounded whatever the file holds.
    """
    stop = first + count
    line = 1  # the number of the line the next unit belongs to
    pieces: list[AnyStr] = []
    held = 0
    overflow: int | None = None
    ends_with_sep = True  # an empty stream has no unfinished last line
    for chunk in chunks:
        if not chunk:
            continue
        pos = 0
        if line < first:
            seps = chunk.count(sep)
            if line + seps < first:
                line += seps
                ends_with_sep = chunk.endswith(sep)
                continue
            while line < first:
                pos = chunk.index(sep, pos) + 1
                line += 1
        while line < stop and overflow is None and pos < len(chunk):
            k = chunk.find(sep, pos)
            end = len(chunk) if k < 0 else k + 1
            pieces.append(chunk[pos:end])
            held += end - pos
            if held > budget:
                overflow = line
            pos = end
            if k >= 0:
                line += 1
        line += chunk.count(sep, pos)
        ends_with_sep = chunk.endswith(sep)
    total = line - 1 if ends_with_sep else line
    return _Scan(sep[:0].join(pieces), total, overflow)


_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


def image_mime(data: bytes) -> str | None:
    """The MIME type of PNG, JPEG, GIF and WebP bytes, recognised by their magic numbers."""
    for magic, mime in _MAGIC:
        if data.startswith(magic):
            return mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def _read_image(ws: Workspace, path: str, data: bytes, mime: str) -> ToolResult:
    # Imported here: it loads an HTTP client, ~10 ms of every start-up, for image reads only.
    import imagesize

    width, height = imagesize.get(io.BytesIO(data))
    blob_id = ws.keep(data) or ws.sandbox.store.put(data)
    attachment = Attachment(
        id=blob_id,
        bytes=len(data),
        width=width if width > 0 else None,
        height=height if height > 0 else None,
    )
    size = f"{width}x{height}, " if width > 0 and height > 0 else ""
    value = f"[image {path}: {mime}, {size}{len(data)} bytes, attachment {blob_id}]"
    artifact = ImageArtifact(
        icon="image",
        title=path,
        payload=ImagePayload(images=[Image(mime=mime, attachment=attachment)], path=path),
    )
    return ToolResult(value=value, artifact=artifact)
