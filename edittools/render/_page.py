"""The fixed parts of the HTML report: style sheet, script and the page shell with its CSP.

The Content-Security-Policy allows nothing remote and admits exactly this style sheet and this
script by their sha256 hashes, and images only as ``data:`` URIs (image cards inline theirs),
so markup smuggled into the page could neither run a script nor load anything. Everything here is constant; no input reaches these strings except through
`page`, which receives already-escaped HTML.
"""

from __future__ import annotations

import base64
import hashlib

STYLE = """
:root { color-scheme: light dark; --bg: #fff; --fg: #1f2328; --muted: #656d76; --line: #d0d7de;
  --card: #f6f8fa; --add: #e6ffec; --add-strong: #1a7f37; --del: #ffebe9; --del-strong: #cf222e;
  --hunk: #ddf4ff; --add-word: #abf2bc; --del-word: #ffcecb;
  --err: #cf222e; --tk: #cf222e; --ts: #0a3069; --tc: #6e7781; --tn: #0550ae;
  --tf: #8250df; --tb: #953800; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0; --line: #30363d; --card: #161b22;
    --add: #12261e; --add-strong: #3fb950; --del: #25171c; --del-strong: #f85149; --hunk: #121d2f;
    --add-word: #1f5f38; --del-word: #7a2630;
    --err: #f85149; --tk: #ff7b72; --ts: #a5d6ff; --tc: #8b949e; --tn: #79c0ff; --tf: #d2a8ff;
    --tb: #ffa657; }
}
* { box-sizing: border-box; }
body { margin: 0; padding: 1.5rem; background: var(--bg); color: var(--fg);
  font: 14px/1.45 system-ui, sans-serif; }
h1 { font-size: 1.4rem; margin: 0 0 .4rem; overflow-wrap: anywhere; }
.summary { color: var(--muted); margin: 0 0 .8rem; }
.toc { margin: 0 0 1rem; padding-left: 1.2rem; columns: 2; }
.toc a { color: inherit; overflow-wrap: anywhere; }
.toolbar { display: none; gap: .4rem; margin-bottom: 1rem; }
body[data-view] .toolbar { display: flex; }
.toolbar button { font: inherit; padding: .25rem .7rem; border: 1px solid var(--line);
  border-radius: 6px; background: var(--card); color: var(--fg); cursor: pointer; }
.toolbar button[aria-pressed="true"] { background: var(--fg); color: var(--bg); }
.changeset { border-left: 3px solid var(--line); padding-left: .8rem; margin-bottom: 1.2rem; }
.changeset > h2 { font-size: 1rem; margin: 0 0 .6rem; }
.card { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 1.2rem; overflow: hidden; }
.card-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: .5rem;
  padding: .5rem .8rem; background: var(--card); border-bottom: 1px solid var(--line); }
.card-head h2 { font: 600 14px ui-monospace, monospace; margin: 0; overflow-wrap: anywhere; }
.tool { color: var(--muted); font-size: 12px; }
.count-add { color: var(--add-strong); font-weight: 600; }
.count-del { color: var(--del-strong); font-weight: 600; }
.badge { font-size: 12px; border: 1px solid var(--line); border-radius: 999px; padding: 0 .5rem; }
.badge.granularity-snippet, .badge.warn { border-color: #bf8700; color: #bf8700; }
.card.error { border-color: var(--err); }
.card.error .card-head { color: var(--err); }
.note { color: var(--muted); padding: .5rem .8rem; margin: 0; }
.message { padding: .5rem .8rem; margin: 0; }
figure.image { margin: 0; padding: .6rem .8rem 0; }
figure.image img { max-width: 100%; height: auto; display: block; }
.hint { padding: .3rem .8rem .5rem; margin: 0; font-style: italic; }
pre.error-code { background: var(--card); border-block: 1px solid var(--line); }
pre.error-code .add { background: var(--add); } pre.error-code .del { background: var(--del); }
details.detail { padding: .3rem .8rem .5rem; } details.detail summary { color: var(--muted);
  cursor: pointer; } details.detail pre.text { padding: .4rem 0 0; }
pre.text { margin: 0; padding: .6rem .8rem; overflow-x: auto; white-space: pre-wrap;
  font: 12px/1.5 ui-monospace, monospace; tab-size: 4; overflow-wrap: anywhere; }
table.lines { border-collapse: collapse; width: 100%; font: 12px/1.5 ui-monospace, monospace;
  tab-size: 4; }
table.lines td { padding: 0 .5rem; vertical-align: top; }
td.num { width: 1%; min-width: 3.5em; text-align: right; color: var(--muted); user-select: none;
  white-space: nowrap; }
td.code { white-space: pre-wrap; overflow-wrap: anywhere; }
table.split td.code { width: 49%; }
tr.hunk td { background: var(--hunk); color: var(--muted); }
.diag-error { color: var(--err); font-weight: 600; }
.diag-note { color: var(--muted); }
p.diag-error, p.diag-note { padding: .3rem .8rem; margin: 0; }
.add { background: var(--add); }
.del { background: var(--del); }
mark { color: inherit; border-radius: 2px; }
.add mark { background: var(--add-word); }
.del mark { background: var(--del-word); }
td.empty { background: var(--card); }
.marker { user-select: none; color: var(--muted); }
.split { display: none; }
.pane-title { font-size: 1.1rem; margin: 0 0 .4rem; }
body[data-pane="steps"] section.pane[data-pane="net"],
body[data-pane="net"] section.pane[data-pane="steps"] { display: none; }
body[data-view="split"] .unified { display: none; }
body[data-view="split"] .split { display: table; }
table.grid { border-collapse: collapse; margin: .6rem .8rem; }
table.grid th, table.grid td { border: 1px solid var(--line); padding: .2rem .5rem;
  text-align: left; white-space: pre-wrap; }
.tk { color: var(--tk); } .ts { color: var(--ts); } .tc { color: var(--tc); font-style: italic; }
.tn { color: var(--tn); } .tf { color: var(--tf); } .tb { color: var(--tb); }
.td { color: var(--tf); } .to { color: var(--tk); }
"""

