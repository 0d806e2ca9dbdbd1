"""Error cards (message laid out, detail folded) and image cards (the image, then its envelope)."""

from __future__ import annotations

import base64
from pathlib import Path

from render_pages import elements, with_class
from render_samples import image_result, png_bytes

from edittools import Session
from edittools.artifacts import Attachment
from edittools.render import render_report
from edittools.render._page import CSP


def test_an_edit_miss_shows_its_closest_lines_as_code_and_the_hint_as_text(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f():\n    return 1\n\ndef g():\n    return 2\n")
    with Session(tmp_path) as session:
        session.read("a.py")
        result = session.edit("a.py", "def g():\n    return 3\n", "x")
    page = render_report([result], title="t")
    assert len(with_class(page, "card", "error")) == 1
    assert with_class(page, "message")[0].text.startswith("old_string was not found")
    closest, difference = with_class(page, "error-code")  # the numbered lines, the difference
    assert closest.text == "     4\tdef g():\n     5\t    return 2\n"
    assert difference.text == " def g():\n-    return 3\n+    return 2\n"
    assert [e.text for e in with_class(page, "del") if e.tag == "span"] == ["-    return 3\n"]
    assert [e.text for e in with_class(page, "add") if e.tag == "span"] == ["+    return 2\n"]
    [hint] = with_class(page, "hint")
    assert hint.text.startswith("Hint: 1 of 2 lines differ")
    [details] = [e for e in elements(page) if e.tag == "details"]
    assert "open" not in details.attrs and '"similarity"' in details.text
    assert "summary" in {e.tag for e in elements(page)}


def test_an_error_without_detail_has_nothing_to_unfold() -> None:
    from render_samples import error_result

    page = render_report([error_result("no_match", "Nothing matched.")], title="t")
    assert "<details" not in page and with_class(page, "message")[0].text == "Nothing matched."


def test_an_attached_image_is_shown_by_its_id_through_the_loader() -> None:
    png = png_bytes()
    asked: list[str] = []

    def load(blob_id: str) -> bytes | None:
        asked.append(blob_id)
        return png if blob_id == "opaque:id/42" else None

    attachment = Attachment(id="opaque:id/42", bytes=len(png), width=2, height=1)
    page = render_report([image_result(attachment=attachment)], title="t", load_image=load)
    assert asked == ["opaque:id/42"]
    assert len(with_class(page, "card", "image")) == 1
    assert next(e for e in elements(page) if e.tag == "h2").text == "img/logo.png"
    [img] = [e for e in elements(page) if e.tag == "img"]
    assert img.attrs["src"] == "data:image/png;base64," + base64.b64encode(png).decode()
    # The text envelope stays under the image.
    assert page.index("<img") < page.index("image/png 2x1")
    assert "img-src data:;" in CSP and "img-src data:;" in page


def test_no_empty_box_when_the_image_cannot_be_loaded() -> None:
    attachment = Attachment(id="gone", bytes=10, width=1, height=1)
    for load in (None, lambda _id: None, lambda _id: b"GIF89a not a png", _raise):
        page = render_report([image_result(attachment=attachment)], title="t", load_image=load)
        assert "<img" not in page and "<figure" not in page
        assert "image/png 1x1 10 bytes" in page


def _raise(_id: str) -> bytes:
    raise OSError("blob store unreadable")


def test_inline_base64_images_are_shown_and_bad_base64_is_not() -> None:
    png = png_bytes()
    page = render_report([image_result(b64=base64.b64encode(png).decode())], title="t")
    assert len([e for e in elements(page) if e.tag == "img"]) == 1
    page = render_report([image_result(b64='"><script>x</script>')], title="t")
    assert "<img" not in page and "<script>x" not in page
