"""The MCP server: the tools over one root directory, for any MCP client, under several surfaces.

A surface is the tool names and parameters shown: ours, or another agent's (`SURFACES`).

`serve(root)` speaks MCP over stdio until the client disconnects, or over streamable HTTP to any
number of clients (`transport="http"`); `build_server(session)` gives the SDK server for other
transports or in-process use. Each call answers with the model-facing text (and, for a read
image, the image scaled to `ImageLimits`), the rest of the `ToolResult` under
`_meta["edittools/result"]` with full texts by reference (resources at `BLOB_URI`), and
`isError`.
"""

from edittools.mcp_server._command import serve_command, serve_parser
from edittools.mcp_server._images import ImageLimits
from edittools.mcp_server._results import BLOB_URI
from edittools.mcp_server._server import build_server, serve, tool_definition
from edittools.mcp_server._surfaces import SURFACES, surface_tools
from edittools.mcp_server._tool import SurfaceTool

__all__ = [
    "BLOB_URI",
    "SURFACES",
    "ImageLimits",
    "SurfaceTool",
    "build_server",
    "serve",
    "serve_command",
    "serve_parser",
    "surface_tools",
    "tool_definition",
]
