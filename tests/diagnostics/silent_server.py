"""A language server that starts and then never reports a diagnostic: the tests' hung server."""

from pygls.lsp.server import LanguageServer

if __name__ == "__main__":
    LanguageServer("silent", "1").start_io()
