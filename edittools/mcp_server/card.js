
// The change card: an MCP Apps view. It greets the host (ui/initialize, then
// ui/notifications/initialized), takes the call's arguments and result from
// ui/notifications/tool-input and ui/notifications/tool-result, and draws the result's artifact
// (from the result's structuredContent, or from _meta["edittools/result"] where the server keeps
// it out of structuredContent).
// On a net review it asks the host to call `reject` (tools/call) for a hunk.
//
// Everything a result holds is untrusted: it reaches the page only through text nodes
// (`createTextNode`, `textContent`), with control and bidirectional-override characters shown
// as visible marks, long lines cut, and the number of rows bounded. Attribute values are fixed
// strings or numbers the card computes; the one exception, an image's data: URI, is built from
// a media type of a fixed list and base64 text checked to be only base64.
(function () {
  "use strict";

  const PROTOCOL_VERSION = "2026-01-26";
  const SCHEMA = "edittools.tool-artifact";
  const BLOB_PREFIX = "edittools://blob/";
  const RESULT_META = "edittools/result";
  const MAX_LINE = 10000; // characters of one line shown; the rest is cut with a note
  const MAX_ROWS = 5000; // rows of hunks shown in one result
  const MAX_TEXT = 200000; // characters of a plain text shown
  const MAX_MARKS = 500; // word highlights drawn on one line
  const MAX_IMAGE_B64 = 11200000; // about 8 MB of image bytes
  const IMAGE_SIGNATURES = {
    "image/png": ["\x89PNG\r\n\x1a\n"],
    "image/jpeg": ["\xff\xd8\xff"],
    "image/gif": ["GIF87a", "GIF89a"],
    "image/webp": ["RIFF"],
  };
  // Controls (but tab), DEL, C1 controls, bidirectional controls, line and paragraph separators,
  // and lone surrogates (in a /u class, a paired surrogate is one code point, never matched).
  const UNSAFE =
    /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]/u;
  const UNSAFE_ALL = new RegExp(UNSAFE.source, "gu");

  const root = document.getElementById("card");
  const host = window.parent;
  const pending = new Map();
  const state = {
    toolName: null,
    arguments: null,
    hostCapabilities: null,
    rows: 0,
    busy: false,
  };
  let nextId = 1;

  // --- the conversation with the host -------------------------------------------------------

  function send(message) {
    host.postMessage(message, "*");
  }

  function request(method, params, done) {
    const id = nextId++;
    pending.set(id, done);
    send({ jsonrpc: "2.0", id: id, method: method, params: params });
  }

  function notify(method, params) {
    send({ jsonrpc: "2.0", method: method, params: params });
  }

  function isObject(value) {
    return value !== null && typeof value === "object" && !Array.isArray(value);
  }

  window.addEventListener("message", function (event) {
    if (event.source !== host) {
      return; // only the host speaks to the card
    }
    const message = event.data;
    if (!isObject(message) || message.jsonrpc !== "2.0") {
      return;
    }
    if (typeof message.method === "string") {
      const params = isObject(message.params) ? message.params : {};
      if (message.id === undefined || message.id === null) {
        onNotification(message.method, params);
      } else {
        onRequest(message.id, message.method);
      }
    } else if (pending.has(message.id)) {
      const done = pending.get(message.id);
      pending.delete(message.id);
      done(message);
    }
  });

  function onRequest(id, method) {
    if (method === "ui/resource-teardown" || method === "ping") {
      send({ jsonrpc: "2.0", id: id, result: {} });
    } else {
      send({ jsonrpc: "2.0", id: id, error: { code: -32601, message: "Method not found" } });
    }
  }

  function onNotification(method, params) {
    if (method === "ui/notifications/tool-input") {
      state.arguments = isObject(params.arguments) ? params.arguments : null;
    } else if (method === "ui/notifications/tool-result") {
      show(params);
    } else if (method === "ui/notifications/tool-cancelled") {
      clear();
      root.appendChild(note("The call was cancelled."));
      document.body.setAttribute("data-state", "cancelled");
    } else if (method === "ui/notifications/host-context-changed") {
      useContext(params);
    }
  }

  function useContext(context) {
    if (!isObject(context)) {
      return;
    }
    if (context.theme === "light" || context.theme === "dark") {
      document.documentElement.setAttribute("data-theme", context.theme);
    }
    const info = context.toolInfo;
    if (isObject(info) && isObject(info.tool) && typeof info.tool.name === "string") {
      state.toolName = info.tool.name;
    }
  }

  function greet() {
    const params = {
      appInfo: { name: "edittools-change-card", version: "1" },
      appCapabilities: { availableDisplayModes: ["inline"] },
      protocolVersion: PROTOCOL_VERSION,
    };
    request("ui/initialize", params, function (answer) {
      if (isObject(answer.result)) {
        const result = answer.result;
        state.hostCapabilities = isObject(result.hostCapabilities) ? result.hostCapabilities : {};
        useContext(result.hostContext);
      }
      notify("ui/notifications/initialized", {});
      followSize();
    });
  }

  function followSize() {
    let sent = -1;
    let queued = false;
    function report() {
      queued = false;
      const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height !== sent) {
        sent = height;
        notify("ui/notifications/size-changed", { height: height });
      }
    }
    const observer = new ResizeObserver(function () {
      if (!queued) {
        queued = true;
        requestAnimationFrame(report);
      }
    });
    observer.observe(document.documentElement);
  }

  // --- text made safe to show ---------------------------------------------------------------

  function mark(char) {
    const code = char.codePointAt(0);
    if (code < 0x20) {
      return String.fromCharCode(0x2400 + code); // the control picture: ␛ for ESC
    }
    if (code === 0x7f) {
      return "\u2421";
    }
    if (code <= 0x9f) {
      return "\\x" + code.toString(16).padStart(2, "0");
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      return "\ufffd";
    }
    return "U+" + code.toString(16).toUpperCase().padStart(4, "0");
  }

  // Appends `text` to `parent` as text nodes, each unsafe character as a visible mark.
  function appendVisible(parent, text) {
    if (!UNSAFE.test(text)) {
      parent.appendChild(document.createTextNode(text));
      return;
    }
    let at = 0;
    UNSAFE_ALL.lastIndex = 0;
    for (let found = UNSAFE_ALL.exec(text); found; found = UNSAFE_ALL.exec(text)) {
      if (found.index > at) {
        parent.appendChild(document.createTextNode(text.slice(at, found.index)));
      }
      const char = found[0];
      if (char === "\n") {
        parent.appendChild(document.createTextNode(char));
      } else {
        const span = document.createElement("span");
        span.className = "ctl";
        span.textContent = mark(char);
        parent.appendChild(span);
      }
      at = found.index + char.length;
    }
    if (at < text.length) {
      parent.appendChild(document.createTextNode(text.slice(at)));
    }
  }

  // Where to cut `text` to about `limit` UTF-16 units without splitting a surrogate pair.
  function cutAt(text, limit) {
    if (text.length <= limit) {
      return text.length;
    }
    const code = text.charCodeAt(limit - 1);
    return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
  }

  function cutNote(count, noun) {
    const span = document.createElement("span");
    span.className = "cut";
    span.textContent = " … " + count.toLocaleString("en") + " more " + noun + " not shown";
    return span;
  }

  // Ranges of code points (the artifact's counting) as ranges of UTF-16 units, within `limit`.
  function unitRanges(text, marks, limit) {
    const out = [];
    let unit = 0;
    let point = 0;
    function advance(target) {
      while (point < target && unit < text.length) {
        const code = text.charCodeAt(unit);
        const pair =
          code >= 0xd800 && code <= 0xdbff && unit + 1 < text.length &&
          (text.charCodeAt(unit + 1) & 0xfc00) === 0xdc00;
        unit += pair ? 2 : 1;
        point += 1;
      }
      return unit;
    }
    let end = 0;
    for (const [first, last] of marks) {
      const from = Math.max(first, end);
      if (from >= last) {
        continue;
      }
      end = last;
      const start = Math.min(advance(from), limit);
      const stop = Math.min(advance(last), limit);
      if (start < stop) {
        out.push([start, stop]);
      }
      if (stop >= limit || out.length >= MAX_MARKS) {
        break;
      }
    }
    return out;
  }

  // A line of file text: cut when long, its marked ranges in <mark>, the rest as text.
  function appendLine(parent, text, marks) {
    const shown = cutAt(text, MAX_LINE);
    let at = 0;
    for (const [start, stop] of unitRanges(text, marks, shown)) {
      if (start > at) {
        appendVisible(parent, text.slice(at, start));
      }
      const highlight = document.createElement("mark");
      appendVisible(highlight, text.slice(start, stop));
      parent.appendChild(highlight);
      at = stop;
    }
    if (at < shown) {
      appendVisible(parent, text.slice(at, shown));
    }
    if (shown < text.length) {
      parent.appendChild(cutNote(text.length - shown, "characters"));
    }
  }

  // --- small pieces -------------------------------------------------------------------------

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (text !== undefined) {
      appendVisible(node, text);
    }
    return node;
  }

  function note(text) {
    return element("p", "note", text);
  }

  function int(value) {
    return Number.isSafeInteger(value) ? value : null;
  }

  function str(value) {
    return typeof value === "string" ? value : "";
  }

  function pre(text) {
    const node = element("pre", "text");
    const shown = cutAt(text, MAX_TEXT);
    appendVisible(node, text.slice(0, shown));
    if (shown < text.length) {
      node.appendChild(cutNote(text.length - shown, "characters"));
    }
    return node;
  }

  function head(card, title) {
    const top = element("div", "card-head");
    top.appendChild(element("h2", "path", title));
    card.appendChild(top);
    return top;
  }

  function counts(parent, stats) {
    const added = isObject(stats) ? int(stats.added) : null;
    const removed = isObject(stats) ? int(stats.removed) : null;
    parent.appendChild(element("span", "count-add", "+" + (added === null ? 0 : added)));
    parent.appendChild(document.createTextNode(" "));
    parent.appendChild(element("span", "count-del", "-" + (removed === null ? 0 : removed)));
  }

  function clear() {
    root.textContent = "";
    state.rows = 0;
    state.busy = false;
  }

  // --- results ------------------------------------------------------------------------------

  // The result object a call answered with: `structuredContent`, or the object this project's
  // answers keep under `_meta["edittools/result"]` (all but the value, which is the text).
  function resultOf(answer) {
    if (isObject(answer.structuredContent)) {
      return answer.structuredContent;
    }
    const meta = answer._meta;
    return isObject(meta) && isObject(meta[RESULT_META]) ? meta[RESULT_META] : {};
  }

  function valueOf(result) {
    const structured = resultOf(result);
    if (typeof structured.value === "string") {
      return structured.value;
    }
    const blocks = Array.isArray(result.content) ? result.content : [];
    return blocks
      .filter((block) => isObject(block) && block.type === "text" && typeof block.text === "string")
      .map((block) => block.text)
      .join("\n");
  }

  function show(result) {
    clear();
    const value = valueOf(result);
    const structured = resultOf(result);
    const failed = result.isError === true || structured.is_error === true;
    const artifact = structured.artifact;
    let kind = "text";
    try {
      kind = draw(artifact, value, failed);
    } catch (error) {
      clear();
      root.appendChild(textCard(value, failed, "This result could not be drawn; its text follows."));
    }
    document.body.setAttribute("data-kind", kind);
    document.body.setAttribute("data-state", "shown");
  }

  function draw(artifact, value, failed) {
    const usable =
      isObject(artifact) && artifact.schema === SCHEMA && isObject(artifact.payload);
    if (!usable || failed || artifact.version !== 1) {
      let why = "";
      if (usable && artifact.version !== 1 && !failed) {
        why = "This artifact's version is not shown; its text follows.";
      }
      root.appendChild(textCard(value, failed || (usable && artifact.kind === "error"), why));
      return failed ? "error" : "text";
    }
    const payload = artifact.payload;
    if (artifact.kind === "diff") {
      root.appendChild(diffCard(payload, null));
      return "diff";
    }
    if (artifact.kind === "changeset") {
      root.appendChild(changeset(payload, value));
      return "changeset";
    }
    if (artifact.kind === "image") {
      root.appendChild(imageCard(payload, str(artifact.title)));
      return "image";
    }
    root.appendChild(textCard(value, artifact.kind === "error", ""));
    return artifact.kind === "error" ? "error" : "text";
  }

  function textCard(value, failed, why) {
    const card = element("article", failed ? "card text error" : "card text");
    head(card, failed ? "error" : "result");
    if (why) {
      card.appendChild(note(why));
    }
    card.appendChild(pre(value));
    return card;
  }

  function changeset(payload, value) {
    const files = Array.isArray(payload.files) ? payload.files.filter(isObject) : [];
    const review = reviewOf(value);
    const section = element("section", "changeset");
    const title = element("h2", "", "changeset: " + files.length + (files.length === 1 ? " file " : " files "));
    counts(title, payload.stats);
    section.appendChild(title);
    if (review) {
      section.setAttribute("data-review", "net");
      const lead = value.split("\n")[0];
      if (lead) {
        section.appendChild(note(lead));
      }
    }
    if (!files.length) {
      section.appendChild(note("No changes."));
    }
    for (const file of files) {
      section.appendChild(diffCard(file, review));
    }
    return section;
  }

  // A net review: the result of `changes` (by the tool the host says was called, or, when it
  // does not say, by the sentence `changes` opens with).
  function reviewOf(value) {
    if (state.toolName !== null) {
      return state.toolName === "changes" ? reviewState() : null;
    }
    return /^(Net changes|No changes)\b/.test(value) ? reviewState() : null;
  }

  function reviewState() {
    const args = isObject(state.arguments) ? state.arguments : {};
    const extra = {};
    if (int(args.since) !== null) {
      extra.since = args.since;
    }
    if (typeof args.by === "string") {
      extra.by = args.by;
    }
    // Without the accepted hunks, the indices shown are not the net diff's: name hunks whole.
    return { extra: extra, byIndex: args.include_accepted !== false };
  }

  function labels(payload) {
    const out = [];
    if (payload.granularity === "snippet") {
      out.push("snippet");
    }
    if (payload.operation === "rename") {
      const alike = int(payload.similarity) === null ? "" : " (" + payload.similarity + "% alike)";
      out.push("rename " + (str(payload.old_path) || "?") + " -> " + str(payload.path) + alike);
    } else if (payload.operation === "create") {
      out.push("new file");
    } else if (payload.operation === "delete") {
      out.push("deleted");
    }
    if (payload.binary === true) {
      out.push("binary");
    }
    if (typeof payload.match === "string" && payload.match && payload.match !== "exact") {
      out.push("match: " + payload.match);
    }
    if (payload.minimal === false) {
      out.push("non-minimal");
    }
    if (payload.external === true) {
      out.push("changed outside the tools");
    }
    return out;
  }

  function diffCard(payload, review) {
    const card = element("article", "card diff");
    const path = str(payload.path);
    const top = head(card, path || "(no path)");
    if (payload.binary !== true) {
      counts(top, payload.stats);
    }
    for (const label of labels(payload)) {
      top.appendChild(element("span", label === "snippet" ? "badge" : "badge warn", label));
    }
    const diagnostics = Array.isArray(payload.diagnostics) ? payload.diagnostics : [];
    for (const diagnostic of diagnostics.filter(isObject).slice(0, 50)) {
      const where = int(diagnostic.line) === null ? "" : ", line " + diagnostic.line;
      const text = str(diagnostic.source) + " " + str(diagnostic.severity) + where + ": " +
        str(diagnostic.message);
      card.appendChild(element("p", diagnostic.severity === "error" ? "diag-error" : "diag-note", text));
    }
    const hunks = Array.isArray(payload.hunks) ? payload.hunks.filter(isObject) : [];
    if (payload.binary === true) {
      card.appendChild(note("Binary file; no line diff."));
    } else if (!hunks.length && str(payload.unified)) {
      card.appendChild(pre(payload.unified));
    } else if (!hunks.length) {
      card.appendChild(note("No line changes."));
    } else {
      hunkTable(card, path, hunks, review);
    }
    return card;
  }

  function header(hunk) {
    const oldStart = int(hunk.old_start);
    const newStart = int(hunk.new_start);
    if (oldStart === null || newStart === null) {
      return "@@ @@";
    }
    const range = (start, count) =>
      count === 1 ? String(start) : start + "," + (count === null ? "?" : count);
    let text = "@@ -" + range(oldStart, int(hunk.old_lines)) + " +" +
      range(newStart, int(hunk.new_lines)) + " @@";
    const heading = str(hunk.heading);
    if (heading && heading.indexOf("\n") < 0) {
      text += " " + heading;
    }
    return text;
  }

  // Word highlights by line index: the hunk's spans on its removed and added lines.
  function marksOf(hunk, lines) {
    const marks = new Map();
    const spans = Array.isArray(hunk.spans) ? hunk.spans : [];
    for (const span of spans) {
      if (!isObject(span)) {
        continue;
      }
      const line = int(span.line);
      const start = int(span.start);
      const end = int(span.end);
      if (line === null || start === null || end === null || start >= end || line < 0 ||
          line >= lines.length || (lines[line][0] !== "-" && lines[line][0] !== "+")) {
        continue;
      }
      if (!marks.has(line)) {
        marks.set(line, []);
      }
      marks.get(line).push([start, end]);
    }
    for (const list of marks.values()) {
      list.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    }
    return marks;
  }

  function numberCell(row, number) {
    row.appendChild(element("td", "num", number === null ? "" : String(number)));
  }

  const ROLES = { " ": ["ctx", " "], "-": ["del", "-"], "+": ["add", "+"] };

  function hunkTable(card, path, hunks, review) {
    const table = element("table", "lines");
    card.appendChild(table);
    const file = { path: path, rejected: [] };
    const total = hunks.reduce((sum, hunk) => sum + (Array.isArray(hunk.lines) ? hunk.lines.length : 0), 0);
    let shown = 0;
    hunks.forEach(function (hunk, index) {
      if (state.rows >= MAX_ROWS) {
        return;
      }
      const lines = Array.isArray(hunk.lines) ? hunk.lines.map(str) : [];
      const body = element("tbody", "hunk-body");
      body.setAttribute("data-hunk", String(index));
      table.appendChild(body);
      const top = element("tr", "hunk");
      const cell = element("td");
      cell.colSpan = 3;
      cell.appendChild(element("span", "header", header(hunk)));
      if (review) {
        cell.appendChild(actions(body, file, hunk, index, review));
      }
      top.appendChild(cell);
      body.appendChild(top);
      const numbered = int(hunk.old_start) !== null && int(hunk.new_start) !== null;
      let oldNo = (int(hunk.old_start) || 0) + (hunk.old_lines === 0 ? 1 : 0);
      let newNo = (int(hunk.new_start) || 0) + (hunk.new_lines === 0 ? 1 : 0);
      const marks = marksOf(hunk, lines);
      for (let i = 0; i < lines.length && state.rows < MAX_ROWS; i++) {
        const line = lines[i];
        const row = element("tr");
        if (line[0] === "\\") {
          row.className = "note";
          numberCell(row, null);
          numberCell(row, null);
          row.appendChild(element("td", "code", line));
        } else {
          const [name, marker] = ROLES[line[0]] || ROLES[" "];
          const text = ROLES[line[0]] ? line.slice(1) : line;
          const oldSide = name !== "add";
          const newSide = name !== "del";
          row.className = name;
          numberCell(row, numbered && oldSide ? oldNo : null);
          numberCell(row, numbered && newSide ? newNo : null);
          const code = element("td", "code");
          code.appendChild(element("span", "marker", marker));
          appendLine(code, text, marks.get(i) || []);
          row.appendChild(code);
          oldNo += oldSide ? 1 : 0;
          newNo += newSide ? 1 : 0;
        }
        body.appendChild(row);
        state.rows += 1;
        shown += 1;
      }
    });
    if (shown < total) {
      const more = total - shown;
      card.appendChild(note(more.toLocaleString("en") + " more lines not shown."));
    }
  }

  // --- review: Accept keeps a hunk here; Reject has the server take it back -----------------

  function canCallTools() {
    return state.hostCapabilities === null || isObject(state.hostCapabilities.serverTools);
  }

  function actions(body, file, hunk, index, review) {
    const box = element("span", "actions");
    const status = element("span", "status");
    status.setAttribute("aria-live", "polite");
    const accept = element("button", "accept", "Accept");
    const reject = element("button", "reject", "Reject");
    accept.type = "button";
    reject.type = "button";
    body.setAttribute("data-review", "pending");
    if (!canCallTools()) {
      reject.disabled = true;
      reject.title = "This host does not pass tool calls on to the server.";
    }
    accept.addEventListener("click", function () {
      body.setAttribute("data-review", "kept");
      status.className = "status";
      status.textContent = "kept";
      accept.disabled = true;
      reject.disabled = true;
    });
    reject.addEventListener("click", function () {
      if (state.busy) {
        return;
      }
      state.busy = true;
      accept.disabled = true;
      reject.disabled = true;
      status.className = "status";
      status.textContent = "rejecting…";
      // Each hunk rejected before this one in the file is gone from the server's net diff.
      const before = file.rejected.filter((other) => other < index).length;
      const args = { path: file.path, hunk: review.byIndex ? index - before : hunkRef(hunk) };
      Object.assign(args, review.extra);
      request("tools/call", { name: "reject", arguments: args }, function (answer) {
        state.busy = false;
        const result = isObject(answer.result) ? answer.result : null;
        if (result && result.isError !== true) {
          file.rejected.push(index);
          body.setAttribute("data-review", "rejected");
          status.textContent = "rejected";
          return;
        }
        let why = "the host refused the call";
        if (result) {
          why = valueOf(result).split("\n")[0];
        } else if (isObject(answer.error) && typeof answer.error.message === "string") {
          why = answer.error.message;
        }
        status.className = "status failed";
        status.textContent = "";
        appendVisible(status, "not rejected: " + why.slice(0, 300));
        accept.disabled = false;
        reject.disabled = !canCallTools();
      });
    });
    box.appendChild(status);
    box.appendChild(accept);
    box.appendChild(reject);
    return box;
  }

  function hunkRef(hunk) {
    return {
      old_start: hunk.old_start,
      old_lines: hunk.old_lines,
      new_start: hunk.new_start,
      new_lines: hunk.new_lines,
      lines: hunk.lines,
    };
  }

  // --- images -------------------------------------------------------------------------------

  function imageCard(payload, title) {
    const card = element("article", "card image");
    head(card, str(payload.path) || title || "image");
    const images = Array.isArray(payload.images) ? payload.images.filter(isObject) : [];
    const list = element("ul", "images");
    for (const image of images.slice(0, 20)) {
      const attachment = isObject(image.attachment) ? image.attachment : null;
      let text = str(image.mime) || "image";
      if (attachment) {
        const width = int(attachment.width);
        const height = int(attachment.height);
        if (width !== null && height !== null) {
          text += " " + width + "x" + height;
        }
        if (int(attachment.bytes) !== null) {
          text += " " + attachment.bytes + " bytes";
        }
        text += ", attachment " + str(attachment.id);
      } else if (typeof image.b64 === "string") {
        text += " " + Math.floor((image.b64.length * 3) / 4) + " bytes inline";
      }
      list.appendChild(element("li", "", text));
      const figure = element("figure", "image");
      card.appendChild(figure);
      if (typeof image.b64 === "string") {
        picture(figure, str(image.mime), image.b64);
      } else if (attachment && typeof attachment.id === "string") {
        fetchBlob(figure, str(image.mime), attachment.id);
      }
    }
    card.appendChild(list);
    return card;
  }

  // Shows base64 image bytes when their media type is one of ours and the bytes start as it says.
  function picture(figure, mime, b64) {
    const signatures = Object.prototype.hasOwnProperty.call(IMAGE_SIGNATURES, mime)
      ? IMAGE_SIGNATURES[mime]
      : null;
    if (!signatures || b64.length > MAX_IMAGE_B64 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) {
      return;
    }
    let start = "";
    try {
      start = atob(b64.slice(0, 24));
    } catch (error) {
      return;
    }
    if (!signatures.some((signature) => start.startsWith(signature))) {
      return;
    }
    if (mime === "image/webp" && start.slice(8, 12) !== "WEBP") {
      return;
    }
    const type = Object.keys(IMAGE_SIGNATURES).find((known) => known === mime);
    const img = document.createElement("img");
    img.alt = "image";
    img.src = "data:" + type + ";base64," + b64;
    figure.appendChild(img);
  }

  // An attached image's bytes, read through the host from the server's blob resource.
  function fetchBlob(figure, mime, id) {
    const capabilities = state.hostCapabilities;
    if (!isObject(capabilities) || !isObject(capabilities.serverResources) ||
        !/^[A-Za-z0-9_.:-]{1,200}$/.test(id)) {
      return;
    }
    request("resources/read", { uri: BLOB_PREFIX + id }, function (answer) {
      const result = isObject(answer.result) ? answer.result : {};
      const contents = Array.isArray(result.contents) ? result.contents : [];
      const first = contents.find((item) => isObject(item) && typeof item.blob === "string");
      if (first) {
        picture(figure, typeof first.mimeType === "string" ? first.mimeType : mime, first.blob);
      }
    });
  }

  greet();
})();
