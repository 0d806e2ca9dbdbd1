"""Images the model can see: a read image's bytes, scaled down to what a model takes.

Models take images up to a size (about 1568 pixels on the long side and 5 MB is the common
bound); a larger one is scaled down with its aspect kept, and re-encoded only when it must be.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

MAX_SIDE = 1568
"""Default longest side, in pixels, of an image sent to the model."""
MAX_BYTES = 5 * 1024 * 1024
"""Default largest image, in bytes, sent to the model."""


@dataclass(frozen=True)
class ImageLimits:
    """How large an image the model is sent: longest side in pixels, and bytes."""

    max_side: int = MAX_SIDE
    max_bytes: int = MAX_BYTES


def for_model(data: bytes, mime: str, limits: ImageLimits) -> tuple[bytes, str] | None:
    """`data` (or a scaled-down copy) within `limits`, with its MIME type; None if it cannot fit.

    An image within both limits goes as it is. A larger one is scaled down, aspect kept, and
    encoded as PNG (JPEG for photos without transparency, and when PNG stays over the bytes).
    """
    from PIL import Image  # a second of import for the first image only, not for every start

    # Pillow reports damaged data as any of these, from open and from the decoding at load; the
    # last four are the ones Image.open itself takes as "not this format".
    damaged = (OSError, ValueError, EOFError, Image.DecompressionBombError,
                SyntaxError, IndexError, TypeError, struct.error)  # fmt: skip

    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            if max(width, height) <= limits.max_side and len(data) <= limits.max_bytes:
                return data, mime
            image.load()
            frame = image if image.mode in ("RGB", "RGBA", "L") else image.convert("RGBA")
            side = limits.max_side
            while side >= 16:
                scale = min(1.0, side / max(width, height))
                size = (max(1, round(width * scale)), max(1, round(height * scale)))
                scaled = frame.resize(size, Image.Resampling.LANCZOS) if scale < 1 else frame
                for encoded in _encodings(scaled, photo=mime == "image/jpeg"):
                    if len(encoded[0]) <= limits.max_bytes:
                        return encoded
                side //= 2
    except damaged:
        return None
    return None


def _encodings(image: Image.Image, *, photo: bool) -> Iterator[tuple[bytes, str]]:
    """The image encoded, smallest-likely first for its kind; each encoding made only if asked."""
    for fmt in ("JPEG", "PNG") if photo else ("PNG", "JPEG"):
        buffer = io.BytesIO()
        if fmt == "JPEG":
            image.convert("RGB").save(buffer, format=fmt, quality=85)
        else:
            image.save(buffer, format=fmt)
        yield buffer.getvalue(), f"image/{fmt.lower()}"


DEFAULT_IMAGE_LIMITS = ImageLimits()
"""The limits a server uses unless told otherwise."""
