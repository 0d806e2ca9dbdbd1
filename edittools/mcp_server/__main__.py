"""`python -m edittools.mcp_server --root DIR [--surface NAME] [--deny PATTERN ...]`: serve over stdio."""

from edittools.mcp_server._command import serve_command

if __name__ == "__main__":
    serve_command()
