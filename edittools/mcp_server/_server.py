"""The MCP server: one session over a root directory, its tools listed and called over stdio or HTTP.

Built on the SDK's low-level server so that each call's answer is ours to shape: the text for the
model, the rest of the ToolResult under `_meta` for a host's UI, and `isError` with the message
intact.
"""

from __future__ import annotations

import base64
import logging
import sys
import threading
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, cast

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.dispatcher import coerce_request_id
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage

from edittools import SYNTAX_POLICIES, Session, SessionOptions, ToolError
from edittools.artifacts import ErrorArtifact, ImageArtifact, ToolResult
from edittools.artifacts.builders import by_reference
from edittools.dialects import result_to_mcp
from edittools.mcp_server._agents import Identities, Judged
from edittools.mcp_server._calls import InFlight
from edittools.mcp_server._card import (
    APPS_EXTENSION,
    CARD_RESOURCE,
    CARD_URI,
    card_contents,
    shows_cards,
    with_card_meta,
)
from edittools.mcp_server._http import Address, check_auth, new_token, parse_address, run_http
from edittools.mcp_server._images import DEFAULT_IMAGE_LIMITS, ImageLimits, for_model
from edittools.mcp_server._results import BLOB_URI
from edittools.mcp_server._surfaces import review_tools, structure_tools, surface_tools
from edittools.mcp_server._tool import SurfaceTool
from edittools.mcp_server._wire import Answered, ScreenedLines, Unanswered
from edittools.tools import Progress, image_mime

SERVER_NAME = "edittools"
SERVER_VERSION = "0.1.0"
TRANSPORTS = ("stdio", "http")
"""Transports `serve` speaks."""

_log = logging.getLogger(__name__)

_BLOB_PREFIX = BLOB_URI.removesuffix("{id}")
_RESOURCE_NOT_FOUND = -32002
"""The JSON-RPC error code MCP gave a resource that does not exist, before its 2026-07-28
revision; from that one on it is `_INVALID_PARAMS` (with the resource's `uri` in `data`)."""
_INVALID_PARAMS = -32602
_MODERN = "2026-07-28"

CANCELLING = (
    "A changing call cancelled (notifications/cancelled) before its change is committed writes "
    "nothing; a change already committed stands."
)
"""How a cancelled call ends: said once, in the server's instructions."""


def tool_definition(tool: SurfaceTool) -> types.Tool:
    """The MCP definition of a tool: schemas, title, and hints as the tool really behaves."""
    return types.Tool(
        name=tool.name,
        title=tool.title,
        description=tool.description,
        input_schema=tool.input_schema,
        annotations=types.ToolAnnotations(
            read_only_hint=tool.read_only,
            destructive_hint=tool.destructive,
            idempotent_hint=tool.idempotent,
            open_world_hint=False,
        ),
    )


def build_server(
    session: Session,
    *,
    surface: str = "edittools",
    inline_texts: bool = False,
    image_limits: ImageLimits = DEFAULT_IMAGE_LIMITS,
    in_flight: InFlight | None = None,
    structure: bool = False,
    identities: Identities | None = None,
) -> Server[Any]:
    """An MCP server exposing `session`'s tools under surface `surface`'s names and parameters.

    Results are compact (`compact`) unless `inline_texts`; the contents they refer to are
    resources at `edittools://blob/{id}`. A read image also goes to the model as an image block,
    scaled down to `image_limits`. Calls run one at a time, so a session (which is not
    thread-safe) never sees overlapping calls. A call that changes files runs on a worker thread,
    so the event loop still reads `notifications/cancelled`: a cancel that arrives before the
    change is committed stops it (nothing is written; `Session.call`). `in_flight`
    counts the calls being answered; once it is draining, new calls are refused as `busy`.
    `structure` adds the tools by structure and anchor (`tools.STRUCTURE`) to our surface;
    ValueError on another surface, whose agents know no such tools. `identities` is who a
    request is taken as (`Identities`: by default its token's agent, else its declared name).
    """
    tools = {tool.name: tool for tool in surface_tools(surface)}
    if structure:
        if surface != "edittools":
            raise ValueError(f"the tools by structure and anchor are ours: not on {surface!r}")
        tools |= {tool.name: tool for tool in structure_tools()}
    handlers = _Handlers(
        session, tools, inline_texts, image_limits, in_flight or InFlight(), identities
    )
    server = Server(
        SERVER_NAME,
        version=SERVER_VERSION,
        title="edittools",
        instructions=(
            f"File tools confined to the workspace root {session.sandbox.root}. Paths are "
            "relative to it (absolute paths inside it work too). Read a file before changing "
            f"it; every change returns a diff, and can be undone. {CANCELLING}"
        ),
        on_list_tools=handlers.list_tools,
        on_call_tool=handlers.call_tool,
        on_list_resources=handlers.list_resources,
        on_list_resource_templates=handlers.list_resource_templates,
        on_read_resource=handlers.read_resource,
    )
    server.add_notification_handler(
        "notifications/cancelled", types.CancelledNotificationParams, handlers.cancelled
    )
    server.extensions[APPS_EXTENSION] = {}
    return server


