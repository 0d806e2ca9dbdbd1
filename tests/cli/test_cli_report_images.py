"""`edittools report --root`: image cards show the images the tools read, from the blob store."""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path

from edittools import Session
from edittools.cli import main


def _png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    body = chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0\0\xff\0"))
    return b"\x89PNG\r\n\x1a\n" + body + chunk(b"IEND", b"")


def test_report_with_root_inlines_the_image_read_there(tmp_path: Path, capsys) -> None:
    root = tmp_path / "root"
    root.mkdir()
    png = _png()
    (root / "dot.png").write_bytes(png)
    with Session(root) as session:
        result = session.read("dot.png")
    journal = tmp_path / "results.json"
    journal.write_text(result.model_dump_json())
    page = tmp_path / "with.html"
    assert main(["report", str(journal), "-o", str(page), "--root", str(root)]) == 0
    html = page.read_text()
    assert f'src="data:image/png;base64,{base64.b64encode(png).decode()}"' in html
    assert "<h2>dot.png</h2>" in html and "image/png 1x1" in html
    # A root whose store lacks the blob: the envelope alone.
    bare = tmp_path / "without.html"
    other = tmp_path / "other"
    other.mkdir()
    assert main(["report", str(journal), "-o", str(bare), "--root", str(other)]) == 0
    assert "<img" not in bare.read_text() and "image/png 1x1" in bare.read_text()


def test_report_with_a_root_that_does_not_exist_shows_the_envelope(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "dot.png").write_bytes(_png())
    journal = tmp_path / "results.json"
    with Session(root) as session:
        journal.write_text(session.read("dot.png").model_dump_json())
    page = tmp_path / "page.html"
    missing = tmp_path / "missing"
    assert main(["report", str(journal), "-o", str(page), "--root", str(missing)]) == 0
    assert "<img" not in page.read_text() and "image/png 1x1" in page.read_text()