# Reads the initial view from the URL fragment (#split), then follows the toolbar buttons.
SCRIPT = """
(function () {
  var body = document.body;
  function show(view) {
    body.setAttribute("data-view", view);
    document.querySelectorAll("[data-set-view]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-set-view") === view));
    });
  }
  function pane(name) {
    body.setAttribute("data-pane", name);
    document.querySelectorAll("[data-set-pane]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-set-pane") === name));
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-set-view]") : null;
    if (button) { show(button.getAttribute("data-set-view")); }
    var tab = event.target.closest ? event.target.closest("[data-set-pane]") : null;
    if (tab) { pane(tab.getAttribute("data-set-pane")); }
  });
  show(location.hash === "#split" ? "split" : "unified");
  if (document.querySelector("[data-pane]")) { pane(location.hash === "#net" ? "net" : "steps"); }
})();
"""


def _sha256(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


CSP = (
    "default-src 'none'; "
    f"style-src {_sha256(STYLE)}; "
    f"script-src {_sha256(SCRIPT)}; "
    "img-src data:; font-src 'none'; connect-src 'none'; media-src 'none'; object-src 'none'; "
    "frame-src 'none'; worker-src 'none'; manifest-src 'none'; base-uri 'none'; form-action 'none'"
)


def page(*, title_html: str, body_html: str) -> str:
    """Return the whole document around already-escaped title and body HTML."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="referrer" content="no-referrer">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title_html}</title>\n"
        f"<style>{STYLE}</style>\n"
        "</head>\n<body>\n"
        f"{body_html}\n"
        f"<script>{SCRIPT}</script>\n"
        "</body>\n</html>\n"
    )
