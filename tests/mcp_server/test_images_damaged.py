"""A damaged image sent to the model is no image, never an exception out of the server."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from edittools.mcp_server._images import ImageLimits, for_model


def _png(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 10, 10)).save(buffer, format="PNG")
    return buffer.getvalue()


def test_a_png_with_a_broken_chunk_is_none() -> None:
    # A byte changed inside the image data: Pillow opens it, then raises SyntaxError at load.
    data = bytearray(_png(40, 30))
    data[int(0.3671875 * (len(data) - 1))] = 0
    assert for_model(bytes(data), "image/png", ImageLimits(max_side=16, max_bytes=10_000)) is None


@pytest.mark.parametrize("keep", [0.2, 0.5])
def test_a_png_cut_short_is_none(keep: float) -> None:
    data = _png(40, 30)
    damaged = data[: int(keep * len(data))]
    assert for_model(damaged, "image/png", ImageLimits(max_side=16, max_bytes=10_000)) is None


def test_a_whole_png_is_scaled_down() -> None:
    scaled = for_model(_png(40, 30), "image/png", ImageLimits(max_side=16, max_bytes=10_000))
    assert scaled is not None
    with Image.open(io.BytesIO(scaled[0])) as image:
        assert max(image.size) <= 16
