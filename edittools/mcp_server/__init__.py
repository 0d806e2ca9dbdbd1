"""The MCP server: the tools over one root directory, for any MCP client, in several dialects.

`serve(root)` speaks MCP over stdio until the client disconnects; `build_server(session)` gives
the SDK server for other transports or in-process use. Each call answers with the model-facing
text, the `ToolResult` (artifact included) as structured content, and `isError`.
"""

from edittools.mcp_server._results import output_schema
from edittools.mcp_server._server import build_server, serve, tool_definition
from edittools.mcp_server._surfaces import DIALECTS, surface
from edittools.mcp_server._tool import SurfaceTool

__all__ = [
    "DIALECTS",
    "SurfaceTool",
    "build_server",
    "output_schema",
    "serve",
    "surface",
    "tool_definition",
]