class _Handlers:
    """What the server answers: each request kind one method, over one session's tools."""

    def __init__(
        self,
        session: Session,
        tools: dict[str, SurfaceTool],
        inline_texts: bool,
        image_limits: ImageLimits,
        in_flight: InFlight,
        identities: Identities | None,
    ) -> None:
        self.session = session
        self.identities = identities or Identities()
        self.tools = tools
        self.inline_texts = inline_texts
        self.image_limits = image_limits
        self.in_flight = in_flight
        self.definitions = [tool_definition(tool) for tool in tools.values()]
        # Clients that show MCP Apps get the change card on every changing tool, and the review
        # tools the card calls (`changes` shows it too; `reject` is the card's alone).
        self.review = {tool.name: tool for tool in review_tools() if tool.name not in tools}
        self.with_card = [with_card_meta(tool_definition(t), t) for t in tools.values()]
        self.with_card += [with_card_meta(tool_definition(t), t) for t in self.review.values()]
        self.one_at_a_time = anyio.Lock(fast_acquire=True)
        self.cancels: dict[types.RequestId, threading.Event] = {}  # changing calls, by id

    def answer(self, result: ToolResult) -> types.CallToolResult:
        """A tool's result as the wire carries it (by reference unless texts go inline)."""
        wire = result_to_mcp(result if self.inline_texts else by_reference(result))
        if isinstance(result.artifact, ImageArtifact) and not result.is_error:
            wire["content"] += _image_blocks(self.session, result.artifact, self.image_limits)
        return types.CallToolResult.model_validate(wire)

    async def list_tools(
        self, ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self.with_card if shows_cards(ctx) else self.definitions)

    async def call_tool(
        self, ctx: Any, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        if self.in_flight.closing:
            message = (
                "The server is shutting down; the call was not run. Try again when it is back."
            )
            return self.answer(ToolError("busy", message).result())
        with self.in_flight:
            return await self._call_one(ctx, params)

    async def _call_one(
        self, ctx: Any, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        # Why reads stay on the event loop: a hop to a worker thread and back cost 0.06 ms idle
        # and 0.15-0.2 ms on a busy machine per call (two wake-ups), a third of a small read,
        # and a read has nothing to stop. A change costs milliseconds (its syncs), and needs
        # the loop free.
        tool = self.tools.get(params.name) or (
            self.review.get(params.name) if shows_cards(ctx) else None
        )
        if tool is None:
            known = ", ".join(self.tools)
            result = ToolError(
                "invalid_arguments", f"There is no tool {params.name!r}. Tools: {known}."
            ).result()
            return self.answer(result)
        arguments = params.arguments or {}
        agent = self.identities.of(ctx, params.meta)
        if tool.read_only or ctx.request_id is None:
            async with self.one_at_a_time:
                return self._run(tool, arguments, None, agent)
        key = coerce_request_id(ctx.request_id)  # as the SDK matches a cancel to its request
        cancel = self.cancels[key] = threading.Event()
        progress = _reporter(ctx) if _progress_token(params) is not None else None
        try:
            async with self.one_at_a_time:
                # Not abandoned when the SDK cancels this task: the lock is held until the
                # thread ends, and the cancel event stops the change if it is not yet committed.
                return await anyio.to_thread.run_sync(
                    self._run, tool, arguments, cancel, agent, progress
                )
        finally:
            if self.cancels.get(key) is cancel:
                del self.cancels[key]

    def _run(
        self,
        tool: SurfaceTool,
        arguments: dict[str, Any],
        cancel: threading.Event | None,
        agent: Judged,
        progress: Progress | None = None,
    ) -> types.CallToolResult:
        try:
            caller = self.session.caller(agent=agent.agent, cancel=cancel, progress=progress)
            return self.answer(_with_sharing(tool.call(caller, arguments), agent))
        except Exception as exc:  # the one place the server catches what the tools did not
            _log.exception("tool %s failed unexpectedly", tool.name)
            result = ToolError(
                "internal_error",
                f"{tool.name} failed unexpectedly ({type(exc).__name__}: {exc}). The file "
                "may be unchanged; read it before trying again.",
            ).result()
        return self.answer(result)

    async def cancelled(self, ctx: Any, params: types.CancelledNotificationParams) -> None:
        if params.request_id is not None:
            cancel = self.cancels.get(coerce_request_id(params.request_id))
            if cancel is not None:
                cancel.set()

    async def list_resource_templates(
        self, ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[_BLOB_TEMPLATE])

    async def list_resources(
        self, ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[CARD_RESOURCE] if shows_cards(ctx) else [])

    async def read_resource(
        self, ctx: Any, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri == CARD_URI:
            return types.ReadResourceResult(contents=[card_contents()])
        if not uri.startswith(_BLOB_PREFIX):
            raise _missing(ctx, uri, f"No resource {uri[:200]!r}: only {BLOB_URI}.")
        try:
            async with self.one_at_a_time:
                data = self.session.blob(uri[len(_BLOB_PREFIX) :])
        except ToolError as exc:
            raise _missing(ctx, uri, exc.message, {"code": exc.code}) from exc
        return types.ReadResourceResult(contents=[_contents(uri, data)])


def _with_sharing(result: ToolResult, agent: Judged) -> ToolResult:
    """`result`, when it is `not_read`, saying which agent the call was taken as and whose reads
    count for it (over HTTP, where that is the server's policy, not the client's own process)."""
    artifact = result.artifact
    if agent.sharing is None or not isinstance(artifact, ErrorArtifact):
        return result
    if artifact.payload.code != "not_read":
        return result
    message = f"{artifact.payload.message}\n{agent.sharing}"
    payload = artifact.payload.model_copy(update={"message": message})
    update = {"artifact": artifact.model_copy(update={"payload": payload})}
    return result.model_copy(update={**update, "value": f"{result.value}\n{agent.sharing}"})


_BLOB_TEMPLATE = types.ResourceTemplate(
    name="blob",
    title="Stored content",
    uri_template=BLOB_URI,
    description="A content a result refers to by id: a diff's old_ref or new_ref (the full old "
    "or new text), or an image's attachment id. Text comes as text, other bytes as a blob.",
)


def _contents(uri: str, data: bytes) -> types.TextResourceContents | types.BlobResourceContents:
    """A stored content as resource contents: UTF-8 text as text, anything else as a blob."""
    mime = image_mime(data)
    if mime is None:
        try:
            return types.TextResourceContents(uri=uri, mime_type="text/plain", text=data.decode())
        except UnicodeDecodeError:
            mime = "application/octet-stream"
    blob = base64.b64encode(data).decode("ascii")
    return types.BlobResourceContents(uri=uri, mime_type=mime, blob=blob)


def _image_blocks(
    session: Session, artifact: ImageArtifact, limits: ImageLimits
) -> list[dict[str, Any]]:
    """Image content blocks for the model: each attached image, scaled down to `limits`."""
    blocks = []
    for image in artifact.payload.images:
        if image.attachment is None:
            continue
        try:
            data = session.blob(image.attachment.id)
        except ToolError:
            continue
        fitted = for_model(data, image.mime, limits)
        if fitted is not None:
            encoded = base64.b64encode(fitted[0]).decode("ascii")
            blocks.append({"type": "image", "data": encoded, "mimeType": fitted[1]})
    return blocks


def serve(
    root: str,
    *,
    surface: str = "edittools",
    deny: Sequence[str] = (),
    options: SessionOptions | None = None,
    inline_texts: bool = False,
    image_limits: ImageLimits = DEFAULT_IMAGE_LIMITS,
    state_dir: str | None = None,
    transport: str = "stdio",
    syntax_check: str | None = None,
    allow_git_writes: bool | None = None,
    listen: str = "127.0.0.1:8000",
    token: str | None = None,
    tokens: Mapping[str, str | None] | None = None,
    no_auth: bool = False,
    allow_origins: Sequence[str] = (),
    structure: bool = False,
    agent_per_session: bool = False,
) -> None:
    """Serve the tools over `root` until the client ends its input (stdio: every request read
    before the end is answered first) or the server is stopped by SIGINT or SIGTERM (http),
    blocking.

    `surface` picks the tool names and parameters (see `SURFACES`); `deny` holds gitignore-style
    patterns the tools may not touch; `options` the session's policies (`SessionOptions`), of
    which `syntax_check` (the policy for changes that break a file's syntax) and
    `allow_git_writes` (lifting the rule refusing writes under `.git/`) may also be given alone;
    `inline_texts` and `image_limits` are `build_server`'s; `state_dir` overrides where the
    root's state is kept (see `Session`); `structure` adds the tools by structure and anchor.

    Over `transport="http"` the server listens at `listen` (`[HOST:]PORT`) for any number of
    clients at once, one session state for all. Every request must carry `token` (or one of
    `tokens`) as a bearer token, on every address (another user of the machine can reach a
    loopback port): when none is given one is made and printed once on standard error. Only on
    a loopback address may `no_auth` serve without one. Browser pages may call only from the
    server's own origin and `allow_origins`. A request is the agent its token is mapped to in
    `tokens`, else the name its client declares (`_meta["edittools/agent"]`, else
    `clientInfo.name`), with its session's id when `agent_per_session` (`Identities`).

    Raises ValueError for an unknown surface, transport or syntax policy, a malformed `listen`,
    or `no_auth` beyond loopback or with a token, and the sandbox's error when `root` cannot be
    opened.
    """
    if transport not in TRANSPORTS:
        raise ValueError(f"unknown transport {transport!r}; choose one of: {', '.join(TRANSPORTS)}")
    surface_tools(surface)  # refuse an unknown surface before taking over stdio
    if structure and surface != "edittools":
        raise ValueError(f"the tools by structure and anchor are ours: not on {surface!r}")
    options = options or SessionOptions()
    if syntax_check is not None:
        options = replace(options, syntax_check=syntax_check)  # type: ignore[arg-type]
    if allow_git_writes is not None:
        options = replace(options, allow_git_writes=allow_git_writes)
    if options.syntax_check not in SYNTAX_POLICIES:
        raise ValueError(
            f"unknown syntax_check {options.syntax_check!r}; choose one of: "
            f"{', '.join(SYNTAX_POLICIES)}"
        )
    address = parse_address(listen)
    if token is not None:
        tokens = {**(tokens or {}), token: None}
    if transport == "http":
        tokens = _tokens_asked(address, tokens, no_auth=no_auth)
    with Session(root, deny=deny, state_dir=state_dir, options=options) as session:
        in_flight = InFlight()
        server = build_server(
            session,
            surface=surface,
            inline_texts=inline_texts,
            image_limits=image_limits,
            in_flight=in_flight,
            structure=structure,
            identities=Identities(per_session=agent_per_session),
        )
        if transport == "http":
            run_http(server, in_flight, address=address, tokens=tokens, allow_origins=allow_origins)
        else:
            anyio.run(_run_stdio, server, in_flight)


def _tokens_asked(
    address: Address, tokens: Mapping[str, str | None] | None, *, no_auth: bool
) -> Mapping[str, str | None] | None:
    """The tokens an HTTP server at `address` asks: `tokens`, else one made here and printed
    once on standard error; none with `no_auth` (ValueError where that is refused)."""
    check_auth(address, tokens=tokens, no_auth=no_auth)
    if tokens is not None or no_auth:
        return tokens
    token = new_token()
    print(f"edittools: bearer token (shown once): {token}", file=sys.stderr, flush=True)
    return {token: None}


async def _run_stdio(server: Server[Any], in_flight: InFlight) -> None:
    """Run `server` over standard input and output, answering malformed lines (`ScreenedLines`)
    and, at the end of input, every request read before it (`Unanswered`) before it returns."""
    answers, unanswered = anyio.create_memory_object_stream[types.JSONRPCError](16)
    waiting = Unanswered(in_flight)
    lines = ScreenedLines(anyio.wrap_file(sys.stdin.buffer), answers, unanswered=waiting)
    # The SDK only iterates its `stdin`: screened lines stand in for the file.
    stdin = cast("anyio.AsyncFile[str]", lines)
    async with stdio_server(stdin=stdin) as (read_stream, sdk_write_stream):
        write_stream = Answered(sdk_write_stream, waiting)

        async def answer_malformed() -> None:
            async with unanswered:
                async for error in unanswered:
                    await write_stream.send(SessionMessage(error))

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(answer_malformed)
            await server.run(read_stream, write_stream, server.create_initialization_options())
            tasks.cancel_scope.cancel()


def _progress_token(params: types.CallToolRequestParams) -> Any:
    """The progress token the client sent with a call, or None."""
    return (params.meta or {}).get("progress_token")


_PROGRESS_WAIT = 1.0
"""Most seconds a change waits to hand the client one progress report; past it the report is
dropped (a client that reads nothing must not stall the change and every call behind it)."""


def _reporter(ctx: Any) -> Progress:
    """Progress for a call running on a worker thread: each report is sent as the request's
    `notifications/progress` from the event loop, the worker waiting until it is written."""

    async def send(done: int, total: int, message: str) -> None:
        with anyio.move_on_after(_PROGRESS_WAIT):
            await ctx.session.report_progress(done, total, message)

    def report(done: int, total: int, message: str) -> None:
        anyio.from_thread.run(send, done, total, message)

    return report


def _missing(ctx: Any, uri: str, message: str, data: dict[str, Any] | None = None) -> MCPError:
    """The error for a resource that does not exist, as the connection's protocol revision
    words it: -32602 from 2026-07-28 on, -32002 before; the `uri` in `data` either way."""
    version = str(getattr(ctx, "protocol_version", "") or "")
    code = _INVALID_PARAMS if version >= _MODERN else _RESOURCE_NOT_FOUND
    return MCPError(code, message, {**(data or {}), "uri": uri[:1000]})
