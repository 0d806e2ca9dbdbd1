"""A small HTML reader for the report tests: every element with its attributes, and the text."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"meta", "br", "img", "input", "link", "hr", "source", "wbr", "col", "area", "base"}


@dataclass
class Element:
    """One element: tag name, attributes, and its text content."""

    tag: str
    attrs: dict[str, str]
    text: str = ""
    classes: set[str] = field(default_factory=set)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.open: list[Element] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        element = Element(tag, values, classes=set(values.get("class", "").split()))
        self.elements.append(element)
        if tag not in VOID:
            self.open.append(element)

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index].tag == tag:
                del self.open[index:]
                return

    def handle_data(self, data: str) -> None:
        for element in self.open:
            element.text += data


def elements(page: str) -> list[Element]:
    """Return every element of `page` in document order."""
    reader = _Reader()
    reader.feed(page)
    reader.close()
    return reader.elements


def with_class(page: str, *classes: str) -> list[Element]:
    """Return the elements that carry all of `classes`."""
    wanted = set(classes)
    return [e for e in elements(page) if wanted <= e.classes]
