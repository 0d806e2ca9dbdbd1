"""The change card: an MCP Apps view (`ui://edittools/change`) that shows a tool's result.

A host that speaks MCP Apps renders this one HTML document in a sandboxed frame and hands it the
call's arguments and result over `postMessage`. The card draws the result's artifact as the HTML
report does (a diff with its path, `+N -M`, numbered hunks and word highlights; each file of a
changeset; an image card; any other result's text), and on a net review (`changes`) offers
Accept and Reject per hunk: Reject asks the host to call `reject` on the server.

The document is self-contained: its style sheet and script (`card.css`, `card.js`, kept beside
this module as package data) are inlined, and its Content-Security-Policy admits exactly those
two by their sha256 hashes, images only as ``data:`` URIs, and nothing from the network. Every
piece of result text reaches the page as text nodes, never as markup.
"""

from __future__ import annotations

import base64
import functools
import hashlib
from importlib import resources
from typing import Any

import mcp_types as types
from mcp.server.apps import client_supports_apps

from edittools.mcp_server._tool import SurfaceTool

CARD_URI = "ui://edittools/change"
"""The resource URI of the change card."""

CARD_MIME_TYPE = "text/html;profile=mcp-app"
"""The media type hosts render an MCP Apps resource under."""

CARD_TITLE = "edittools change"
"""The document title of the card (the host may show it; results never change it)."""


def _asset(name: str) -> str:
    return resources.files("edittools.mcp_server").joinpath(name).read_text(encoding="utf-8")


def _sha256(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def card_policy(style: str, script: str) -> str:
    """The card's Content-Security-Policy: nothing but the given inline style sheet and script
    (by hash), images as ``data:`` URIs, and no connections, frames, forms or base URI."""
    return (
        "default-src 'none'; "
        f"style-src {_sha256(style)}; "
        f"script-src {_sha256(script)}; "
        "img-src data:; font-src 'none'; connect-src 'none'; media-src 'none'; "
        "object-src 'none'; frame-src 'none'; worker-src 'none'; manifest-src 'none'; "
        "base-uri 'none'; form-action 'none'"
    )


@functools.cache
def card_html() -> str:
    """The card's whole HTML document: inline style and script, a strict CSP, no external loads.

    The same text on every call (built once from the package's `card.css` and `card.js`).
    """
    style = _asset("card.css")
    script = _asset("card.js")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{card_policy(style, script)}">\n'
        '<meta name="referrer" content="no-referrer">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{CARD_TITLE}</title>\n"
        f"<style>{style}</style>\n"
        '</head>\n<body data-state="waiting">\n'
        '<main id="card"><p class="note">Waiting for the result…</p></main>\n'
        f"<script>{script}</script>\n"
        "</body>\n</html>\n"
    )


def card_resource_meta() -> dict[str, Any]:
    """What goes under the card resource's `_meta["ui"]`: a CSP with no domains (the card
    connects to nothing and loads nothing) and a preference for a border drawn by the host."""
    return {
        "csp": {"connectDomains": [], "resourceDomains": [], "frameDomains": []},
        "prefersBorder": True,
    }


APPS_EXTENSION = "io.modelcontextprotocol/ui"
"""The MCP Apps extension's id, under which clients declare they show `ui://` resources."""

CARD_RESOURCE = types.Resource(
    name="change",
    title=CARD_TITLE,
    uri=CARD_URI,
    description="Shows a change's diff (and, for net changes, a per-hunk review) in the chat.",
    mime_type=CARD_MIME_TYPE,
)


def card_contents() -> types.TextResourceContents:
    """What `resources/read` of `CARD_URI` answers: the document, with its `_meta["ui"]`."""
    return types.TextResourceContents.model_validate(
        {
            "uri": CARD_URI,
            "mimeType": CARD_MIME_TYPE,
            "text": card_html(),
            "_meta": {"ui": card_resource_meta()},
        }
    )


def shows_cards(ctx: Any) -> bool:
    """Whether the client of a request declared MCP Apps support for HTML resources."""
    try:
        return client_supports_apps(ctx)
    except AttributeError:  # no session or no capabilities: a client of another kind
        return False


def with_card_meta(definition: types.Tool, tool: SurfaceTool) -> types.Tool:
    """`definition` pointing at the card when its tool changes files (or is `changes`); `reject`
    is for the card alone (`visibility: app`), kept from the model."""
    if tool.name == "reject":
        ui: dict[str, Any] = {"resourceUri": CARD_URI, "visibility": ["app"]}
    elif not tool.read_only or tool.name == "changes":
        ui = {"resourceUri": CARD_URI}
    else:
        return definition
    return definition.model_copy(update={"meta": {**(definition.meta or {}), "ui": ui}})
