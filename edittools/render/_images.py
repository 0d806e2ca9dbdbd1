"""Image cards of the HTML report: the image itself, inlined, above its text envelope.

The bytes come from the payload's inline base64 or, for an attachment, from a loader the caller
passes (the attachment id is opaque: handed to the loader as is, never parsed). Only raster
types whose bytes start as their type says are shown, as ``data:`` URIs, the one kind of image
the page's Content-Security-Policy admits. When nothing can be shown (no loader, a missing
blob, bytes of another type) the card holds the envelope alone, never an empty box.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable

from edittools.artifacts import Image, ImagePayload

ImageLoader = Callable[[str], "bytes | None"]
"""Returns the bytes of an attachment by its id, or None when they cannot be had."""

MAX_INLINE_BYTES = 8 << 20
"""Larger images are left out of the page (its envelope still says what they are)."""

_SIGNATURES = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/gif": (b"GIF87a", b"GIF89a"),
    "image/webp": (b"RIFF",),
}


def image_bytes(image: Image, load: ImageLoader | None) -> bytes | None:
    """The image's bytes when they can be shown safely, else None."""
    if image.mime not in _SIGNATURES:
        return None
    data: bytes | None = None
    if image.b64 is not None:
        try:
            data = base64.b64decode(image.b64, validate=True)
        except (binascii.Error, ValueError):
            return None
    elif image.attachment is not None and load is not None:
        try:
            data = load(image.attachment.id)
        except Exception:  # a loader's failure is a missing image, never a failed report
            return None
    if not data or len(data) > MAX_INLINE_BYTES or not data.startswith(_SIGNATURES[image.mime]):
        return None
    if image.mime == "image/webp" and data[8:12] != b"WEBP":
        return None
    return data


def figures(payload: ImagePayload, load: ImageLoader | None) -> str:
    """One ``<figure>`` per image that can be shown; ``""`` when none can."""
    out = []
    for image in payload.images:
        data = image_bytes(image, load)
        if data is not None:
            # The type is one of the fixed keys above; the data is base64 of checked bytes.
            uri = f"data:{image.mime};base64,{base64.b64encode(data).decode('ascii')}"
            out.append(f'<figure class="image"><img src="{uri}" alt="image"></figure>')
    return "".join(out)
